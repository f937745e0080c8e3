"""The GPU encoding resolver: targets, data-tiled MMA choice, tiles and swizzles.

Expected values come from the data-tiling walkthrough (seed 003 and its dumps),
IREE 3.13's gfx942 dumps and observations, and, where neither shows a case,
from working IREE's formulas by hand (noted per case).
"""

from __future__ import annotations

import io
import re

import pytest
from conftest import require_reference
from xdsl.dialects.builtin import BFloat16Type, f16, f32, f64, i8, i32
from xdsl.ir.affine import AffineExpr, AffineMap

from mini_iree.compiler.layout import format_encoding_info
from mini_iree.compiler.tools.layout_main import matmul_encodings
from mini_iree.compiler.ir.printer import MLIRPrinter
from mini_iree.compiler.resolvers import gpu, serialize_encoding
from mini_iree.compiler.resolvers.targets import cpu_target, parse_target
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType, LayoutAttr
from mini_iree.dialects.iree_gpu import MMAIntrinsic

CT, CI, I = "CrossThread", "CrossIntrinsic", "Internal"
D = None  # a dynamic size
OPERANDS = {"lhs": 0, "rhs": 1, "result": 2}
BF16 = BFloat16Type()


def text(attr) -> str:
    stream = io.StringIO()
    MLIRPrinter(stream=stream, local_scope=True).print_attribute(attr)
    return stream.getvalue()


def encoding(types, sizes, operand):
    return matmul_encodings(list(types), list(sizes))[operand]


def resolve(arch, types, sizes, operand, era="walkthrough"):
    return gpu.get_encoding_info(gpu.rocm_target(arch), encoding(types, sizes, operand), era)


def spelled(info: MaterializeEncodingInfo):
    swizzle = None
    if info.swizzle is not None:
        swizzle = ([[(d.kind.value, d.size) for d in g] for g in info.swizzle.expand_shape], info.swizzle.permutation)
    return info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm, swizzle


# ===--- targets ---------------------------------------------------------=== #


def test_gfx942_target_prints_as_the_walkthrough():
    reference = require_reference() / "seed-walkthrough" / "08-hoist-into-globals.after.mlir"
    line = next(l for l in reference.read_text().splitlines() if l.startswith("#executable_target_rocm_hsaco_fb"))
    expected = line.split(" = ", 1)[1]
    assert gpu.rocm_target_text("gfx942") == expected
    assert text(gpu.rocm_target("gfx942")) == expected
    assert parse_target("gfx942") == gpu.rocm_target("gfx942")


@pytest.mark.parametrize(
    ("arch", "first_mma", "count", "smem", "vgpr", "scaled"),
    [
        ("gfx90a", MMAIntrinsic.MFMA_F32_16x16x8_BF16, 8, 65536, 8192, 0),
        ("gfx942", MMAIntrinsic.MFMA_F32_16x16x16_BF16, 16, 65536, 16384, 0),
        ("gfx950", MMAIntrinsic.MFMA_F32_16x16x32_F16, 30, 163840, 16384, 12),
        ("gfx908", MMAIntrinsic.MFMA_F32_16x16x4_F32, 5, 65536, 8192, 0),
        ("gfx1100", MMAIntrinsic.WMMAR3_F32_16x16x16_F16, 5, 65536, 8192, 0),
    ],
)
def test_known_targets(arch, first_mma, count, smem, vgpr, scaled):
    target = gpu.rocm_target(arch)
    info = gpu.gpu_target_info(target)
    assert info is not None and info.arch_name == arch
    assert info.mma_intrinsics[0] is first_mma and len(info.mma_intrinsics) == count
    assert (info.max_workgroup_memory_bytes, info.vgpr_space_bits) == (smem, vgpr)
    assert (info.max_load_instruction_bits, info.simds_per_wgp) == (128, 4)
    assert len(info.wgp.scaled_mma.data) == scaled
    # Printing gives back the text it was built from.
    assert text(target) == gpu.rocm_target_text(arch)


def test_unknown_arch():
    with pytest.raises(ValueError, match="unknown ROCm architecture 'gfx1030'"):
        gpu.rocm_target("gfx1030")


# ===--- data-tiled MMA ----------------------------------------------------=== #


@pytest.mark.parametrize(
    ("arch", "types", "sizes", "era", "expected"),
    [
        # Seed 003: the dynamic f32 matmul on gfx942.
        (
            "gfx942", (f32, f32, f32), (D, D, D), "walkthrough",
            "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4",
        ),
        # IREE 3.13 gfx942 dump (14_MaterializeDeviceEncodingPass).
        (
            "gfx942", (f32, f32, f32), (D, D, D), "3.13",
            "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2,"
            " intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]",
        ),
        # 3.13 observed: small static problems get one intrinsic, unrolled on K only.
        ("gfx942", (f32, f32, f32), (255, 1023, 513), "3.13",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]"),
        ("gfx942", (f32, f32, f32), (1, 4096, 4096), "3.13",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]"),
        # The walkthrough's static 255x513 @ 513x1023: M = 255 rounds up to 256, no cap.
        ("gfx942", (f32, f32, f32), (255, 1023, 513), "walkthrough",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4"),
        # Narrow M (walkthrough fix-up): intrinsics_m = min(8, ceil(1 / 16)).
        ("gfx942", (f32, f32, f32), (1, D, D), "walkthrough",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4"),
        # Narrow N: M and N swap roles (subgroups move to M), then N is capped.
        ("gfx942", (f32, f32, f32), (D, 1, D), "walkthrough",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 2, subgroups_m = 4, intrinsics_k = 4"),
        # 3.13 with a dynamic M and N = 1: (tm, tn) = (32, 1), as the enumeration gives.
        ("gfx942", (f32, f32, f32), (D, 1, D), "3.13",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 32, intrinsics_k = 4,"
         " operands_interleaving_intrinsics_k = [0, 1]"),
        # f16 / bf16 / i8: 64-bit A and B registers per thread, so intrinsics_k = 2.
        ("gfx942", (f16, f16, f32), (D, D, D), "walkthrough",
         "intrinsic = MFMA_F32_16x16x16_F16, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 2"),
        ("gfx942", (BF16, BF16, f32), (D, D, D), "3.13",
         "intrinsic = MFMA_F32_16x16x16_BF16, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2,"
         " intrinsics_k = 2, operands_interleaving_intrinsics_k = [0, 1]"),
        ("gfx942", (i8, i8, i32), (D, D, D), "3.13",
         "intrinsic = MFMA_I32_16x16x32_I8, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2,"
         " intrinsics_k = 2, operands_interleaving_intrinsics_k = [0, 1]"),
        # gfx90a has half gfx942's VGPRs: x = 7.06 -> total N 8, total M 4 (by hand).
        ("gfx90a", (f32, f32, f32), (D, D, D), "walkthrough",
         "intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4"),
        # CDNA2 bf16 is the 16x16x8 intrinsic (32-bit registers, intrinsics_k = 4).
        ("gfx90a", (BF16, BF16, f32), (D, D, D), "walkthrough",
         "intrinsic = MFMA_F32_16x16x8_BF16, intrinsics_m = 4, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4"),
        # gfx950 prefers the 16x16x32 f16 intrinsic (largest K): its 128-bit registers need no K unrolling.
        ("gfx950", (f16, f16, f32), (D, D, D), "walkthrough",
         "intrinsic = MFMA_F32_16x16x32_F16, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4"),
        # gfx90a f64 (by hand: ACC 4 x f64 per thread, intrinsics_k = 2, x = 5.18 -> 4 x 4 in total).
        ("gfx90a", (f64, f64, f64), (D, D, D), "walkthrough",
         "intrinsic = MFMA_F64_16x16x4_F64, intrinsics_m = 4, subgroups_n = 4, intrinsics_k = 2"),
    ],
)
def test_choose_data_tiled_mma(arch, types, sizes, era, expected):
    mma = gpu.choose_data_tiled_mma(gpu.rocm_target(arch), encoding(types, sizes, "lhs"), era)
    assert text(mma) == f"#iree_gpu.data_tiled_mma_layout<{expected}>"


def test_no_data_tiled_mma():
    target = gpu.rocm_target("gfx942")
    # No intrinsic takes f32 x f32 -> f16: the identity layout, the encoding is dropped.
    assert gpu.choose_data_tiled_mma(target, encoding((f32, f32, f16), (D, D, D), "lhs")) is None
    assert gpu.get_encoding_info(target, encoding((f32, f32, f16), (D, D, D), "lhs")).is_identity()
    # A CPU target has no GPU target info.
    assert gpu.choose_data_tiled_mma(cpu_target("x86_64"), encoding((f32, f32, f32), (D, D, D), "lhs")) is None
    with pytest.raises(ValueError, match="unknown era .2019."):
        gpu.choose_data_tiled_mma(target, encoding((f32, f32, f32), (D, D, D), "lhs"), "2019")


# ===--- encoding info -------------------------------------------------------=== #

F32 = (f32, f32, f32)
WALKTHROUGH_LHS = ([[(CT, 4), (CI, 8), (CT, 4)], [(CI, 4), (CT, 4)]], [1, 4, 0, 2, 3])
WALKTHROUGH_RHS = ([[(CT, 4), (CT, 16), (CI, 2)], [(CI, 4), (CT, 4)]], [0, 2, 4, 1, 3])
WALKTHROUGH_ACC = ([[(CT, 4), (CI, 8), (I, 4)], [(CT, 4), (CT, 16), (CI, 2)]], [3, 1, 5, 0, 4, 2])
IREE_3_13_LHS = ([[(CT, 2), (CI, 4), (CT, 16)], [(CI, 4), (CT, 4)]], [0, 1, 4, 2, 3])
IREE_3_13_ACC = ([[(CT, 2), (CI, 4), (CT, 4), (I, 4)], [(CT, 2), (CI, 4), (CT, 16)]], [0, 4, 1, 5, 2, 6, 3])
ONE_INTRINSIC_LHS = ([[(CT, 16)], [(CI, 4), (CT, 4)]], [2, 0, 1])


@pytest.mark.parametrize(
    ("arch", "types", "sizes", "operand", "era", "expected"),
    [
        ("gfx942", F32, (D, D, D), "lhs", "walkthrough", ([0, 1], [128, 16], [0, 1], WALKTHROUGH_LHS)),
        ("gfx942", F32, (D, D, D), "rhs", "walkthrough", ([1, 0], [128, 16], [1, 0], WALKTHROUGH_RHS)),
        ("gfx942", F32, (D, D, D), "result", "walkthrough", ([0, 1], [128, 128], [0, 1], WALKTHROUGH_ACC)),
        ("gfx942", F32, (D, D, D), "lhs", "3.13", ([0, 1], [128, 16], [0, 1], IREE_3_13_LHS)),
        ("gfx942", F32, (D, D, D), "rhs", "3.13", ([1, 0], [128, 16], [1, 0], IREE_3_13_LHS)),
        ("gfx942", F32, (D, D, D), "result", "3.13", ([0, 1], [128, 128], [0, 1], IREE_3_13_ACC)),
        # 3.13 observed: static 255x513 @ 513x1023 and static M = 1.
        ("gfx942", F32, (255, 1023, 513), "lhs", "3.13", ([0, 1], [16, 16], [0, 1], ONE_INTRINSIC_LHS)),
        ("gfx942", F32, (255, 1023, 513), "result", "3.13",
         ([0, 1], [16, 16], [0, 1], ([[(CT, 4), (I, 4)], [(CT, 16)]], [0, 2, 1]))),
        ("gfx942", F32, (1, 4096, 4096), "rhs", "3.13", ([1, 0], [16, 16], [1, 0], ONE_INTRINSIC_LHS)),
        # f16 / i8 tiles: 128x32 and 128x64 (3.13 observed), the K group gains an Internal dim.
        ("gfx942", (f16, f16, f32), (D, D, D), "lhs", "3.13",
         ([0, 1], [128, 32], [0, 1], ([[(CT, 2), (CI, 4), (CT, 16)], [(CI, 2), (CT, 4), (I, 4)]], [0, 1, 4, 2, 3, 5]))),
        ("gfx942", (BF16, BF16, f32), (D, D, D), "rhs", "walkthrough",
         ([1, 0], [128, 32], [1, 0], ([[(CT, 4), (CT, 16), (CI, 2)], [(CI, 2), (CT, 4), (I, 4)]], [0, 2, 4, 1, 3, 5]))),
        ("gfx942", (i8, i8, i32), (D, D, D), "lhs", "3.13",
         ([0, 1], [128, 64], [0, 1], ([[(CT, 2), (CI, 4), (CT, 16)], [(CI, 2), (CT, 4), (I, 8)]], [0, 1, 4, 2, 3, 5]))),
        ("gfx942", (i8, i8, i32), (D, D, D), "result", "walkthrough", ([0, 1], [128, 128], [0, 1], WALKTHROUGH_ACC)),
        # Narrow M in the walkthrough era: a 16-row tile; LHS M is [CT16] refined to the ACC's [CT4, (I)4].
        ("gfx942", F32, (1, D, D), "lhs", "walkthrough",
         ([0, 1], [16, 16], [0, 1], ([[(CT, 4), (CT, 4)], [(CI, 4), (CT, 4)]], [3, 0, 1, 2]))),
        ("gfx942", F32, (1, D, D), "result", "walkthrough",
         ([0, 1], [16, 128], [0, 1], ([[(CT, 4), (I, 4)], [(CT, 4), (CT, 16), (CI, 2)]], [2, 4, 0, 3, 1]))),
        # Narrow N: the RHS gets a 16-column tile. The GPU keeps the result untransposed.
        ("gfx942", F32, (D, 1, D), "rhs", "walkthrough", ([1, 0], [16, 16], [1, 0], ONE_INTRINSIC_LHS)),
        ("gfx942", F32, (D, 1, D), "result", "walkthrough",
         ([0, 1], [128, 16], [0, 1], ([[(CT, 4), (CT, 4), (CI, 2), (I, 4)], [(CT, 16)]], [0, 2, 1, 4, 3]))),
        # gfx90a f64: the K unrolling (2 x f64 = one 128-bit load) stays innermost.
        ("gfx90a", (f64, f64, f64), (D, D, D), "lhs", "walkthrough",
         ([0, 1], [64, 8], [0, 1], ([[(CT, 4), (CI, 4), (CT, 4)], [(CI, 2), (CT, 4)]], [1, 4, 2, 0, 3]))),
    ],
)
def test_encoding_info(arch, types, sizes, operand, era, expected):
    assert spelled(resolve(arch, types, sizes, operand, era)) == expected


def test_3_13_distribution_factor():
    """3.13's LHS subgroup dim is shared by the 2 subgroups along N (IREE 3.13 dump)."""
    info = resolve("gfx942", F32, (D, D, D), "lhs", "3.13")
    assert format_encoding_info(info) == (
        '{innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = '
        '[[["CrossThread", 2 : i16, 2 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16]], '
        '[["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 1, 4, 2, 3]}}'
    )


def _matvec_encoding(operand: int, vecmat: bool = False) -> EncodingAttr:
    # matvec: (M, K) x (K) -> (M); vecmat: (K) x (K, N) -> (N).
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    if vecmat:
        maps = [AffineMap(2, 0, (d1,)), AffineMap(2, 0, (d1, d0)), AffineMap(2, 0, (d0,))]
    else:
        maps = [AffineMap(2, 0, (d0, d1)), AffineMap(2, 0, (d1,)), AffineMap(2, 0, (d0,))]
    return EncodingAttr(operand, EncodingOpType.MATMUL, [f32, f32, f32], maps, [-(2**63), -(2**63)])


def test_matvec_drops_absent_groups():
    target = gpu.rocm_target("gfx942")
    # matvec: N is 1, so the walkthrough puts the subgroups on M; the RHS vector keeps only its K group.
    rhs = gpu.get_encoding_info(target, _matvec_encoding(1), "walkthrough")
    assert spelled(rhs) == ([0], [16], [0], ([[(CI, 4), (CT, 4)]], [1, 0]))
    # The result vector keeps its M group (IREE 3.13 removes the first group here, which is M).
    result = gpu.get_encoding_info(target, _matvec_encoding(2), "walkthrough")
    assert spelled(result) == ([0], [128], [0], ([[(CT, 4), (CT, 4), (CI, 2), (I, 4)]], [0, 2, 1, 3]))
    # vecmat: the LHS vector keeps its K group only.
    lhs = gpu.get_encoding_info(target, _matvec_encoding(0, vecmat=True), "walkthrough")
    assert lhs.inner_tile_sizes == [16] and [len(g) for g in lhs.swizzle.expand_shape] == [2]


# ===--- serialized layouts ----------------------------------------------------=== #


def _one_line(definition: str) -> str:
    # The walkthrough breaks long attributes after `[`, `{` and `,`; join as MLIR prints them.
    definition = re.sub(r"\s*\n\s*", "\n", definition.strip())
    definition = re.sub(r"([\[{])\n", r"\1", definition)
    definition = re.sub(r"\n([\]}])", r"\1", definition)
    return definition.replace("\n", " ")


def _reference_layouts(path) -> list[str]:
    """The `#iree_encoding.layout<[...]>` alias definitions of a dump, in order, each on one line."""
    pattern = r"^#encoding\d* = (#iree_encoding\.layout<\[.*?\]>)\s*?$"
    return [_one_line(m.group(1)) for m in re.finditer(pattern, path.read_text(), re.M | re.S)]


def test_walkthrough_encoding_info_text():
    """The walkthrough's 13-specialize-encodings dump: LHS then RHS layouts."""
    path = require_reference() / "seed-walkthrough" / "13-specialize-encodings.after.mlir"
    lhs_text, rhs_text = _reference_layouts(path)[:2]
    for operand, reference in (("lhs", lhs_text), ("rhs", rhs_text)):
        info = resolve("gfx942", F32, (D, D, D), operand)
        assert f"encoding_info = {format_encoding_info(info)}}}>]>" in reference


def test_walkthrough_serialized_layouts_match():
    """serialize_encoding gives the walkthrough's layouts (compared as encoding_info)."""
    path = require_reference() / "seed-walkthrough" / "13-specialize-encodings.after.mlir"
    from xdsl.parser import Parser

    ctx = gpu._context()
    for operand, reference in zip(("lhs", "rhs"), _reference_layouts(path)):
        expected = Parser(ctx, reference).parse_attribute()
        assert isinstance(expected, LayoutAttr)
        got = serialize_encoding(gpu.rocm_target("gfx942"), encoding(F32, (D, D, D), operand))
        assert isinstance(got, LayoutAttr)
        assert got.layouts.data[0].encoding_info == expected.layouts.data[0].encoding_info


def test_walkthrough_serialized_layout_text():
    """The walkthrough's 13-specialize-encodings layouts, character for character (joined onto one line)."""
    path = require_reference() / "seed-walkthrough" / "13-specialize-encodings.after.mlir"
    for operand, reference in zip(("lhs", "rhs"), _reference_layouts(path)):
        got = serialize_encoding(gpu.rocm_target("gfx942"), encoding(F32, (D, D, D), operand))
        assert text(got) == reference


def test_3_13_serialized_layout_text():
    """IREE 3.13's gfx942 SpecializeEncodings dump, character for character."""
    path = require_reference() / "iree-3.13" / "gfx942-dynamic-matmul" / "10_SpecializeEncodingsPass.mlir"
    for operand, reference in zip(("lhs", "rhs"), _reference_layouts(path)):
        got = serialize_encoding(gpu.rocm_target("gfx942"), encoding(F32, (D, D, D), operand), gpu_era="3.13")
        assert text(got) == reference


# ===--- scaled (MX) matmuls -----------------------------------------------=== #

_SCALED_MAPS = (
    "[affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, "
    "affine_map<(d0, d1, d2, d3) -> (d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2)>, "
    "affine_map<(d0, d1, d2, d3) -> (d0, d1)>]"
)


def _scaled_encoding(operand: int, sizes: str) -> EncodingAttr:
    from xdsl.parser import Parser

    text = (
        f"#iree_encoding.encoding<operand_index = {operand} : index, op_type = scaled_matmul, "
        "element_types = [f4E2M1FN, f4E2M1FN, f8E8M0FNU, f8E8M0FNU, f32], "
        f"user_indexing_maps = {_SCALED_MAPS}, iteration_sizes = [{sizes}]>"
    )
    attr = Parser(gpu._context(), text).parse_attribute()
    assert isinstance(attr, EncodingAttr)
    return attr


@pytest.mark.parametrize(
    ("sizes", "unrolling"),
    [
        # Large M and N: 4 x 4 intrinsics in total (by hand: each thread holds 128 + 8 bits of an
        # input, 128 bits of the result; 16384 VGPR bits), half of each as subgroups.
        ("1024, 2048, 128, 32", (2, 2, 2, 2)),
        # 255 x 513 fills fewer than the 512 workgroups' worth of 16 x 16 tiles: no unrolling.
        ("255, 513, 127, 32", (1, 1, 1, 1)),
    ],
)
def test_scaled_matmul_unrolling(sizes, unrolling):
    """IREE's chooseDataTiledMMAAttr for scaled_matmul: K unrolled to the 4 scales of a register."""
    mma = gpu.choose_data_tiled_mma(gpu.rocm_target("gfx950"), _scaled_encoding(4, sizes), "3.13")
    assert mma is not None
    text = str(mma)
    assert text.startswith("#iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32")
    got = tuple(v.data for v in (mma.intrinsics_m, mma.subgroups_m, mma.intrinsics_n, mma.subgroups_n))
    assert got == unrolling
    assert mma.intrinsics_k.data == 4
    assert "operands_interleaving_intrinsics_k = [2, 3]" in text


def test_scaled_operand_layouts():
    """Pack order batch, M|N, K, Kb; the scales tile M|N and K only."""
    target = gpu.rocm_target("gfx950")
    lhs = gpu.get_encoding_info(target, _scaled_encoding(0, "255, 513, 127, 32"), "3.13")
    assert (lhs.outer_dims_perm, lhs.inner_dims_pos, lhs.inner_tile_sizes) == ([0, 1, 2], [0, 1, 2], [16, 16, 32])
    scales = gpu.get_encoding_info(target, _scaled_encoding(3, "255, 513, 127, 32"), "3.13")
    assert (scales.outer_dims_perm, scales.inner_dims_pos, scales.inner_tile_sizes) == ([0, 1], [0, 1], [16, 16])
    assert scales.swizzle is not None and len(scales.swizzle.expand_shape) == 2


def test_no_scaled_intrinsic_on_gfx942():
    """gfx942 has no scaled MFMA: the scaled operands keep their layout."""
    info = gpu.get_encoding_info(gpu.rocm_target("gfx942"), _scaled_encoding(0, "255, 513, 127, 32"), "3.13")
    assert info.is_identity()
