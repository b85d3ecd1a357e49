"""Every notebook ends with exercises a teacher can set: a `## Exercises` section of three
to five `### Exercise k: ...` tasks, each followed by one hidden answer cell (collapsed in
JupyterLab and on the site) that reasons in comments and prints a computed conclusion."""

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[1-6]_*.ipynb"))
ANSWER_TAGS = {"exercise-answer", "hide-cell", "nbval-ignore-output"}


def _source(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _is_heading_2(cell: dict) -> bool:
    return cell["cell_type"] == "markdown" and any(
        line.startswith("## ") for line in _source(cell).splitlines()
    )


ANSWER_FIRST_LINE = (
    "# Worked answer: try the exercise first (this line is all a collapsed cell shows)"
)
"""Issue 52: every answer cell opens with this line, the one JupyterLab shows of a
collapsed cell; it used to be the answer's first sentence."""


def test_the_six_notebooks_are_checked():
    assert [p.name[:2] for p in NOTEBOOKS] == ["01", "02", "03", "04", "05", "06"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name[:2])
def test_each_notebook_ends_with_its_exercises(path):
    cells = json.loads(path.read_text())["cells"]
    headings = [i for i, cell in enumerate(cells) if _is_heading_2(cell)]
    assert headings, f"{path.name} has no heading-2 cell"
    start = headings[-1]
    first_line = _source(cells[start]).strip().splitlines()[0]
    assert first_line == "## Exercises", f"{path.name}: the last ## section is {first_line!r}"
    rest = cells[start + 1 :]
    assert len(rest) % 2 == 0, f"{path.name}: every exercise is a task and one answer cell"
    assert 3 <= len(rest) // 2 <= 5, f"{path.name}: {len(rest) // 2} exercises"
    for k, (task, answer) in enumerate(zip(rest[::2], rest[1::2], strict=True), start=1):
        where = f"{path.name}, exercise {k}"
        assert task["cell_type"] == "markdown", where
        assert _source(task).startswith(f"### Exercise {k}: "), where
        assert answer["cell_type"] == "code", f"{where}: one answer cell follows the task"
        metadata = answer["metadata"]
        assert ANSWER_TAGS <= set(metadata.get("tags", [])), where
        assert metadata.get("jupyter", {}).get("source_hidden") is True, where
        code = _source(answer)
        # JupyterLab shows a collapsed cell's first line: it must not give the answer away
        first, _, rest = code.partition("\n")
        assert first == ANSWER_FIRST_LINE, where
        assert rest.startswith("# Answer:"), where
        assert "print(" in code, f"{where}: the answer prints its conclusion"
