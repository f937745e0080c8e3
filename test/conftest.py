"""Shared pytest fixtures: run mini-iree-opt in-process, find the reference dumps."""

from __future__ import annotations

import contextlib
import io
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
REFERENCE = SHARED / "reference"


@dataclass
class OptResult:
    returncode: int
    stdout: str
    stderr: str


def run_opt(args: list[str], stdin: bytes | None = None) -> OptResult:
    """Run ``mini-iree-opt`` in this process (same code path as the console script).

    The run's era (``--iree-era``) is set for the process by each run; it is
    restored afterwards, so that code a test runs next without the tool (a
    target parsed, a pass applied) follows the era it had before.
    """
    from mini_iree.compiler.era import run_era, using_era
    from mini_iree.compiler.tools.opt_main import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with using_era(run_era()), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exc:  # argparse errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = old_stdin
    return OptResult(code, out.getvalue(), err.getvalue())


@pytest.fixture
def opt():
    return run_opt


def reference_missing(what: str = "reference dumps", where: Path = REFERENCE) -> str:
    """The skip reason of a test that needs a part of ../shared: what is missing and where it is expected."""
    return f"{what} not found at {where} (they live in ../shared beside the checkout)"


def or_skip(params: list, what: str = "reference dumps", where: Path = REFERENCE) -> list:
    """Parameters for ``parametrize`` that come from ../shared: ``params``, or, when there are none, one
    parameter skipped with what is missing and where it is expected (pytest's own reason for an empty list,
    "got empty parameter set", says neither)."""
    return params or [pytest.param(None, marks=pytest.mark.skip(reason=reference_missing(what, where)), id="absent")]


def require_reference() -> Path:
    if not REFERENCE.is_dir():
        pytest.skip(reference_missing())
    return REFERENCE


def _skip_reason(report) -> str:
    """A skipped test's reason, without pytest's `Skipped: ` prefix and the test's own location."""
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    reason = reason.removeprefix("Skipped: ")
    if reason.startswith("got empty parameter set"):
        # pytest does not say which test's list is empty: name its file.
        reason += f" in {report.location[0]}"
    return reason


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """At the end of a run, one line per skip reason with its count (pytest says why only with -rs)."""
    # test/fuzz/conftest.py re-exports this module's names, this hook too: report once.
    if getattr(terminalreporter, "_mini_iree_skips_reported", False):
        return
    terminalreporter._mini_iree_skips_reported = True
    reasons = Counter(_skip_reason(r) for r in terminalreporter.stats.get("skipped", []) if r.skipped)
    if not reasons:
        return
    terminalreporter.write_sep("-", "skipped, by reason")
    for reason, count in sorted(reasons.items(), key=lambda item: (-item[1], item[0])):
        terminalreporter.write_line(f"{count:5d}  {reason}")
