"""Compile speed of the dispatch-creation half of data tiling, against IREE's.

    python benchmarks/bench_compile.py                    # chains of 10/100/400/1600 matmuls
    python benchmarks/bench_compile.py --sizes 10,100 --repeat 3

Each program is a function whose body chains N dynamic f32 matmuls, each as in
``examples/matmul.mlir`` (``tensor.dim`` sizes, ``tensor.empty``, ``linalg.fill``
with zero, ``linalg.matmul``) with the previous result as its LHS and a
function argument of its own as its RHS. For each N it prints the CPU time
(user + system, best of ``--repeat``) of

* ``mini-iree-opt -p data-tiling-dispatch-creation`` (a fresh process, so
  start-up counts, as it does for IREE), and
* when ``iree-compile`` is on PATH, IREE's same stage:
  ``iree-compile --iree-dispatch-creation-data-tiling --compile-to=flow``
  for the local llvm-cpu device,

with each tool's growth from the previous size (``t(100)/t(10)``, ...) and the
ratio of the two. A program ten times longer should take about ten times as
long (four times as long from 400 to 1600): growth well above that means some
step is worse than linear. Times are measured, never asserted.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

IREE_FLAGS = [
    "--iree-dispatch-creation-data-tiling",
    "--compile-to=flow",
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
]


def matmul_chain(n: int) -> str:
    """A function chaining ``n`` dynamic f32 matmuls: ``x_{i+1} = x_i @ w_i``."""
    weights = ", ".join(f"%w{i}: tensor<?x?xf32>" for i in range(n))
    lines = [
        f"func.func @chain(%x0: tensor<?x?xf32>, {weights}) -> tensor<?x?xf32> {{",
        "  %c0 = arith.constant 0 : index",
        "  %c1 = arith.constant 1 : index",
        "  %cst = arith.constant 0.000000e+00 : f32",
    ]
    for i in range(n):
        x, t = f"%x{i}", "tensor<?x?xf32>"
        lines += [
            f"  %m{i} = tensor.dim {x}, %c0 : {t}",
            f"  %n{i} = tensor.dim %w{i}, %c1 : {t}",
            f"  %e{i} = tensor.empty(%m{i}, %n{i}) : {t}",
            f"  %f{i} = linalg.fill ins(%cst : f32) outs(%e{i} : {t}) -> {t}",
            f"  %x{i + 1} = linalg.matmul ins({x}, %w{i} : {t}, {t}) outs(%f{i} : {t}) -> {t}",
        ]
    lines += [f"  return %x{n} : tensor<?x?xf32>", "}"]
    return "\n".join(lines) + "\n"


def cpu_time(command: list[str]) -> float:
    """CPU seconds (user + system) the command's process tree used; fails if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{command[0]} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def mini_iree_command(path: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "mini_iree.compiler.tools.opt_main",
        str(path),
        "-p",
        "data-tiling-dispatch-creation",
        "-o",
        str(out),
    ]


def iree_command(iree_compile: str, path: Path, out: Path) -> list[str]:
    return [iree_compile, str(path), *IREE_FLAGS, "-o", str(out)]


def _growth(times: list[float | None], i: int) -> str:
    if i == 0 or times[i] is None or not times[i - 1]:
        return ""
    return f"{times[i] / times[i - 1]:.2f}x"  # type: ignore[operator]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,400,1600", help="chain lengths, comma-separated")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs per tool and size")
    parser.add_argument("--no-iree", action="store_true", help="do not run iree-compile even if it is on PATH")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    iree = None if args.no_iree else shutil.which("iree-compile")

    ours: list[float | None] = []
    theirs: list[float | None] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            src = Path(tmp, f"chain{n}.mlir")
            src.write_text(matmul_chain(n))
            out = Path(tmp, "out.mlir")
            # Alternate the tools, so that load from other processes affects both.
            mine, other = [], []
            for _ in range(max(1, args.repeat)):
                mine.append(cpu_time(mini_iree_command(src, out)))
                if iree is not None:
                    other.append(cpu_time(iree_command(iree, src, out)))
            ours.append(min(mine))
            theirs.append(min(other) if other else None)

    print("CPU seconds (user + system), -p data-tiling-dispatch-creation vs IREE --compile-to=flow")
    print(f"iree-compile: {iree or 'not on PATH'}")
    header = f"{'matmuls':>8}  {'mini-iree-opt':>13}  {'growth':>7}  {'iree-compile':>12}  {'growth':>7}  {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for i, n in enumerate(sizes):
        mine_t, iree_t = ours[i], theirs[i]
        iree_text = f"{iree_t:12.2f}" if iree_t is not None else f"{'-':>12}"
        ratio = f"{mine_t / iree_t:5.2f}x" if iree_t else f"{'-':>6}"
        print(f"{n:>8}  {mine_t:13.2f}  {_growth(ours, i):>7}  {iree_text}  {_growth(theirs, i):>7}  {ratio:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
