"""Command line: ``python -m hpcmodels reproduce [notebook ...]`` and ``report``.

``reproduce`` executes notebooks with papermill at their quick defaults (or with
``-p name value`` overrides), keeps the executed copies in ``build/notebooks/``, and
writes ``build/REPORT.md`` from the results every notebook saved in ``build/results/``.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

from .papers.report import write_report

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BUILD = ROOT / "build"


def find_notebooks(selectors: list[str]) -> list[Path]:
    """All notebooks, or those whose file name starts with or contains a selector."""
    available = sorted(p for p in NOTEBOOKS.glob("[0-9]*.ipynb"))
    if not selectors:
        return available
    chosen = []
    for sel in selectors:
        matches = [p for p in available if p.name.startswith(sel) or sel in p.stem]
        if not matches:
            names = ", ".join(p.name for p in available)
            raise SystemExit(f"no notebook matches {sel!r}; available: {names}")
        chosen += [m for m in matches if m not in chosen]
    return chosen


def _parse_value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def reproduce(selectors: list[str], parameters: dict, kernel: str | None) -> int:
    import papermill

    out_dir = BUILD / "notebooks"
    out_dir.mkdir(parents=True, exist_ok=True)
    for nb in find_notebooks(selectors):
        print(f"==> {nb.name}", flush=True)
        papermill.execute_notebook(
            str(nb),
            str(out_dir / nb.name),
            parameters=parameters,
            cwd=str(NOTEBOOKS),
            kernel_name=kernel,
            progress_bar=True,
        )
    report = write_report(BUILD / "results", BUILD / "REPORT.md")
    print(f"report: {report}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hpcmodels", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("reproduce", help="run notebooks with papermill and write the report")
    rep.add_argument("notebooks", nargs="*", help="notebook names or prefixes (default: all)")
    rep.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="papermill parameter override",
    )
    rep.add_argument("-k", "--kernel", default=None, help="kernel name (default: notebook's)")
    sub.add_parser("report", help="rebuild build/REPORT.md from build/results/")
    args = parser.parse_args(argv)
    if args.command == "reproduce":
        params = {name: _parse_value(value) for name, value in args.parameter}
        return reproduce(args.notebooks, params, args.kernel)
    print(write_report(BUILD / "results", BUILD / "REPORT.md"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
