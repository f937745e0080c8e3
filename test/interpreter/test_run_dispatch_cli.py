"""`mini-iree-run --binding/--push-constant` runs a materialized dispatch function."""

import contextlib
import io

import numpy as np
import pytest

from conftest import REFERENCE
from test_iree_ops_walkthrough import LHS_LAYOUT, pack

from mini_iree.compiler.tools.run_main import main

STAGE = REFERENCE / "seed-walkthrough" / "19-materialize-device-encoding.relayout.after.mlir"


def run_cli(args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.skipif(not STAGE.exists(), reason="reference dumps not found beside the checkout")
def test_encoding_dispatch_from_the_command_line(tmp_path):
    m, k = 37, 53
    a = np.random.default_rng(0).standard_normal((m, k)).astype(np.float32)
    expected = pack(a, **LHS_LAYOUT)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "target.npy", np.zeros(expected.shape, np.float32))
    code, out, err = run_cli(
        [
            STAGE,
            f"--binding=@{tmp_path / 'a.npy'}",
            f"--binding=@{tmp_path / 'target.npy'}",
            # M and K as pairs of 32-bit words (low, high).
            *[f"--push-constant={v}" for v in (m, 0, k, 0)],
            "--output=",
            f"--output=@{tmp_path / 'packed.npy'}",
        ]
    )
    assert code == 0, err
    assert out.startswith("EXEC @_encoding_0_encode_DxDxf32_to_DxDxf32")
    np.testing.assert_array_equal(np.load(tmp_path / "packed.npy"), expected)


@pytest.mark.skipif(not STAGE.exists(), reason="reference dumps not found beside the checkout")
def test_dispatch_without_bindings_says_how_to_run_it():
    code, _, err = run_cli([STAGE])
    assert code == 1
    assert "--binding" in err and "Traceback" not in err
