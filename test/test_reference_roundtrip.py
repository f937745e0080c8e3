"""Every IR dump of the walkthrough and of IREE 3.13 round-trips.

Each file goes through ``mini-iree-opt`` twice; the second output must equal the
first byte for byte (printing is a fixed point), and the first must parse. Files
that are not valid MLIR on their own are listed in ``EXCERPTS`` with the reason.
"""

from __future__ import annotations

import re

import pytest

from conftest import REFERENCE, or_skip, reference_missing, run_opt

# Files of ../shared/reference that are excerpts rather than whole programs.
EXCERPTS: dict[str, str] = {
    "seed-walkthrough/14-specialize-encodings.multi-device.before.mlir": (
        "an excerpt: uses #encoding and values (%0, %N, %K, ...) that the walkthrough defines elsewhere"
    ),
    "seed-walkthrough/15-specialize-encodings.multi-device.after.mlir": (
        "an excerpt: uses #map, #map1, #map2 and values that the walkthrough defines elsewhere"
    ),
    "const-weight-matmul/11_EncodeHostTensorsPass.mlir": (
        "an excerpt: IREE printed the initializer alone, without the global it stores to"
    ),
    "const-weight-matmul/12_EncodeHostTensorsPass.mlir": (
        "an excerpt: IREE printed the function alone, without the global it loads"
    ),
    # Not excerpts, but written with an op form mini-iree does not parse yet.
    "gfx942-dynamic-matmul/18_CombineSourceLayoutTransformationPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir": (
        "uses `bufferization.alloc_tensor() <{memory_space = ...}>`, whose properties form xDSL's op does not parse"
    ),
    "gfx942-dynamic-matmul/19_CombineResultLayoutTransformationPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir": (
        "uses `bufferization.alloc_tensor() <{memory_space = ...}>`, whose properties form xDSL's op does not parse"
    ),
}


def _walkthrough():
    return sorted((REFERENCE / "seed-walkthrough").glob("*.mlir")) if REFERENCE.is_dir() else []


def _iree313():
    # input.mlir and every dump, AnnotateDataTilingHints (03) to the codegen passes.
    return sorted((REFERENCE / "iree-3.13").glob("*/*.mlir")) if REFERENCE.is_dir() else []


def _iree_dispatch_creation():
    # input.mlir and the dumps from AnnotateDataTilingHints (03) to HoistIntoGlobals (09).
    return [p for p in _iree313() if p.name == "input.mlir" or re.match(r"0[3-9]_", p.name)]


FILES = _walkthrough() + _iree313()


def _id(path):
    return f"{path.parent.name}/{path.name}"


@pytest.mark.skipif(not FILES, reason=f"reference dumps not found at {REFERENCE} (they live in ../shared)")
@pytest.mark.parametrize("path", FILES or [None], ids=lambda p: _id(p) if p else "none")
def test_round_trip(path):
    key = _id(path)
    if key in EXCERPTS:
        first = run_opt([str(path)])
        assert first.returncode == 1, f"{key} is listed as an excerpt but now parses"
        return
    first = run_opt([str(path)])
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""
    second = run_opt(["-"], stdin=first.stdout.encode())
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout


@pytest.mark.parametrize("path", or_skip(FILES), ids=_id)
def test_generic_round_trip(path):
    key = _id(path)
    if key in EXCERPTS:
        return
    pretty = run_opt([str(path)])
    generic = run_opt([str(path), "--mlir-print-op-generic"])
    assert generic.returncode == 0, generic.stderr
    back = run_opt(["-"], stdin=generic.stdout.encode())
    assert back.returncode == 0, back.stderr
    assert back.stdout == pretty.stdout


def test_reference_files_found():
    if not REFERENCE.is_dir():
        pytest.skip(reference_missing())
    assert len(_walkthrough()) == 24
    assert len(_iree_dispatch_creation()) >= 4 * 8


# ---------------------------------------------------------------------------
# Printing like IREE: the dumps are MLIR's own output, so ours should match them.
# ---------------------------------------------------------------------------

# Walkthrough files written by hand rather than printed by MLIR.
HAND_WRITTEN: dict[str, str] = {
    "seed-walkthrough/11-specialize-encodings.sizeof-multi-device.example.mlir": (
        "hand-written: alias names #map0 and #executable_target, aliases in source order"
    ),
    "seed-walkthrough/12-specialize-encodings.binding.example.mlir": "hand-written: aliases in source order",
}


def _print_like_dump(path) -> tuple[str, str]:
    """(reference text, our text) for a dump, normalized to what the dump shows.

    Dumps without aliases were printed by IREE with local scope, and ours gets
    the same flag; dumps of one function have no enclosing module, and ours loses
    its module wrapper.
    """
    text = path.read_text()
    lines = text.splitlines()
    ref = "\n".join(line for line in lines if not line.startswith("// -----//"))
    has_aliases = any(line.startswith("#") for line in lines)
    has_module = any(line.startswith("module") for line in lines)
    result = run_opt([str(path)] if has_aliases else [str(path), "--mlir-print-local-scope"])
    assert result.returncode == 0, result.stderr
    out = result.stdout
    if not has_module:
        printed = out.rstrip("\n").splitlines()
        start = printed.index("module {")
        body = printed[start + 1 : -1]
        out = "\n".join(printed[:start] + [line[2:] for line in body])
    return ref, out


def _without_comments_and_space(text: str) -> str:
    kept = [line for line in text.splitlines() if not line.strip().startswith("//")]
    return re.sub(r"\s+", "", "\n".join(kept))


# The inputs are written by hand (`%w = util.global.load`); IREE prints them with its own names.
@pytest.mark.parametrize(
    "path", or_skip([p for p in _iree313() if _id(p) not in EXCERPTS and p.name != "input.mlir"]), ids=_id
)
def test_prints_exactly_like_iree(path):
    """IREE 3.13's dumps, dispatch creation through codegen, come back byte for byte (comments aside)."""
    ref, out = _print_like_dump(path)
    ref_lines = [line for line in ref.splitlines() if not line.startswith("//")]
    assert out.rstrip("\n").splitlines() == ref_lines


@pytest.mark.parametrize("path", or_skip(_walkthrough()), ids=_id)
def test_prints_like_the_walkthrough(path):
    """The walkthrough's dumps (unindented, wrapped by hand) match up to whitespace."""
    key = _id(path)
    if key in EXCERPTS or key in HAND_WRITTEN:
        return
    ref, out = _print_like_dump(path)
    assert _without_comments_and_space(out) == _without_comments_and_space(ref)
