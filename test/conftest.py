"""Shared pytest fixtures: run mini-iree-opt in-process, find the reference dumps."""

from __future__ import annotations

import contextlib
import io
import sys
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
    """Run ``mini-iree-opt`` in this process (same code path as the console script)."""
    from mini_iree.compiler.tools.opt_main import main

    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
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


def require_reference() -> Path:
    if not REFERENCE.is_dir():
        pytest.skip(f"reference dumps not found at {REFERENCE} (they live in ../shared beside the checkout)")
    return REFERENCE
