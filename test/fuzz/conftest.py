"""The fuzzers' budget: a short seeded run by default, the long run with ``pytest -m fuzz``.

``pytest`` runs every fuzzer for a few seconds (about 30 s for the mini-iree-opt,
-layout and -run fuzzers, about 35 s for the three of test_fuzz_pipeline.py);
``pytest -m fuzz test/fuzz`` runs the long mode: 10,000 mini-iree-opt mutants,
50,000 mini-iree-layout strings, 2,000 mini-iree-run command lines, and 5,700
whole-pipeline runs (4,200 random programs x targets against numpy, 1,500 mutants)
plus 3,000 later-pass mutants (test_fuzz_pipeline.py).
``MINI_IREE_FUZZ_INPUTS=N`` sets the total instead (split by each fuzzer's share),
``MINI_IREE_FUZZ_OPT_INPUTS``, ``MINI_IREE_FUZZ_LAYOUT_INPUTS``, ``MINI_IREE_FUZZ_RUN_INPUTS``,
``MINI_IREE_FUZZ_PIPELINE_INPUTS``, ``MINI_IREE_FUZZ_PIPELINE_MUTANTS_INPUTS`` and
``MINI_IREE_FUZZ_LATER_PASSES_INPUTS`` one fuzzer's count, ``MINI_IREE_FUZZ_SEED=S`` the seed.
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


# Everything test/conftest.py offers (REPO, REFERENCE, run_opt, require_reference, ...), so that
# `from conftest import ...` works in every test file whichever conftest pytest loaded last.
globals().update({name: value for name, value in vars(_load_test_helpers()).items() if not name.startswith("_")})

LONG_INPUTS = 10_000
# A hang guard, not a speed check: an input is a whole lit file, and a few of them
# through three pipelines take about 10 s on a loaded two-core machine.
HANG_SECONDS = 30


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "fuzz(share, name, long_inputs): a fuzzer; `-m fuzz` runs the long mode (long_inputs inputs)"
    )


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
    """``share`` of the total (and of 30 s by default: the mini-iree-opt, -layout and -run fuzzers' shares add up to 1)."""
    marker = request.node.get_closest_marker("fuzz").kwargs
    share = marker.get("share", 1 / 3)
    seed = int(os.environ.get("MINI_IREE_FUZZ_SEED", "0"))
    # One fuzzer's own count wins over the shared total: the layout fuzzer is
    # cheap enough to run many more inputs than the opt fuzzer in the same time.
    own = os.environ.get(f"MINI_IREE_FUZZ_{marker.get('name', '').upper()}_INPUTS") if marker.get("name") else None
    total = os.environ.get("MINI_IREE_FUZZ_INPUTS")
    long_mode = "fuzz" in (request.config.getoption("markexpr") or "")
    if own is not None:
        return Budget(max(1, int(own)), float("inf"), seed)
    if total is not None:
        return Budget(max(1, round(int(total) * share)), float("inf"), seed)
    if long_mode:
        return Budget(marker.get("long_inputs", round(LONG_INPUTS * share)), float("inf"), seed)
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
