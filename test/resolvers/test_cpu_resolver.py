"""The CPU / VMVX encoding resolvers: tile tables, narrow dims, serialized layouts."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from conftest import require_reference
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float16Type,
    IntegerType,
    Signedness,
    f32,
    f64,
    i8,
    i16,
    i32,
)
from xdsl.ir.affine import AffineExpr, AffineMap

from mini_iree.compiler.ir.printer import MLIRPrinter
from mini_iree.compiler.resolvers import resolve_encoding_info, serialize_encoding
from mini_iree.compiler.resolvers.cpu import choose_matmul_tile, get_encoding_info
from mini_iree.compiler.resolvers.matmul_info import MatmulTile
from mini_iree.compiler.resolvers.targets import parse_target
from mini_iree.dialects import hal
from mini_iree.dialects.iree_encoding import EncodingAttr, EncodingOpType

D = DYNAMIC_INDEX
f16 = Float16Type()
bf16 = BFloat16Type()
i4 = IntegerType(4)
ui4 = IntegerType(4, Signedness.UNSIGNED)
ui8 = IntegerType(8, Signedness.UNSIGNED)

TYPES = {
    "f32": [f32, f32, f32],
    "f16": [f16, f16, f32],
    "f16f16": [f16, f16, f16],
    "bf16": [bf16, bf16, f32],
    "bf16bf16": [bf16, bf16, bf16],
    "f64": [f64, f64, f64],
    "i8": [i8, i8, i32],
    "i16": [i16, i16, i32],
    "i16ui4": [i16, ui4, i32],
    "i8i4": [i8, i4, i32],
    "ui8": [ui8, ui8, i32],
}


def amap(num_dims: int, dims: list[int]) -> AffineMap:
    return AffineMap(num_dims, 0, tuple(AffineExpr.dimension(d) for d in dims))


OPS = {
    "matmul": (3, [0, 2], [2, 1], [0, 1]),  # (m, n, k)
    "batch_matmul": (4, [0, 1, 3], [0, 3, 2], [0, 1, 2]),  # (b, m, n, k)
    "matvec": (2, [0, 1], [1], [0]),  # (m, k)
    "vecmat": (2, [1], [1, 0], [0]),  # (n, k)
}


def encoding(
    operand: int, types: str = "f32", sizes: list[int] | None = None, op: str = "matmul", **kwargs
) -> EncodingAttr:
    num_dims, *operand_dims = OPS[op]
    if sizes is None and "round_dims_to" not in kwargs:
        sizes = [D] * num_dims
    maps = [amap(num_dims, dims) for dims in operand_dims]
    return EncodingAttr(operand, EncodingOpType.MATMUL, TYPES[types], maps, sizes, **kwargs)


def layout(target: hal.ExecutableTargetAttr, enc: EncodingAttr) -> tuple[list[int], list[int], list[int]]:
    info = get_encoding_info(target, enc)
    return info.inner_dims_pos, info.inner_tile_sizes, info.outer_dims_perm


def tile_of(target_name: str, types: str, sizes: list[int] | None = None, op: str = "matmul") -> tuple[int, ...] | None:
    """M0, N0, K0 read back from the LHS and RHS layouts (None for the identity layout)."""
    target = parse_target(target_name)
    lhs = get_encoding_info(target, encoding(0, types, sizes, op))
    rhs = get_encoding_info(target, encoding(1, types, sizes, op))
    if lhs.is_identity():
        assert rhs.is_identity()
        return None
    (m0, k0), (n0, k0_rhs) = lhs.inner_tile_sizes, rhs.inner_tile_sizes
    assert k0 == k0_rhs
    return m0, n0, k0


# ---------------------------------------------------------------------------
# The tile table: dynamic shapes pick each row's preferred tile.
# ---------------------------------------------------------------------------

TILE_TABLE = [
    # x86_64 floats
    ("x86_64:+avx512f,+avx512bf16", "bf16", (16, 16, 2)),
    ("x86_64:+avx512f,+avx512bf16", "bf16bf16", (16, 16, 2)),
    ("x86_64:+avx512f,+avx512bf16", "f32", (16, 16, 1)),
    ("x86_64:+avx512f", "f32", (16, 16, 1)),
    ("x86_64:+avx512f", "f16", (16, 16, 1)),
    ("x86_64:+avx512f", "f16f16", (16, 16, 1)),
    ("x86_64:+avx512f", "bf16", (16, 16, 1)),  # no avx512bf16: widened like f16
    ("x86_64:+avx,+avx2,+fma", "f32", (8, 8, 1)),
    ("x86_64:+avx,+avx2,+fma", "f16", (8, 8, 1)),
    ("x86_64:+avx", "bf16", (8, 8, 1)),
    ("x86_64", "f32", (8, 4, 1)),
    ("x86_64:+sse,+sse2,+sse4.2", "f32", (8, 4, 1)),
    ("x86_64:+avx2", "f32", (8, 4, 1)),  # exact tokens: +avx2 does not imply +avx
    ("x86_64:+avx512bf16", "f32", (8, 4, 1)),
    ("x86_64:+avx512f", "f64", None),
    # x86_64 integers
    ("x86_64:+avx512vnni", "i8", (16, 16, 2)),
    ("x86_64:+avx512bw", "i8", (16, 16, 2)),
    ("x86_64:+avx512bw", "i16", (16, 16, 2)),
    ("x86_64:+avx,+avx2,+fma", "i8", (8, 8, 2)),
    ("x86_64:+avx,+avx2,+fma", "i16", (8, 8, 2)),
    ("x86_64:+avx,+avx2,+avx512f", "i8", (8, 8, 2)),  # avx512f without BW/VNNI
    ("x86_64:+avx", "i8", (8, 4, 2)),
    ("x86_64", "i8", (8, 4, 2)),
    ("x86_64", "ui8", None),
    ("x86_64:+avx512vnni", "i16ui4", (1, 32, 8)),
    ("x86_64:+avx512bw", "i16ui4", None),
    # aarch64
    ("aarch64:+neon,+bf16", "bf16", (8, 8, 4)),
    ("aarch64:+neon,+bf16", "bf16bf16", (8, 8, 4)),
    ("aarch64:+neon", "bf16", (8, 8, 1)),
    ("aarch64:+neon", "f32", (8, 8, 1)),
    ("aarch64", "f32", (8, 8, 1)),
    ("aarch64:+neon", "f16", (8, 8, 1)),
    ("aarch64:+neon", "f16f16", (8, 8, 1)),
    ("aarch64:+neon,+dotprod,+i8mm", "i8", (8, 8, 8)),
    ("aarch64:+neon,+dotprod", "i8", (8, 8, 4)),
    ("aarch64:+neon", "i8", None),
    ("aarch64:+neon,+i8mm", "i8i4", (4, 8, 16)),
    ("aarch64:+neon,+dotprod", "i8i4", (8, 8, 8)),
    ("aarch64:+neon", "i8i4", (4, 16, 2)),
    ("aarch64:+neon", "f64", None),
    # riscv64: N0 = VLEN / 8
    ("riscv64:+m,+a,+f,+d,+v", "f32", (7, 16, 1)),
    ("riscv64:+m,+a,+f,+d,+v,+zvl256b", "f32", (7, 32, 1)),
    ("riscv64:+v,+zvl512b", "f32", (7, 64, 1)),
    ("riscv64:+m,+a,+f,+d", "f32", None),
    ("riscv64:+v,+zvl256b,+zvfh", "f16", (7, 32, 1)),
    ("riscv64:+v,+zvl256b,+zvfhmin", "f16", (6, 32, 1)),
    ("riscv64:+v,+zvl256b", "f16", None),
    ("riscv64:+v,+zvl256b,+zvfbfwma", "bf16", (7, 32, 1)),
    ("riscv64:+v,+zvl256b", "bf16", None),
    ("riscv64:+v,+zvl256b", "i8", (7, 32, 1)),
    ("riscv64:+v,+zvl256b,+xsmtvdot", "i8", (12, 16, 8)),
    ("riscv64:+v,+zvl1024b,+xsmtvdot", "i8", (24, 32, 16)),
    ("riscv64:+v,+zvl512b,+xsmtvdot", "i8", (7, 64, 1)),
    # riscv32: only with microkernels, any type
    ("riscv32:+m,+f,ukernels=all", "f32", (8, 8, 4)),
    ("riscv32:+m,+f,ukernels=all", "i8", (8, 8, 4)),
    ("riscv32:+m,+f", "f32", None),
    # VMVX: fixed tiles for every type; dynamic with microkernels
    ("vmvx", "f32", (8, 8, 4)),
    ("vmvx", "i8", (8, 8, 4)),
    ("vmvx", "f64", (8, 8, 4)),
    ("vmvx:ukernels=all", "f32", (D, D, D)),
    ("vmvx:ukernels=none", "f32", (8, 8, 4)),
]


@pytest.mark.parametrize(("target", "types", "tile"), TILE_TABLE)
def test_tile_table(target, types, tile):
    assert tile_of(target, types) == tile


# Narrow M picks a truncation of the preferred tile: the smallest M0 that covers
# PowerOf2Ceil(M) (penalty 0), then the largest M0 * N0 * K0.
NARROW_M = [
    ("x86_64:+avx,+avx2,+fma", "f32", 1, (1, 8, 1)),
    ("x86_64:+avx,+avx2,+fma", "f32", 2, (2, 8, 1)),
    ("x86_64:+avx,+avx2,+fma", "f32", 3, (4, 8, 1)),
    ("x86_64:+avx,+avx2,+fma", "f32", 5, (8, 8, 1)),
    ("x86_64:+avx,+avx2,+fma", "f32", 7, (8, 8, 1)),
    ("x86_64:+avx512f", "f32", 8, (8, 16, 1)),
    ("x86_64:+avx512f", "f32", 9, (16, 16, 1)),
    ("x86_64:+avx512f,+avx512bf16", "bf16", 2, (2, 16, 2)),
    ("x86_64:+avx512vnni", "i8", 4, (4, 16, 2)),
    ("x86_64", "i8", 1, (1, 4, 2)),
    ("x86_64:+avx512vnni", "i16ui4", 16, (1, 32, 8)),  # the only tile
    ("aarch64:+neon,+i8mm", "i8", 2, (2, 8, 8)),
    ("aarch64:+neon,+i8mm", "i8i4", 8, (4, 8, 16)),
    ("riscv64:+v,+zvl256b", "f32", 5, (7, 32, 1)),  # 7 rows cover PowerOf2Ceil(5) = 8
    ("riscv64:+v,+zvl256b", "f32", 3, (4, 32, 1)),
    ("riscv64:+v,+zvl256b,+zvfhmin", "f16", 6, (6, 32, 1)),
    ("riscv32:ukernels=all", "f32", 1, (1, 8, 4)),
    ("vmvx", "f32", 2, (2, 8, 4)),
    ("vmvx:ukernels=all", "f32", 2, (2, 8, 4)),  # narrow: no dynamic microkernel tile
]


@pytest.mark.parametrize(("target", "types", "m", "tile"), NARROW_M)
def test_narrow_m(target, types, m, tile):
    assert tile_of(target, types, [m, D, D]) == tile


@pytest.mark.parametrize(
    ("target", "sizes", "lhs", "rhs", "result"),
    [
        # Narrow N: chosen as narrow M, then M0/N0 swapped and the RESULT transposed.
        ("x86_64:+avx,+avx2,+fma", [4096, 1, 4096], ([0, 1], [8, 1], [0, 1]), ([1, 0], [1, 1], [1, 0]), ([1, 0], [1, 8], [1, 0])),
        ("x86_64:+avx,+avx2,+fma", [D, 3, D], ([0, 1], [8, 1], [0, 1]), ([1, 0], [4, 1], [1, 0]), ([1, 0], [4, 8], [1, 0])),
        ("x86_64:+avx512f", [D, 2, D], ([0, 1], [16, 1], [0, 1]), ([1, 0], [2, 1], [1, 0]), ([1, 0], [2, 16], [1, 0])),
        ("vmvx", [D, 2, D], ([0, 1], [8, 4], [0, 1]), ([1, 0], [2, 4], [1, 0]), ([1, 0], [2, 8], [1, 0])),
        # Static N larger than every tile (a constant weight): still "narrow N", so the
        # RESULT is transposed while the tiles stay 8x8 (IREE 3.13, const RHS).
        ("x86_64:+avx,+avx2,+fma", [D, 512, 256], ([0, 1], [8, 1], [0, 1]), ([1, 0], [8, 1], [1, 0]), ([1, 0], [8, 8], [1, 0])),
        # Narrow M: no transposition.
        ("x86_64:+avx,+avx2,+fma", [1, D, D], ([0, 1], [1, 1], [0, 1]), ([1, 0], [8, 1], [1, 0]), ([0, 1], [1, 8], [0, 1])),
        ("x86_64:+avx,+avx2,+fma", [255, 1023, 513], ([0, 1], [8, 1], [0, 1]), ([1, 0], [8, 1], [1, 0]), ([0, 1], [8, 8], [0, 1])),
        # M = N = 1: equal sizes are not narrow, so the full tile is used.
        ("x86_64:+avx,+avx2,+fma", [1, 1, 64], ([0, 1], [8, 1], [0, 1]), ([1, 0], [8, 1], [1, 0]), ([0, 1], [8, 8], [0, 1])),
        ("x86_64:+avx,+avx2,+fma", [16, 16, 16], ([0, 1], [8, 1], [0, 1]), ([1, 0], [8, 1], [1, 0]), ([0, 1], [8, 8], [0, 1])),
    ],
)
def test_matmul_layouts(target, sizes, lhs, rhs, result):
    t = parse_target(target)
    assert [layout(t, encoding(i, "f32", sizes)) for i in range(3)] == [lhs, rhs, result]


@pytest.mark.parametrize(
    ("op", "sizes", "lhs", "rhs", "result"),
    [
        # matvec: N is absent (size 1, narrow); the vector operands get one tile.
        ("matvec", [D, D], ([0, 1], [8, 1], [0, 1]), ([0], [1], [0]), ([0], [8], [0])),
        # vecmat: M is absent (size 1, narrow).
        ("vecmat", [D, D], ([0], [1], [0]), ([1, 0], [8, 1], [1, 0]), ([0], [8], [0])),
        ("batch_matmul", [D, D, D, D], ([1, 2], [8, 1], [0, 1, 2]), ([2, 1], [8, 1], [0, 2, 1]), ([1, 2], [8, 8], [0, 1, 2])),
        # Batch with narrow N: the RESULT's M and N entries (the last two) swap.
        ("batch_matmul", [D, D, 1, D], ([1, 2], [8, 1], [0, 1, 2]), ([2, 1], [1, 1], [0, 2, 1]), ([2, 1], [1, 8], [0, 2, 1])),
        ("batch_matmul", [4, 2, D, D], ([1, 2], [2, 1], [0, 1, 2]), ([2, 1], [8, 1], [0, 2, 1]), ([1, 2], [2, 8], [0, 1, 2])),
    ],
)
def test_vector_and_batch_layouts(op, sizes, lhs, rhs, result):
    t = parse_target("x86_64:+avx,+avx2,+fma")
    assert [layout(t, encoding(i, "f32", sizes, op)) for i in range(3)] == [lhs, rhs, result]


def test_vmvx_ukernels_batch_keeps_static_tiles():
    t = parse_target("vmvx:ukernels=all")
    assert layout(t, encoding(0, "f32", op="batch_matmul")) == ([1, 2], [8, 4], [0, 1, 2])
    assert layout(t, encoding(2, "f32")) == ([0, 1], [D, D], [0, 1])


@pytest.mark.parametrize(
    ("round_dims_to", "result"),
    [
        ([32, 32, 32], ([0, 1], [8, 8], [0, 1])),
        ([4, 32, 32], ([0, 1], [4, 8], [0, 1])),
        ([32, 2, 32], ([1, 0], [2, 8], [1, 0])),
    ],
)
def test_round_dims_to_narrow_hint(round_dims_to, result):
    # Encodings from before iteration_sizes carried the narrow hint as round_dims_to.
    t = parse_target("x86_64:+avx,+avx2,+fma")
    assert layout(t, encoding(2, "f32", round_dims_to=round_dims_to)) == result


@pytest.mark.parametrize(
    "target",
    ["x86_64:+avx512f", "aarch64:+neon", "riscv64:+v", "riscv32:ukernels=all", "vmvx", "vmvx:ukernels=all"],
)
def test_non_contraction_encoding_is_identity(target):
    maps = [amap(2, [0, 1]), amap(2, [0, 1]), amap(2, [0, 1])]
    enc = EncodingAttr(0, EncodingOpType.MATMUL, TYPES["f32"], maps, [D, D])
    assert get_encoding_info(parse_target(target), enc).is_identity()


def test_unknown_architecture_is_identity():
    text = (
        '#hal.executable.target<"llvm-cpu", "embedded-elf-wasm_32", {cpu_features = "", '
        'iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "wasm32-unknown-unknown"}>'
    )
    assert get_encoding_info(parse_target(text), encoding(0)).is_identity()


def test_choose_matmul_tile_prefers_first_of_equal_products():
    tiles = [MatmulTile(4, 8, 1), MatmulTile(8, 4, 1), MatmulTile(2, 8, 1)]
    assert choose_matmul_tile(tiles, None) == MatmulTile(4, 8, 1)
    assert choose_matmul_tile(tiles, ("M", 2)) == MatmulTile(2, 8, 1)
    assert choose_matmul_tile(tiles, ("N", 2)) == MatmulTile(8, 2, 1)


# ---------------------------------------------------------------------------
# Dispatch on iree.encoding.resolver and the serialized form
# ---------------------------------------------------------------------------


def print_attr(attr) -> str:
    stream = StringIO()
    MLIRPrinter(stream=stream, local_scope=True).print_attribute(attr)
    return stream.getvalue()


def test_resolve_without_resolver_is_none():
    target = parse_target('#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx"}>')
    assert resolve_encoding_info(target, encoding(0)) is None
    with pytest.raises(ValueError, match="iree.encoding.resolver"):
        serialize_encoding(target, encoding(0))


def test_resolve_dispatches_to_cpu():
    target = parse_target("x86_64:+avx512f")
    info = resolve_encoding_info(target, encoding(1))
    assert info is not None and info.inner_tile_sizes == [16, 1]


def test_no_tile_resolves_to_identity():
    info = resolve_encoding_info(parse_target("aarch64:+neon"), encoding(0, "i8"))
    assert info is not None and info.is_identity()
    assert print_attr(serialize_encoding(parse_target("aarch64:+neon"), encoding(0, "i8"))) == (
        "#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = "
        "{innerDimsPos = [], innerTileSizes = [], outerDimsPerm = []}}>]>"
    )


def _reference_layouts(path) -> list[str]:
    text = path.read_text()
    return re.findall(r"^#encoding\d* = (#iree_encoding\.layout<.*>)$", text, re.MULTILINE)


def test_serialized_form_matches_iree_3_13():
    # IREE 3.13 on an AVX2 host, dynamic f32 matmul: LHS then RHS.
    ref = require_reference() / "iree-3.13" / "dynamic-matmul" / "10_SpecializeEncodingsPass.mlir"
    target = parse_target("x86_64:+avx,+avx2,+fma")
    printed = [print_attr(serialize_encoding(target, encoding(i))) for i in (0, 1)]
    assert printed == _reference_layouts(ref)[:2]


def test_serialized_form_of_a_reference_target():
    # The full znver3 target IREE 3.13 printed, parsed back and used as it is.
    ref = require_reference() / "iree-3.13" / "dynamic-matmul" / "10_SpecializeEncodingsPass.mlir"
    line = next(x for x in ref.read_text().splitlines() if x.startswith("#executable_target_embedded_elf_x86_64 = "))
    target = parse_target(line.split(" = ", 1)[1])
    assert print_attr(target) == line.split(" = ", 1)[1]
    assert [layout(target, encoding(i)) for i in range(3)] == [
        ([0, 1], [8, 1], [0, 1]),
        ([1, 0], [8, 1], [1, 0]),
        ([0, 1], [8, 8], [0, 1]),
    ]


def test_serialized_vmvx_records_the_encoding():
    enc = encoding(0)
    printed = print_attr(serialize_encoding(parse_target("vmvx"), enc))
    assert printed == (
        "#iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver<configuration = {encoding_attr = "
        + print_attr(enc)
        + ", encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 4], outerDimsPerm = [0, 1]}}>]>"
    )


# The GPU resolver's layouts go through the same serialization; check the text
# against the walkthrough (its own swizzle spelling) and IREE 3.13's dumps.


def _no_space(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _walkthrough_layouts(text: str) -> list[str]:
    # Layouts written inline, or as multi-line `#encoding = ...` alias definitions.
    return re.findall(r"#iree_encoding\.layout<\[#iree_gpu.*?\]>", _no_space(text).replace("\n", ""))


@pytest.mark.parametrize("dump", ["13-specialize-encodings.after.mlir", "16-encode-host-tensors.after.mlir"])
def test_gpu_serialized_form_matches_walkthrough(dump):
    ref = require_reference() / "seed-walkthrough" / dump
    expected = _walkthrough_layouts(ref.read_text())[:2]
    target = parse_target("gfx942")
    printed = [_no_space(print_attr(serialize_encoding(target, encoding(i)))) for i in (0, 1)]
    assert printed == expected


def test_gpu_serialized_form_matches_iree_3_13():
    ref = require_reference() / "iree-3.13" / "gfx942-dynamic-matmul" / "10_SpecializeEncodingsPass.mlir"
    target = parse_target("gfx942")
    printed = [print_attr(serialize_encoding(target, encoding(i), gpu_era="3.13")) for i in (0, 1)]
    assert printed == _reference_layouts(ref)[:2]
