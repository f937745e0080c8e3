"""The tools stay light: they import only what the program in hand needs.

mini-iree-opt never imports numpy (nor the interpreter); mini-iree-run imports
the dialects and the interpreter modules of the ops its program uses, and no
others. These check the sets of imported modules, never times (start-up times
are measured by benchmarks/bench_startup.py).
"""

import subprocess
import sys

from conftest import REFERENCE, REPO

SCRIPT = """
import sys, io, contextlib
from mini_iree.compiler.tools.opt_main import main
with contextlib.redirect_stdout(io.StringIO()):
    for path in sys.argv[1:]:
        main([path])
print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'ml_dtypes')))
"""


def test_opt_does_not_import_numpy():
    files = [str(REPO / "examples" / "matmul.mlir")]
    if REFERENCE.is_dir():
        files += [str(p) for p in sorted((REFERENCE / "seed-walkthrough").glob("*.mlir"))]
    out = subprocess.run([sys.executable, "-c", SCRIPT, *files], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


# Runs mini-iree-run's main on a file, then prints the dialect and interpreter modules it imported.
RUN_SCRIPT = """
import sys, io, contextlib
from mini_iree.compiler.tools.run_main import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
assert code == 0, code
print(out.getvalue().splitlines()[-1])
packages = ("xdsl.dialects", "mini_iree.dialects", "mini_iree.compiler.interpreter")
print(" ".join(sorted(m for m in sys.modules if m.rpartition(".")[0] in packages)))
"""


def run_and_list_modules(tmp_path, program: str, *inputs: str) -> tuple[str, set[str]]:
    """mini-iree-run on ``program`` in a fresh process: its last line of output and the modules it imported."""
    path = tmp_path / "program.mlir"
    path.write_text(program)
    done = subprocess.run(
        [sys.executable, "-c", RUN_SCRIPT, str(path), *(f"--input={i}" for i in inputs)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result, modules = done.stdout.splitlines()
    return result, set(modules.split())


TINY = """func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %a, %b : tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_run_of_an_arith_program_loads_only_arith_and_func(tmp_path):
    result, modules = run_and_list_modules(tmp_path, TINY, "4xf32=1", "4xf32=2.5")
    assert result == "4xf32=3.5 3.5 3.5 3.5"
    interpreter = {m.rsplit(".", 1)[1] for m in modules if m.startswith("mini_iree.compiler.interpreter.")}
    assert {"arith_ops", "func_ops"} <= interpreter
    # `math` ops, branches (`cf`), affine, memref, linalg... are implemented elsewhere: not loaded.
    assert interpreter <= {"core", "registry", "builtin_ops", "arith_ops", "arith_scalars", "func_ops"}, interpreter
    dialects = {m for m in modules if not m.startswith("mini_iree.compiler.")}
    assert not dialects & {
        "xdsl.dialects.math",
        "xdsl.dialects.cf",
        "xdsl.dialects.memref",
        "xdsl.dialects.affine",
        "xdsl.dialects.linalg",
        "mini_iree.dialects.affine",
        "mini_iree.dialects.linalg",
    }, dialects


MATMUL = """func.func @mm(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
"""


def test_run_of_a_linalg_program_does_not_load_affine_or_memref(tmp_path):
    # The interpreter's linalg needs affine only for indexing maps that are not permutations,
    # and the affine dialect imports xDSL's memref: neither is loaded for a plain matmul.
    result, modules = run_and_list_modules(tmp_path, MATMUL, "2x3xf32=1,2,3,4,5,6", "3x2xf32=1")
    assert result == "2x2xf32=[6 6][15 15]"
    assert "mini_iree.compiler.interpreter.linalg_ops" in modules
    assert not modules & {
        "mini_iree.compiler.interpreter.affine_ops",
        "mini_iree.compiler.interpreter.memref_ops",
        "mini_iree.compiler.interpreter.scf_ops",
        "mini_iree.dialects.affine",
        "xdsl.dialects.affine",
        "xdsl.dialects.memref",
    }, sorted(modules)


EMPTY_SCRIPT = """
import sys, io, contextlib
from mini_iree.compiler.tools.opt_main import main
with contextlib.redirect_stdout(io.StringIO()):
    assert main([sys.argv[1]]) == 0
print(" ".join(sorted(m for m in sys.modules if m.startswith(("xdsl.dialects.", "mini_iree.dialects.")))))
"""


def test_opt_on_an_empty_module_loads_no_dialect(tmp_path):
    # Nothing in `module {}` needs an op's class: no dialect module, ours or xDSL's, but builtin.
    path = tmp_path / "empty.mlir"
    path.write_text("module {\n}\n")
    out = subprocess.run([sys.executable, "-c", EMPTY_SCRIPT, str(path)], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert not loaded & {f"xdsl.dialects.{d}" for d in ("linalg", "arith", "math", "func", "memref", "affine")}, loaded
    # dialects/support holds xDSL-only helpers (the verifier's `canonical`), no op or attribute.
    assert not {m for m in loaded if m.startswith("mini_iree.dialects.")} - {"mini_iree.dialects.support"}, loaded
