"""Interpreter speed on matmul programs, against numpy's own ``A @ B``.

    python benchmarks/bench_matmul.py            # the default table (about a minute)
    python benchmarks/bench_matmul.py --repeat 5

For each problem it runs, through the numpy interpreter:

* ``plain``: the walkthrough's program (fill + ``linalg.matmul``);
* ``mmt4d MxNxK``: the materialized program data tiling produces on CPU,
  ``linalg.pack`` (with padding) -> ``linalg.mmt4d`` -> ``linalg.unpack``,
  written by hand with M0xN0xK0 tiles;
* ``pipeline <target>``: the data-tiling pipeline's own output for
  ``examples/matmul.mlir`` (dynamic shapes), compiled once per target with
  ``data-tiling{target=...}``: HAL executables whose encode dispatches relayout
  A and B with ``map_scatter`` (plus padding loops), an ``mmt4d`` dispatch and
  a masked ``map_scatter`` unpack, called through ``!hal.buffer_view``s;
  ``... static`` is the same program with the problem's static shapes;

and prints GFLOP/s (2*M*N*K per run, best of ``--repeat``) and the ratio to
numpy's ``A @ B`` on the same inputs (for i8 x i8 -> i32, numpy's exact
``int32`` matmul). Times exclude parsing; they are measured, never asserted.
numpy and the interpreter runs alternate, so that load from other processes
affects both sides of a ratio alike. BLAS runs single-threaded unless
``--threads`` says otherwise (the numbers in notes/ are single-threaded); with
one thread the times are the process's CPU time (``--clock``), which a busy
machine taking the CPU away between two instructions does not inflate.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__":
    # The thread count must be fixed before numpy (and its BLAS) is imported.
    _threads = "1"
    for _i, _arg in enumerate(sys.argv):
        if _arg.startswith("--threads="):
            _threads = _arg.split("=", 1)[1]
        elif _arg == "--threads" and _i + 1 < len(sys.argv):
            _threads = sys.argv[_i + 1]
    for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_var] = _threads

import numpy as np  # noqa: E402

from mini_iree.compiler.interpreter import find_function, make_interpreter, parse_module_text  # noqa: E402

PLAIN = """
func.func @main(%a: tensor<{M}x{K}x{lt}>, %b: tensor<{K}x{N}x{lt}>) -> tensor<{M}x{N}x{ot}> {{
  %zero = arith.constant {zero} : {ot}
  %e = tensor.empty() : tensor<{M}x{N}x{ot}>
  %f = linalg.fill ins(%zero : {ot}) outs(%e : tensor<{M}x{N}x{ot}>) -> tensor<{M}x{N}x{ot}>
  %r = linalg.matmul ins(%a, %b : tensor<{M}x{K}x{lt}>, tensor<{K}x{N}x{lt}>) outs(%f : tensor<{M}x{N}x{ot}>) -> tensor<{M}x{N}x{ot}>
  return %r : tensor<{M}x{N}x{ot}>
}}"""

# pack -> mmt4d -> unpack, as iree-codegen-materialize-device-encoding emits it for CPU.
MATERIALIZED = """
func.func @main(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<{M1}x{K1}x{M0}x{K0}xf32>
  %pa = linalg.pack %a padding_value(%zero : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [{M0}, {K0}] into %ea : tensor<{M}x{K}xf32> -> tensor<{M1}x{K1}x{M0}x{K0}xf32>
  %eb = tensor.empty() : tensor<{N1}x{K1}x{N0}x{K0}xf32>
  %pb = linalg.pack %b padding_value(%zero : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [{N0}, {K0}] into %eb : tensor<{K}x{N}xf32> -> tensor<{N1}x{K1}x{N0}x{K0}xf32>
  %ec = tensor.empty() : tensor<{M1}x{N1}x{M0}x{N0}xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<{M1}x{N1}x{M0}x{N0}xf32>) -> tensor<{M1}x{N1}x{M0}x{N0}xf32>
  %mm = linalg.mmt4d ins(%pa, %pb : tensor<{M1}x{K1}x{M0}x{K0}xf32>, tensor<{N1}x{K1}x{N0}x{K0}xf32>) outs(%fc : tensor<{M1}x{N1}x{M0}x{N0}xf32>) -> tensor<{M1}x{N1}x{M0}x{N0}xf32>
  %e = tensor.empty() : tensor<{M}x{N}xf32>
  %u = linalg.unpack %mm outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [{M0}, {N0}] into %e : tensor<{M1}x{N1}x{M0}x{N0}xf32> -> tensor<{M}x{N}xf32>
  return %u : tensor<{M}x{N}xf32>
}}"""


EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "matmul.mlir"

# The host CPU targets of the pipeline rows: AVX2 (8x8x1 tiles) and AVX-512 (16x16x1).
PIPELINE_TARGETS = [("avx2", "x86_64:+avx,+avx2,+fma"), ("avx512", "x86_64:+avx512f")]

# examples/matmul.mlir with static shapes.
STATIC = """
func.func @matmul_f32f32f32(%a: tensor<{M}x{K}xf32>, %b: tensor<{K}x{N}xf32>) -> tensor<{M}x{N}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{M}x{N}xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>) outs(%f : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}"""


def data_tiling(text: str, target: str) -> str:
    """``mini-iree-opt -p 'data-tiling{target=...}'`` on ``text``, in this process."""
    from mini_iree.compiler.tools.opt_main import main as opt_main

    with tempfile.TemporaryDirectory() as tmp:
        source, output = Path(tmp) / "input.mlir", Path(tmp) / "output.mlir"
        source.write_text(text)
        errors = io.StringIO()
        with contextlib.redirect_stderr(errors):
            code = opt_main(["-p", f"data-tiling{{target={target}}}", str(source), "-o", str(output)])
        if code:
            raise RuntimeError(f"data-tiling{{target={target}}} failed:\n{errors.getvalue()}")
        return output.read_text()


def plain_program(m: int, n: int, k: int, lt: str = "f32", ot: str = "f32") -> str:
    zero = "0.0" if ot.startswith("f") else "0"
    return PLAIN.format(M=m, N=n, K=k, lt=lt, ot=ot, zero=zero)


def materialized_program(m: int, n: int, k: int, tiles: tuple[int, int, int]) -> str:
    m0, n0, k0 = tiles
    return MATERIALIZED.format(
        M=m, N=n, K=k, M0=m0, N0=n0, K0=k0, M1=-(-m // m0), N1=-(-n // n0), K1=-(-k // k0)
    )


# The problems the pipeline rows run on (the others keep the table short).
PIPELINE_PROBLEMS = [(255, 513, 1023), (2048, 2048, 2048)]


def best_times(reference, candidate, repeat: int, clock=time.perf_counter) -> tuple[float, float]:
    """Best-of-``repeat`` seconds of two functions, run alternately after one warm-up each."""
    reference()
    candidate()
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for side, fn in enumerate((reference, candidate)):
            start = clock()
            fn()
            best[side] = min(best[side], clock() - start)
    return best[0], best[1]


def timing_clock(threads: str, choice: str):
    """The clock the measurements read: ``--clock cpu`` (the default with one BLAS thread) counts
    only the time this process runs, so that a busy machine taking the CPU away in the middle of
    a run does not count; with several threads CPU time would add them up, so the wall clock."""
    if choice == "cpu" or (choice == "auto" and threads == "1"):
        return time.process_time
    return time.perf_counter


def compile_program(text: str, name: str = "main"):
    """A callable running ``@name`` of ``text`` on (a, b), and the list its result lands in."""
    module = parse_module_text(text)
    function = find_function(module, name)
    interpreter = make_interpreter(module)
    result: list[np.ndarray] = []

    def run(a: np.ndarray, b: np.ndarray) -> None:
        result[:] = [np.asarray(interpreter.call_op(function, (a, b))[0])]

    return run, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (best is kept)")
    parser.add_argument("--threads", default="1", help="BLAS threads (default 1)")
    parser.add_argument(
        "--clock",
        choices=("auto", "cpu", "wall"),
        default="auto",
        help="time measured: this process's CPU time or wall time (auto: CPU time with one thread)",
    )
    args = parser.parse_args()
    clock = timing_clock(args.threads, args.clock)
    rng = np.random.default_rng(0)

    rows: list[tuple[str, str, float, float]] = []

    def report(problem: str, program: str, m: int, n: int, k: int, seconds: float, numpy_seconds: float) -> None:
        gflops = 2 * m * n * k / seconds / 1e9
        rows.append((problem, program, gflops, numpy_seconds / seconds))
        print(f"{problem:<16} {program:<22} {gflops:8.1f} GFLOP/s   {numpy_seconds / seconds:5.2f}x numpy", flush=True)

    # The pipeline's output for the dynamic example serves every problem size:
    # compile it once per target, outside any timing.
    example = EXAMPLE.read_text()
    pipeline_outputs = {name: data_tiling(example, target) for name, target in PIPELINE_TARGETS}

    print(f"{'problem':<16} {'program':<22} {'speed':>16}   ratio")
    for m, n, k in [(255, 513, 1023), (1024, 1024, 1024), (2048, 2048, 2048), (1, 4096, 4096)]:
        a = rng.standard_normal((m, k)).astype(np.float32)
        b = rng.standard_normal((k, n)).astype(np.float32)
        expected = a @ b
        problem = f"{m}x{n}x{k} f32"
        programs = [("plain", plain_program(m, n, k))]
        if m > 1:
            programs += [
                ("mmt4d 8x8x1", materialized_program(m, n, k, (8, 8, 1))),
                ("mmt4d 16x16x1", materialized_program(m, n, k, (16, 16, 1))),
            ]
        else:
            programs += [("mmt4d 1x8x1", materialized_program(m, n, k, (1, 8, 1)))]
        runs = [(name, *compile_program(text)) for name, text in programs]
        if (m, n, k) in PIPELINE_PROBLEMS:
            for name, target in PIPELINE_TARGETS:
                runs.append((f"pipeline {name}", *compile_program(pipeline_outputs[name], "matmul_f32f32f32")))
            static = data_tiling(STATIC.format(M=m, N=n, K=k), PIPELINE_TARGETS[0][1])
            runs.append((f"pipeline {PIPELINE_TARGETS[0][0]} static", *compile_program(static, "matmul_f32f32f32")))
        for name, run, result in runs:
            numpy_seconds, seconds = best_times(lambda: a @ b, lambda: run(a, b), args.repeat, clock)
            np.testing.assert_allclose(result[0], expected, rtol=1e-3, atol=1e-2 * np.sqrt(k))
            report(problem, name, m, n, k, seconds, numpy_seconds)

    m = n = k = 512
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (k, n)).astype(np.int8)
    a32, b32 = a.astype(np.int32), b.astype(np.int32)
    run, result = compile_program(plain_program(m, n, k, "i8", "i32"))
    numpy_seconds, seconds = best_times(lambda: a32 @ b32, lambda: run(a, b), args.repeat, clock)
    assert (result[0] == a32 @ b32).all()
    report("512^3 i8xi8->i32", "plain", m, n, k, seconds, numpy_seconds)


if __name__ == "__main__":
    main()
