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
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":
    # One BLAS thread, fixed before numpy (and its BLAS) is imported.
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
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
    args = parser.parse_args(argv)
    problems = [tuple(int(d) for d in s.split("x")) for s in args.sizes.split(",") if s.strip()]
    if args.program:
        programs = [(Path(args.program).name, Path(args.program).read_text())]
    else:
        wanted = args.targets.split(",")
        example = EXAMPLE.read_text()
        programs = [(name, data_tiling(example, target)) for name, target in PIPELINE_TARGETS if name in wanted]

    print(f"CPU time, one BLAS thread, median of {args.pairs} paired runs; {cpu_name()}")
    print(f"{'program':<12} {'problem':<16} {'numpy ms':>9} {'interp ms':>10} {'ratio':>7} {'goal':>6}  bit-identical")
    rng = np.random.default_rng(0)
    for name, text in programs:
        module = parse_module_text(text)
        function = find_function(module, args.function)
        interpreter = make_interpreter(module)
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
            print(
                f"{name:<12} {f'{m}x{n}x{k}':<16} {numpy_s * 1e3:9.2f} {interp_s * 1e3:10.2f} {ratio:6.2f}x {goal_text:>6}"
                f"  {'yes' if same else 'no'}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
