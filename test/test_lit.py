"""Run the lit + FileCheck suite (test/dialects, test/passes, test/e2e, ...) from pytest.

Each lit file is its own pytest test (``test_lit[passes/set_encoding.mlir]``), so a
failure names its file, ``-k`` selects files and pytest-xdist spreads them over
workers. lit finds the files once, when pytest collects this module, with the
same configuration (``lit.cfg.py``) as ``lit test``; each test then runs through
lit's own ShTest format in this process, which spares the start-up of a lit
process per file. A failing test shows lit's output (commands, FileCheck's
complaint).

The time goes into the tools each RUN line starts, so, as ``lit -j`` does, the
selected files run a few at a time (threads waiting on those processes) from
the first lit test on, and each test waits for its own file's result. Under
pytest-xdist each worker runs its own tests one by one instead.
"""

from __future__ import annotations

import os
import re
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

TEST_DIR = Path(__file__).parent
# lit.cfg.py's `shared` feature: the reference dumps beside the checkout.
SHARED_REFERENCE = (TEST_DIR / ".." / ".." / "shared" / "reference").resolve()


def _lit_config():
    import lit.LitConfig

    return lit.LitConfig.LitConfig(
        progname="lit",
        path=[],
        diagnostic_level="note",
        useValgrind=False,
        valgrindLeakCheck=False,
        valgrindArgs=[],
        noExecute=False,
        debug=False,
        isWindows=sys.platform == "win32",
        order="lexical",
        params={},
    )


def _discover():
    """(lit config, {file relative to test/: lit test}), or the reason lit cannot run."""
    # The tools live next to the running Python (lit.cfg.py puts that first on
    # the tests' PATH); FileCheck must be found there too.
    os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])
    try:
        import lit.discovery

        config = _lit_config()
        tests = lit.discovery.find_tests_for_inputs(config, [str(TEST_DIR)])
    except (Exception, SystemExit) as err:  # noqa: BLE001 - lit reports a bad setup with SystemExit
        return None, f"lit could not discover the tests: {type(err).__name__}: {err}"
    found = {Path(t.getSourcePath()).relative_to(TEST_DIR).as_posix(): t for t in tests}
    return config, found


_CONFIG, _TESTS = _discover()
_IDS = sorted(_TESTS) if isinstance(_TESTS, dict) else ["(discovery)"]


def _run(test):
    import lit.Test

    result = test.config.test_format.execute(test, _CONFIG)
    if isinstance(result, tuple):  # a format may return (code, output)
        result = lit.Test.Result(*result)
    return result


class _Runner:
    """Runs the selected lit files ahead, ``workers`` at a time, in their pytest order."""

    def __init__(self, names: list[str], workers: int):
        self.pool = ThreadPoolExecutor(max_workers=workers) if workers > 1 else None
        self.futures: dict[str, Future] = {}
        if self.pool is not None and isinstance(_TESTS, dict):
            for name in names:
                self.futures[name] = self.pool.submit(_run, _TESTS[name])

    def result(self, name: str):
        future = self.futures.get(name)
        return future.result() if future is not None else _run(_TESTS[name])

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="session")
def lit_runner(request):
    names = [
        item.callspec.params["lit_file"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_lit" and hasattr(item, "callspec")
    ]
    workers = 1 if os.environ.get("PYTEST_XDIST_WORKER") else max(1, min(4, os.cpu_count() or 1))
    runner = _Runner(names, workers)
    yield runner
    runner.close()


@pytest.mark.parametrize("lit_file", _IDS)
def test_lit(lit_file: str, lit_runner: _Runner) -> None:
    import lit.Test

    if not isinstance(_TESTS, dict):
        pytest.fail(_TESTS)
    result = lit_runner.result(lit_file)
    code = result.code
    if code is lit.Test.UNSUPPORTED:
        reason = result.output.strip() or "REQUIRES not met"
        if re.search(r"\bshared\b", reason):
            # lit names the feature; say where it comes from (lit.cfg.py).
            reason += f"; 'shared' is {SHARED_REFERENCE}, absent (it lives in ../shared beside the checkout)"
        pytest.skip(f"lit: unsupported here ({reason})")
    assert not code.isFailure, f"lit: {code.name}: {lit_file}\n{result.output}"
