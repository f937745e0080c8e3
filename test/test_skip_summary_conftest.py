"""The end of a pytest run says, per skip reason, how many tests it skipped (without -rs)."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import REPO

DEMO = '''
import pytest

NOTHING = []


@pytest.mark.parametrize("x", NOTHING)
def test_empty(x):
    pass


@pytest.mark.skip(reason="needs a GPU")
def test_a():
    pass


@pytest.mark.skip(reason="needs a GPU")
def test_b():
    pass


def test_c():
    pytest.skip("needs ../elsewhere")
'''


def test_skip_reasons_are_counted_at_the_end(tmp_path):
    (tmp_path / "test_demo.py").write_text(DEMO)
    # A second plugin with the same hook, as test/fuzz/conftest.py re-exports test/conftest.py's names.
    (tmp_path / "reexport.py").write_text("from conftest import pytest_terminal_summary  # noqa: F401\n")
    path = os.pathsep.join([str(REPO / "test"), str(tmp_path), os.environ.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest", "-p", "reexport",
         "test_demo.py"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": path}, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" skipped, by reason ") == 1
    summary = result.stdout.split(" skipped, by reason ", 1)[1].splitlines()[1:4]
    assert [line.split(None, 1) for line in summary] == [
        ["2", "needs a GPU"],
        ["1", "got empty parameter set for (x) in test_demo.py"],
        ["1", "needs ../elsewhere"],
    ]


def test_the_lit_suite_says_where_shared_is_expected():
    import test_lit

    assert test_lit.SHARED_REFERENCE == (REPO.parent / "shared" / "reference").resolve()


def test_an_empty_list_from_shared_is_one_skip_that_says_where(tmp_path):
    from conftest import or_skip

    assert or_skip([1, 2]) == [1, 2]
    (param,) = or_skip([], "IREE 3.13 dumps", tmp_path / "iree-3.13")
    (mark,) = param.marks
    assert mark.kwargs["reason"] == (
        f"IREE 3.13 dumps not found at {tmp_path / 'iree-3.13'} (they live in ../shared beside the checkout)"
    )
