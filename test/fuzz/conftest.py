"""The fuzzers' budget: a short seeded run by default, the long run with ``pytest -m fuzz``.

``pytest`` runs every fuzzer for a few seconds (about 30 s for the three);
``pytest -m fuzz test/fuzz`` runs the long mode, ``LONG_INPUTS`` inputs in all.
``MINI_IREE_FUZZ_INPUTS=N`` sets the total instead, ``MINI_IREE_FUZZ_SEED=S`` the seed.
"""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest


def _load_test_helpers():
    # test/ has no __init__.py, so both conftest.py files are the module `conftest`,
    # and pytest keeps the last one loaded: this one must offer what test files
    # import from test/conftest.py.
    spec = importlib.util.spec_from_file_location("_mini_iree_test_helpers", Path(__file__).parents[1] / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


_helpers = _load_test_helpers()
REPO, SHARED, REFERENCE = _helpers.REPO, _helpers.SHARED, _helpers.REFERENCE
OptResult, run_opt, require_reference = _helpers.OptResult, _helpers.run_opt, _helpers.require_reference

LONG_INPUTS = 10_000
HANG_SECONDS = 10


def pytest_configure(config):
    config.addinivalue_line("markers", "fuzz: a fuzzer; `-m fuzz` runs the long mode (10,000 inputs)")


@dataclass
class Budget:
    """How long one fuzzer runs: ``inputs`` inputs, or until ``seconds`` have passed."""

    inputs: int
    seconds: float
    seed: int

    def running(self, done: int, start: float) -> bool:
        return done < self.inputs and time.monotonic() - start < self.seconds


@pytest.fixture
def budget(request) -> Budget:
    """``share`` of the total (the three fuzzers' shares add up to 1)."""
    share = request.node.get_closest_marker("fuzz").kwargs.get("share", 1 / 3)
    seed = int(os.environ.get("MINI_IREE_FUZZ_SEED", "0"))
    total = os.environ.get("MINI_IREE_FUZZ_INPUTS")
    long_mode = "fuzz" in (request.config.getoption("markexpr") or "")
    if total is not None:
        return Budget(max(1, round(int(total) * share)), float("inf"), seed)
    if long_mode:
        return Budget(round(LONG_INPUTS * share), float("inf"), seed)
    return Budget(10**9, 30 * share, seed)


class Hang(Exception):
    pass


@contextmanager
def hang_guard(seconds: int = HANG_SECONDS):
    """Fail an input that runs longer than ``seconds`` (SIGALRM; main thread only)."""

    def on_alarm(signum, frame):
        raise Hang(f"no answer after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
