"""Where a Jones 2005 run's event loop spends its time, by numba kernel (Linux ``perf``).

``perf`` samples numba's machine code as anonymous addresses. This script compiles the
kernels afresh (numba's cache in a temporary folder: a kernel loaded from the cache
keeps no list of its functions), writes ``/tmp/perf-<pid>.map`` from the compiled
libraries (every function's address, so each sample carries a kernel's name), attaches
``perf record`` to itself for ``--runs`` runs of ``run_to_end`` (the state is built
before the sampling starts) and prints each kernel's share of the loop's samples.
Functions numba inlined into a caller count as the caller.

``--non-atomic-counts`` compiles numba's reference counts without ``lock``, as plain
loads and stores (:func:`plain_reference_counts`; this process only, never in the
package): a locked instruction waits for the stores before it, so with atomic counts
the samples that land on it show where the loop waits, not what the counts cost
(``docs/architecture.md``).

Run: ``python benchmarks/profile_kernels.py migration_only`` (Section 6.1's set-up,
400,000 jobs per cluster; the first compilation takes a few minutes); ``b2 --bsbw 300``;
``--jobs-per-cluster`` for a smaller run. Needs ``perf`` (Debian: ``apt-get install
linux-perf``) and the right to sample this process (``kernel.perf_event_paranoid`` <= 2,
or root). Not part of ``make bench``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

NRT_FUNCTIONS = ("NRT_incref", "NRT_decref")


def kernel_name(symbol: str) -> str:
    """``hpcmodels.multicluster.events.process_events`` from numba's mangled
    ``_ZN9hpcmodels12multicluster6events14process_eventsB3v18...``."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, rest = [], symbol[3:]
    while (match := re.match(r"(\d+)", rest)) is not None:
        size = int(match.group(1))
        start = match.end()
        parts.append(rest[start : start + size])
        rest = rest[start + size :]
    return ".".join(parts) or symbol


def compiled_functions() -> dict[int, str]:
    """Address -> kernel name of every function numba compiled for the package so far,
    with the runtime's reference-count functions."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher
    from numba.core.runtime import nrt

    import hpcmodels

    found: dict[int, str] = {}
    for info in pkgutil.walk_packages(hpcmodels.__path__, "hpcmodels."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        for value in vars(module).values():
            if not isinstance(value, CPUDispatcher):
                continue
            for result in value.overloads.values():
                library = result.library
                for function in library._final_module.functions:
                    if not function.is_declaration:
                        address = library.get_pointer_to_function(function.name)
                        if address:
                            found[address] = kernel_name(function.name)
    for name in NRT_FUNCTIONS:
        found[nrt.rtsys.library.get_pointer_to_function(name)] = f"numba reference counts ({name})"
    return found


def write_perf_map(functions: dict[int, str]) -> Path:
    """``/tmp/perf-<pid>.map``: ``start size name`` per function, each function taken
    to end where the next one starts."""
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    starts = sorted(functions)
    with path.open("w") as out:
        for start, end in zip(starts, starts[1:] + [starts[-1] + 4096], strict=True):
            out.write(f"{start:x} {min(end - start, 1 << 20):x} {functions[start]}\n")
    return path


def kernel_shares(data: Path, names: set[str]) -> list[tuple[str, float]]:
    """Each kernel's share of the samples that landed in the package's kernels."""
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--sort", "symbol", "--stdio"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    shares: Counter[str] = Counter()
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(.+?)(\s+-)*\s*$", line)
        if match and match.group(2) in names:
            shares[match.group(2)] += float(match.group(1))
    total = sum(shares.values())
    if total == 0:
        sys.exit("perf recorded no sample in the package's kernels: may it sample this "
                 "process? (kernel.perf_event_paranoid <= 2, or root)")  # fmt: skip
    return [(name, 100 * share / total) for name, share in shares.most_common()]


def plain_reference_counts() -> None:
    """Compile numba's reference counts in this process as plain loads and stores.

    numba's own switch (``nrtdynmod._disable_atomicity``) makes its increment and
    decrement return the count from before the change (numba 0.68), so ``NRT_decref``
    never sees 0 and no array the kernels allocate is ever freed: a run that allocates
    in its loop (a co-allocation module's tables, a link re-allotment's matrices) then
    grows and faults in new pages. Here both return the new count, as the atomic ones
    do. Call before anything is compiled."""
    import numba.core.runtime.nrtdynmod as nrtdynmod
    from llvmlite import ir

    def plain_inc_dec(module, op, ordering):
        word = nrtdynmod._word_type
        function = ir.Function(module, ir.FunctionType(word, [word.as_pointer()]),
                               name=f"nrt_atomic_{op}")  # fmt: skip
        builder = ir.IRBuilder(function.append_basic_block())
        [pointer] = function.args
        new = getattr(builder, op)(builder.load(pointer), ir.Constant(word, 1))
        builder.store(new, pointer)
        builder.ret(new)
        return function

    nrtdynmod._define_atomic_inc_dec = plain_inc_dec


def at_least_one(text: str) -> int:
    """An argparse type: a whole number >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategy", nargs="?", default="migration_only")
    parser.add_argument("--bsbw", type=float, default=500.0, help="Mbps (default 500)")
    parser.add_argument("--jobs-per-cluster", type=at_least_one, default=400_000)
    parser.add_argument("--runs", type=at_least_one, default=5)
    parser.add_argument("--non-atomic-counts", action="store_true")
    args = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("perf not found: install it (Debian: apt-get install linux-perf)")
    cache = tempfile.mkdtemp(prefix="profile-kernels-")
    os.environ["NUMBA_CACHE_DIR"] = cache
    if args.non_atomic_counts:
        plain_reference_counts()
    try:
        profile(args)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        Path(f"/tmp/perf-{os.getpid()}.map").unlink(missing_ok=True)


def profile(args: argparse.Namespace) -> None:
    """Compile, map, sample ``args.runs`` runs and print the shares (see the module)."""

    from dataclasses import replace

    from hpcmodels.bandwidth import SECTION6, workload
    from hpcmodels.bandwidth.experiment import _plan
    from hpcmodels.multicluster.engine import SIMULATE_DEFAULTS, prepare_run, run_to_end

    setup = replace(SECTION6, jobs_per_cluster=args.jobs_per_cluster)
    jobs = workload(setup, 0)
    keywords = SIMULATE_DEFAULTS | _plan(args.strategy, setup, args.bsbw, 1.0, 0.8, None)

    def prepared():
        return prepare_run(jobs, setup.system, "first_available", **keywords)

    print("compiling the kernels afresh ...", flush=True)
    run = prepared()
    run_to_end(run.state, run.rate_code, run.params)
    functions = compiled_functions()
    write_perf_map(functions)
    states = [prepared() for _ in range(args.runs)]
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "perf.data"
        record = subprocess.Popen(
            ["perf", "record", "-F", "2000", "-p", str(os.getpid()), "-o", str(data)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(1.0)  # perf attaches
        if record.poll() is not None:
            sys.exit(f"perf record stopped at once (exit {record.returncode}): may it "
                     "sample this process? (kernel.perf_event_paranoid <= 2, or root)")  # fmt: skip
        seconds = []
        for run in states:
            start = time.process_time()
            run_to_end(run.state, run.rate_code, run.params)
            seconds.append(time.process_time() - start)
        record.send_signal(signal.SIGINT)
        record.wait()
        shares = kernel_shares(data, set(functions.values()))
    counts = "non-atomic" if args.non_atomic_counts else "atomic"
    print(f"{args.strategy}, {args.jobs_per_cluster:,} jobs per cluster, {counts} reference "
          f"counts: run_to_end {min(seconds):.3f}-{max(seconds):.3f} s CPU ({args.runs} runs)")  # fmt: skip
    for name, share in shares:
        if share >= 0.5:
            print(f"{share:6.1f} %  {name}")


if __name__ == "__main__":
    main()
