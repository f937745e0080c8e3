"""examples/: every program walks through its pipeline, and examples/README.md shows the tool's real output.

Each example runs the pipeline its `// walkthrough-pipeline:` line names, with
the interpreter checking every pass; then every IR excerpt of examples/README.md
is regenerated from those runs and must be what the file holds. After a change
to a pass, `mini-iree-walkthrough --update-excerpts examples/README.md` rewrites
them.
"""

from __future__ import annotations

import difflib

import pytest
from conftest import REPO

from mini_iree.compiler.walkthrough.excerpts import refresh
from mini_iree.compiler.walkthrough.stages import pipeline_of, run_walkthrough

EXAMPLES = REPO / "examples"
PROGRAMS = sorted(EXAMPLES.glob("*.mlir"))


@pytest.fixture(scope="module")
def walks():
    # Small timing inputs: the timing is shown, never asserted.
    return {str(p): run_walkthrough(str(p), check=True, seed=0, timing_size=16) for p in PROGRAMS}


def test_the_walkthrough_programs_are_there():
    names = {p.stem for p in PROGRAMS}
    assert {"matmul", "matmul_avx512", "const_weight", "elementwise_producer_consumer", "matmul_i8", "matvec",
            "two_devices"} <= names  # fmt: skip


@pytest.mark.parametrize("program", [p.name for p in PROGRAMS])
def test_example_keeps_its_results_through_every_pass(walks, program: str):
    walk = walks[str(EXAMPLES / program)]
    assert walk.error is None, walk.error
    assert len(walk.stages) > 20
    assert all(s.check is not None and s.check.ok for s in walk.stages[1:])
    assert walk.final_runs and all(run.ok for run in walk.final_runs)
    # The encoding dialect is gone by the end of the pipeline.
    assert "iree_encoding" not in walk.stages[-1].text


def test_examples_name_their_pipeline():
    for program in PROGRAMS:
        if program.name != "matmul.mlir":  # the walkthrough's own program runs the default, gfx942
            assert pipeline_of(program.read_text()), program.name


def test_readme_excerpts_match_the_tool(walks):
    readme = EXAMPLES / "README.md"
    text = readme.read_text()
    assert text.count("<!-- walkthrough-ir:") >= 10
    regenerated = refresh(text, str(EXAMPLES), dict(walks))
    if regenerated != text:
        diff = "".join(difflib.unified_diff(text.splitlines(True), regenerated.splitlines(True), "README.md", "tool"))
        pytest.fail(
            "examples/README.md has drifted from the tool's output; run "
            f"`mini-iree-walkthrough --update-excerpts examples/README.md`:\n{diff}"
        )
