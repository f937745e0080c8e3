"""`#iree_encoding.matmul_k` end to end: dispatch creation with `encoding-option=matmulk`, then both halves.

The walkthrough era's `matmul_k` encoding names only the reduction dims. IREE's CPU
and GPU resolvers lay out only `#iree_encoding.encoding`, so on every target the
matmul_k tensors get an identity layout: specialization stores an empty
`encoding_info`, and device materialization drops the encoding and keeps the
`linalg.matmul` as it is (on gfx942 IREE's GPU pipeline then generalizes it to a
`linalg.generic`). Every pass must keep the results and the final IR must hold no
encoding.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from conftest import run_opt

EXAMPLE = Path(__file__).parents[2] / "examples" / "matmul.mlir"
DISPATCH_CREATION = (
    "iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions,"
    "iree-dispatch-creation-clone-producers-into-dispatch-regions,"
    "iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding{encoding-option=matmulk},"
    "iree-dispatch-creation-hoist-encoding-ops,iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass,"
    "iree-dispatch-creation-convert-encoding-to-flow,canonicalize,iree-util-hoist-into-globals"
)


@pytest.mark.parametrize("target", ["x86_64:+avx,+avx2,+fma", "aarch64:+neon,+i8mm", "vmvx", "gfx942"])
def test_matmul_k_compiles_to_a_plain_matmul(target):
    pipeline = f"{DISPATCH_CREATION},data-tiling-stream{{target={target}}},data-tiling-codegen"
    checked = run_opt([str(EXAMPLE), "-p", pipeline, "--verify-each-with-interpreter", "-o", "-"])
    assert checked.returncode == 0, checked.stderr
    assert "iree-codegen-materialize-device-encoding' kept the results" in checked.stderr
    final = run_opt([str(EXAMPLE), "-p", pipeline]).stdout
    assert "#iree_encoding.matmul_k<k_dims = [1]>" not in final and "iree_encoding" not in final
    # No packing: the matmul runs on the tensors as they are.
    assert "linalg.pack" not in final and "linalg.mmt4d" not in final and "inner_tiled" not in final
    if target == "gfx942":
        # GPU executables get the matmul generalized (iree-codegen-gpu-generalize-named-ops).
        assert "linalg.matmul" not in final
        assert len(re.findall(r'linalg\.generic \{indexing_maps = .*iterator_types = \["parallel", "parallel", "reduction"\]', final)) == 1
    else:
        assert len(re.findall(r"linalg\.matmul ins", final)) == 1

    from mini_iree.compiler.interpreter import run

    rng = np.random.default_rng(7)
    lhs = rng.standard_normal((5, 7), dtype=np.float32)
    rhs = rng.standard_normal((7, 3), dtype=np.float32)
    (got,) = run(final, "matmul_f32f32f32", lhs, rhs)
    np.testing.assert_allclose(got, lhs @ rhs, rtol=1e-5, atol=1e-5)


def test_specialization_gives_matmul_k_an_identity_layout():
    pipeline = f"{DISPATCH_CREATION},data-tiling-stream{{target=x86_64:+avx,+avx2,+fma}}"
    out = run_opt([str(EXAMPLE), "-p", pipeline]).stdout
    assert "encoding_info = {innerDimsPos = [], innerTileSizes = [], outerDimsPerm = []}" in out
