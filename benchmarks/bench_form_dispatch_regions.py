"""Compile time of ``iree-dispatch-creation-form-dispatch-regions`` and
``iree-dispatch-creation-clone-producers-into-dispatch-regions`` as the program grows.

    python benchmarks/bench_form_dispatch_regions.py
    python benchmarks/bench_form_dispatch_regions.py --sizes 100 200 400 800

Each program has N matmuls that share one ``linalg.fill`` init (as a model
whose layers all start from the same zero tensor), summed by a chain of
``arith.addf``. Every dispatch gets its own clone of the fill, so a pass that
rescans all uses of the shared fill for each dispatch is quadratic in N; the
table shows milliseconds per matmul for each pass, which stays flat when the
pass is linear.
Times are measured, never asserted.
"""

from __future__ import annotations

import argparse
import time

from xdsl.context import Context

from mini_iree.compiler.interpreter import parse_module_text
from mini_iree.passes.clone_producers_into_dispatch_regions import CloneProducersIntoDispatchRegionsPass
from mini_iree.passes.form_dispatch_regions import FormDispatchRegionsPass


def program(count: int) -> str:
    lines = [
        "func.func @many(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {",
        "  %cst = arith.constant 0.000000e+00 : f32",
        "  %e = tensor.empty() : tensor<4x4xf32>",
        "  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>",
    ]
    lines += [
        f"  %m{i} = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) "
        "outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>"
        for i in range(count)
    ]
    total = "%m0"
    for i in range(1, count):
        lines.append(f"  %s{i} = arith.addf {total}, %m{i} : tensor<4x4xf32>")
        total = f"%s{i}"
    lines += [f"  return {total} : tensor<4x4xf32>", "}"]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 200, 400, 800])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'matmuls':>8} {'form ms':>10} {'ms/matmul':>10} {'clone ms':>10} {'ms/matmul':>10}")
    for count in args.sizes:
        text = program(count)
        best_form = best_clone = float("inf")
        for _ in range(args.repeat):
            module = parse_module_text(text)
            start = time.perf_counter()
            FormDispatchRegionsPass().apply(Context(), module)
            middle = time.perf_counter()
            CloneProducersIntoDispatchRegionsPass().apply(Context(), module)
            end = time.perf_counter()
            best_form = min(best_form, middle - start)
            best_clone = min(best_clone, end - middle)
        print(
            f"{count:>8} {best_form * 1e3:>10.1f} {best_form * 1e3 / count:>10.3f}"
            f" {best_clone * 1e3:>10.1f} {best_clone * 1e3 / count:>10.3f}"
        )


if __name__ == "__main__":
    main()
