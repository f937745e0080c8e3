"""``iree-stream-materialize-copy-on-write`` keeps results; after allocation no dispatch writes a caller's buffer."""

from __future__ import annotations

from conftest import REPO, run_opt

from mini_iree.compiler.interpreter import parse_module_text
from mini_iree.compiler.interpreter.verify_each import ResultChecker

INPUT = REPO / "test" / "e2e" / "Inputs" / "matmul_broadcast_lhs.mlir"


def test_in_place_dispatch_on_an_imported_buffer_runs_after_allocation():
    """The bias-like accumulator is the caller's buffer; without the clone the dispatch would write into it."""
    pipeline = "data-tiling-dispatch-creation,data-tiling-stream{target=x86_64:+avx512f}," + ",".join(
        ["iree-stream-materialize-copy-on-write", "iree-stream-schedule-execution", "iree-stream-schedule-allocation"]
    )
    result = run_opt([str(INPUT), "-p", pipeline, "--verify-each-with-interpreter", "--interpreter-dynamic-size=6"])
    assert result.returncode == 0, result.stderr
    assert "stream.async.clone" in result.stdout
    assert "pass 'iree-stream-schedule-allocation' kept the results" in result.stderr
    # The allocated program gives the source's results on the same seeded inputs.
    ResultChecker(parse_module_text(INPUT.read_text(), "source"), seed=1, dynamic_size=4).check(
        parse_module_text(result.stdout, "allocated"), "allocated"
    )
