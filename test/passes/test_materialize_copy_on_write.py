"""``iree-stream-materialize-copy-on-write`` keeps results; after allocation no dispatch writes a caller's buffer."""

from __future__ import annotations

from pathlib import Path

from conftest import run_opt

from mini_iree.compiler.interpreter import parse_module_text
from mini_iree.compiler.interpreter.verify_each import ResultChecker

# An accumulation into the caller's tensor: the dispatch's result is tied to its init,
# which is an imported buffer.
ACCUMULATE = """
func.func @accumulate(%x: tensor<?x?xf32>, %acc: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%acc : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


def test_in_place_dispatch_on_an_imported_buffer_runs_after_allocation(tmp_path: Path):
    """The accumulator is the caller's buffer; without the clone the dispatch would write into it."""
    source = tmp_path / "accumulate.mlir"
    source.write_text(ACCUMULATE)
    pipeline = "data-tiling-dispatch-creation,data-tiling-stream{target=x86_64:+avx512f}," + ",".join(
        ["iree-stream-materialize-copy-on-write", "iree-stream-schedule-execution", "iree-stream-schedule-allocation"]
    )
    result = run_opt([str(source), "-p", pipeline, "--verify-each-with-interpreter", "--interpreter-dynamic-size=6"])
    assert result.returncode == 0, result.stderr
    assert "stream.async.clone" in result.stdout
    assert "pass 'iree-stream-schedule-allocation' kept the results" in result.stderr
    # The allocated program gives the source's results on the same seeded inputs.
    ResultChecker(parse_module_text(ACCUMULATE, "source"), seed=1, dynamic_size=4).check(
        parse_module_text(result.stdout, "allocated"), "allocated"
    )
