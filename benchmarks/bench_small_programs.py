"""The pipeline's own output on small matmuls, run by the interpreter, against numpy.

    python benchmarks/bench_small_programs.py                  # 255x513x1023, 256^3, 512^3
    python benchmarks/bench_small_programs.py --sizes 2048x2048x2048 --pairs 5
    python benchmarks/bench_small_programs.py --program out.mlir   # an already compiled program

``examples/matmul.mlir`` is compiled once per target with
``data-tiling{target=...}`` (or ``--program`` is read), then for each problem
size numpy's ``A @ B`` and the interpreted program run alternately on the same
f32 inputs, ``--pairs`` times each, after warm-up calls: the interpreter's
program is prepared once (parsed, its blocks planned on the first call, its
calls recorded and then replayed, ``compiler/interpreter/replay.py``), as a
caller running it repeatedly would have it. Each pair gives a ratio
``numpy time / interpreter time``; the median ratio is printed, with each
side's best time. Times are this process's CPU time with one BLAS thread
(``OPENBLAS_NUM_THREADS=1`` and the like, set before numpy loads), so that
load from other processes, which takes the CPU away between instructions,
inflates neither side. Whether the interpreter's result equals numpy's bit for
bit is printed too. Times are measured, never asserted.

When IREE is installed (``iree-compile`` and ``iree-benchmark-module`` on PATH,
or ``--iree-compile``; ``pip install iree-base-compiler==3.13.0
iree-base-runtime==3.13.0``), the same example is also compiled by IREE with
data tiling for the same CPU (``--iree-dispatch-creation-data-tiling``, the
target's CPU name), and its best CPU time per call on the same inputs, one
thread (``--device=local-sync``), is printed with the interpreter's time over
it (the goal: within 2x). IREE runs in its own process, so this column is not
paired with the others.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    # One BLAS thread, fixed before numpy (and its BLAS) is imported.
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_matmul import EXAMPLE, PIPELINE_TARGETS, data_tiling  # noqa: E402

from mini_iree.compiler.interpreter import find_function, make_interpreter, parse_module_text  # noqa: E402
from machine import cpu_name  # noqa: E402  (benchmarks/ is on sys.path when a benchmark runs)

# The problem sizes and the ratios to numpy the interpreter should reach on them.
GOALS = {(255, 513, 1023): 0.8, (256, 256, 256): 0.7}
DEFAULT_SIZES = "255x513x1023,256x256x256,512x512x512"

# The CPU IREE compiles each target for (an explicit feature list without a CPU name
# gives LLVM a generic CPU, whose code runs tens of times slower).
IREE_CPUS = {"avx2": "haswell", "avx512": "skylake-avx512"}


def iree_module(iree_compile: str, target: str, directory: Path) -> Path:
    """The example compiled by IREE with data tiling for ``target``'s CPU."""
    module = directory / f"matmul_{target}.vmfb"
    command = [
        iree_compile,
        str(EXAMPLE),
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        f"--iree-llvmcpu-target-cpu={IREE_CPUS[target]}",
        "--iree-opt-data-tiling=false",
        "--iree-dispatch-creation-data-tiling",
        "-o",
        str(module),
    ]
    subprocess.run(command, check=True, capture_output=True)
    return module


def iree_seconds(benchmark: str, module: Path, function: str, a: np.ndarray, b: np.ndarray, directory: Path) -> float:
    """IREE's best CPU time per call of ``function`` on ``a`` and ``b``, one thread."""
    np.save(directory / "a.npy", a)
    np.save(directory / "b.npy", b)
    command = [
        benchmark,
        f"--module={module}",
        "--device=local-sync",
        f"--function={function}",
        f"--input=@{directory / 'a.npy'}",
        f"--input=@{directory / 'b.npy'}",
        "--benchmark_repetitions=5",
        "--benchmark_format=json",
    ]
    report = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    runs = [r for r in report["benchmarks"] if r.get("run_type") == "iteration"]
    return min(r["cpu_time"] * scale[r["time_unit"]] for r in runs)


def paired(reference, candidate, pairs: int) -> tuple[float, float, float]:
    """(median of numpy/interpreter time ratios, best numpy seconds, best interpreter seconds)."""
    reference()
    for _ in range(3):
        candidate()  # the third call of an interpreter with these inputs' shapes is recorded, later ones replayed
    ratios, best_ref, best_cand = [], float("inf"), float("inf")
    clock = time.process_time
    for i in range(pairs):
        # Alternate which side goes first, so that neither always runs on a warmer cache.
        sides = [(0, reference), (1, candidate)] if i % 2 == 0 else [(1, candidate), (0, reference)]
        took = [0.0, 0.0]
        for side, fn in sides:
            start = clock()
            fn()
            took[side] = clock() - start
        best_ref, best_cand = min(best_ref, took[0]), min(best_cand, took[1])
        if took[1] > 0:
            ratios.append(took[0] / took[1])
    return statistics.median(ratios), best_ref, best_cand


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="MxNxK problems, comma-separated")
    parser.add_argument("--pairs", type=int, default=40, help="alternating numpy/interpreter runs per problem")
    parser.add_argument("--program", default=None, help="run this compiled .mlir instead of compiling the example")
    parser.add_argument("--function", default="matmul_f32f32f32", help="the function to run")
    parser.add_argument(
        "--targets", default="avx2", help=f"targets to compile for: {', '.join(n for n, _ in PIPELINE_TARGETS)}"
    )
    parser.add_argument("--iree-compile", default=None, help="the iree-compile to compare with (default: on PATH)")
    parser.add_argument("--no-iree", action="store_true", help="do not compare with IREE even if it is installed")
    args = parser.parse_args(argv)
    iree_compile = None if args.no_iree or args.program else args.iree_compile or shutil.which("iree-compile")
    benchmark = None
    if iree_compile:
        beside = Path(iree_compile).with_name("iree-benchmark-module")
        benchmark = str(beside) if beside.exists() else shutil.which("iree-benchmark-module")
    scratch = Path(tempfile.mkdtemp(prefix="bench_small_"))
    problems = [tuple(int(d) for d in s.split("x")) for s in args.sizes.split(",") if s.strip()]
    if args.program:
        programs = [(Path(args.program).name, Path(args.program).read_text())]
    else:
        wanted = args.targets.split(",")
        example = EXAMPLE.read_text()
        programs = [(name, data_tiling(example, target)) for name, target in PIPELINE_TARGETS if name in wanted]

    print(f"CPU time, one BLAS thread, median of {args.pairs} paired runs; {cpu_name()}")
    iree_head = f" {'iree ms':>8} {'interp/iree':>11}" if benchmark else ""
    print(
        f"{'program':<12} {'problem':<16} {'numpy ms':>9} {'interp ms':>10} {'ratio':>7} {'goal':>6}  bit-identical"
        + iree_head
    )
    rng = np.random.default_rng(0)
    for name, text in programs:
        module = parse_module_text(text)
        function = find_function(module, args.function)
        interpreter = make_interpreter(module)
        compiled = iree_module(iree_compile, name, scratch) if benchmark and name in IREE_CPUS else None
        for m, n, k in problems:
            a = rng.standard_normal((m, k)).astype(np.float32)
            b = rng.standard_normal((k, n)).astype(np.float32)
            result = []

            def run() -> None:
                result[:] = interpreter.call_op(function, (a, b))

            ratio, numpy_s, interp_s = paired(lambda: a @ b, run, args.pairs)
            same = np.array_equal(np.asarray(result[0]), a @ b)
            goal = GOALS.get((m, n, k))
            goal_text = f"{goal:.1f}x" if goal else "-"
            iree_text = ""
            if compiled is not None:
                iree_s = iree_seconds(benchmark, compiled, args.function, a, b, scratch)
                iree_text = f" {iree_s * 1e3:8.2f} {interp_s / iree_s:10.2f}x"
            print(
                f"{name:<12} {f'{m}x{n}x{k}':<16} {numpy_s * 1e3:9.2f} {interp_s * 1e3:10.2f} {ratio:6.2f}x {goal_text:>6}"
                f"  {'yes' if same else 'no':<13}{iree_text}",
                flush=True,
            )
    shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
