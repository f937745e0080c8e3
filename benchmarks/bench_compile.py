"""Compile speed of data tiling, against IREE's: dispatch creation, or the whole pipeline.

    python benchmarks/bench_compile.py                    # chains of 10/100/400/1600 matmuls
    python benchmarks/bench_compile.py --sizes 10,100 --repeat 3
    python benchmarks/bench_compile.py --pipeline data-tiling --sizes 10,100,400

Each program is a function whose body chains N dynamic f32 matmuls, each as in
``examples/matmul.mlir`` (``tensor.dim`` sizes, ``tensor.empty``, ``linalg.fill``
with zero, ``linalg.matmul``) with the previous result as its LHS and a
function argument of its own as its RHS. For each N it prints the CPU time
(user + system, best of ``--repeat``) and the peak resident memory of

* ``--pipeline dispatch-creation`` (the default):
  ``mini-iree-opt -p data-tiling-dispatch-creation`` against IREE's same stage,
  ``iree-compile --iree-dispatch-creation-data-tiling --compile-to=flow``;
* ``--pipeline data-tiling``: the whole pipeline,
  ``mini-iree-opt -p 'data-tiling{target=TARGET}'``, against ``iree-compile``
  all the way to a ``.vmfb`` for the same CPU features (IREE also runs LLVM's
  code generation, which mini-iree does not have);

each tool a fresh process (start-up counts, as it does for IREE), IREE for the
local llvm-cpu device and only when ``iree-compile`` is on PATH (or given with
``--iree-compile``). Each tool's growth from the previous size
(``t(100)/t(10)``, ...) is printed, and the same growth per 4x more matmuls
(``growth ** (log 4 / log(size ratio))``, so that a linear tool shows 4.0x
between any two sizes), with the ratio of the two tools' times. Growth well
above 4x per 4x means some step is worse than linear. Times are measured,
never asserted.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from machine import cpu_name  # benchmarks/ is on sys.path when a benchmark runs

# The CPU features of the whole-pipeline comparison (mini-iree's `target=`, IREE's
# --iree-llvmcpu-target-cpu-features): AVX2, as the walkthrough's host.
DEFAULT_TARGET = "x86_64:+avx,+avx2,+fma"

IREE_DEVICE_FLAGS = [
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
]

IREE_FLAGS = ["--iree-dispatch-creation-data-tiling", "--compile-to=flow", *IREE_DEVICE_FLAGS]


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


def cpu_time(command: list[str]) -> tuple[float, float]:
    """CPU seconds (user + system, all threads) and peak resident MB of the command's process.

    Fails if the command fails. Each tool is one process (mini-iree-opt runs
    in-process, iree-compile in threads), so its own resource usage is all of it.
    """
    with tempfile.TemporaryFile() as stderr:
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            stderr.seek(0)
            message = stderr.read().decode(errors="replace")[-2000:]
            sys.exit(f"{command[0]} failed ({proc.returncode}):\n{message}")
    # ru_maxrss is in kilobytes on Linux (bytes on macOS).
    peak = usage.ru_maxrss / (1 << 20 if sys.platform == "darwin" else 1 << 10)
    return usage.ru_utime + usage.ru_stime, peak


def mini_iree_command(path: Path, out: Path, pipeline: str = "dispatch-creation", target: str = DEFAULT_TARGET) -> list[str]:
    flag = "data-tiling-dispatch-creation" if pipeline == "dispatch-creation" else f"data-tiling{{target={target}}}"
    return [sys.executable, "-m", "mini_iree.compiler.tools.opt_main", str(path), "-p", flag, "-o", str(out)]


def iree_features(target: str) -> str:
    """IREE's --iree-llvmcpu-target-cpu-features for a mini-iree ``target=`` (``x86_64:+avx,...``)."""
    return target.split(":", 1)[1] if ":" in target else ""


def iree_command(
    iree_compile: str, path: Path, out: Path, pipeline: str = "dispatch-creation", target: str = DEFAULT_TARGET
) -> list[str]:
    if pipeline == "dispatch-creation":
        return [iree_compile, str(path), *IREE_FLAGS, "-o", str(out)]
    arch = target.split(":", 1)[0]
    return [
        iree_compile,
        str(path),
        "--iree-dispatch-creation-data-tiling",
        *IREE_DEVICE_FLAGS,
        f"--iree-llvmcpu-target-triple={arch}-unknown-unknown-eabi-elf",
        f"--iree-llvmcpu-target-cpu-features={iree_features(target)}",
        "-o",
        str(out.with_suffix(".vmfb")),
    ]


def _growth(times: list, sizes: list[int], i: int) -> tuple[str, str]:
    """``t(i) / t(i - 1)``, and the same growth per 4x more matmuls."""
    if i == 0 or times[i] is None or not times[i - 1]:
        return "", ""
    growth = times[i] / times[i - 1]
    per_4x = growth ** (math.log(4) / math.log(sizes[i] / sizes[i - 1]))
    return f"{growth:.2f}x", f"{per_4x:.2f}x"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10,100,400,1600", help="chain lengths, comma-separated")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs per tool and size")
    parser.add_argument(
        "--pipeline",
        choices=("dispatch-creation", "data-tiling"),
        default="dispatch-creation",
        help="dispatch creation only (against --compile-to=flow), or the whole pipeline (against a .vmfb)",
    )
    parser.add_argument("--target", default=DEFAULT_TARGET, help=f"CPU target of --pipeline data-tiling ({DEFAULT_TARGET})")
    parser.add_argument("--iree-compile", default=None, help="the iree-compile to compare with (default: the one on PATH)")
    parser.add_argument("--no-iree", action="store_true", help="do not run iree-compile even if it is on PATH")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    iree = None if args.no_iree else (args.iree_compile or shutil.which("iree-compile"))

    ours: list = []
    theirs: list = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            src = Path(tmp, f"chain{n}.mlir")
            src.write_text(matmul_chain(n))
            out = Path(tmp, "out.mlir")
            # Alternate the tools, so that load from other processes affects both.
            mine, other = [], []
            for _ in range(max(1, args.repeat)):
                mine.append(cpu_time(mini_iree_command(src, out, args.pipeline, args.target)))
                if iree is not None:
                    other.append(cpu_time(iree_command(iree, src, out, args.pipeline, args.target)))
            # The fastest run's time; the largest peak (memory does not depend on load).
            ours.append((min(t for t, _ in mine), max(m for _, m in mine)))
            theirs.append((min(t for t, _ in other), max(m for _, m in other)) if other else None)

    if args.pipeline == "dispatch-creation":
        print("CPU seconds (user + system), -p data-tiling-dispatch-creation vs IREE --compile-to=flow")
    else:
        print(f"CPU seconds (user + system), -p 'data-tiling{{target={args.target}}}' vs IREE to a .vmfb")
    print(f"CPU: {cpu_name()} ({os.cpu_count()} CPUs)")
    print(f"iree-compile: {iree or 'not on PATH'}")
    header = (
        f"{'matmuls':>8}  {'mini-iree-opt':>13}  {'growth':>7}  {'per 4x':>7}  {'peak MB':>8}"
        f"  {'iree-compile':>12}  {'growth':>7}  {'per 4x':>7}  {'peak MB':>8}  {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    our_times = [t for t, _ in ours]
    their_times = [t[0] if t else None for t in theirs]
    for i, n in enumerate(sizes):
        (mine_t, mine_mb), iree_row = ours[i], theirs[i]
        growth, per_4x = _growth(our_times, sizes, i)
        line = f"{n:>8}  {mine_t:13.2f}  {growth:>7}  {per_4x:>7}  {mine_mb:8.0f}"
        if iree_row is not None:
            iree_t, iree_mb = iree_row
            growth, per_4x = _growth(their_times, sizes, i)
            ratio = f"{mine_t / iree_t:5.2f}x" if iree_t else f"{'-':>6}"
            line += f"  {iree_t:12.2f}  {growth:>7}  {per_4x:>7}  {iree_mb:8.0f}  {ratio:>6}"
        else:
            line += f"  {'-':>12}  {'':>7}  {'':>7}  {'-':>8}  {'-':>6}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
