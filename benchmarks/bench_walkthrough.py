"""How long the walkthrough pages of the examples take to make, and how large they are.

    python benchmarks/bench_walkthrough.py                 # every examples/*.mlir, each with its own pipeline
    python benchmarks/bench_walkthrough.py --repeat 3 --compare

For each program it prints the CPU time (user + system of a fresh
``mini-iree-walkthrough`` process, so start-up counts; best of ``--repeat``)
and the page's size, then the total, and the time of one process making all
the pages (``mini-iree-walkthrough examples/*.mlir --output-dir DIR``), with
the CPU's name. The goal: the seven
examples in under 10 s of CPU together, every page under 3 MB.
``--compare`` also times the gfx942 / x86_64 comparison page of
examples/matmul.mlir. Times are measured, never asserted (the tests assert
the sizes).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import cpu_name  # benchmarks/ is on sys.path when a benchmark runs

REPO = Path(__file__).resolve().parents[1]


def cpu_seconds(args: list[str]) -> float:
    """User + system CPU time of one child process running ``args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs (default 1)")
    parser.add_argument("--compare", action="store_true", help="also the two-target comparison page of matmul")
    args = parser.parse_args()
    tool = [sys.executable, "-m", "mini_iree.compiler.tools.walkthrough_main"]
    jobs = [(p.name, [str(p)]) for p in sorted((REPO / "examples").glob("*.mlir"))]
    if args.compare:
        pipelines = ["data-tiling{target=gfx942}", "data-tiling{target=x86_64:+avx512f}"]
        jobs.append(("matmul.mlir --compare", [str(REPO / "examples" / "matmul.mlir"), "--compare", *pipelines]))
    print(f"CPU: {cpu_name()}")
    print(f"{'program':<40} {'CPU s':>8} {'page MB':>8}")
    total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, job in jobs:
            out = Path(tmp) / "page.html"
            best = min(cpu_seconds([*tool, *job, "-o", str(out)]) for _ in range(args.repeat))
            size = out.stat().st_size / 1e6 if out.exists() else float("nan")
            if not name.endswith("--compare"):
                total += best
            print(f"{name:<40} {best:8.2f} {size:8.2f}")
    print(f"{'the examples, one process each':<40} {total:8.2f}   (goal: under 10 s)")
    with tempfile.TemporaryDirectory() as tmp:
        programs = [job[0] for name, job in jobs if not name.endswith("--compare")]
        best = min(cpu_seconds([*tool, *programs, "--output-dir", tmp]) for _ in range(args.repeat))
    print(f"{'the examples, one process (--output-dir)':<40} {best:8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
