"""How many bytes a tensor needs on the host, as index arithmetic over its dynamic dims.

`iree-stream-encode-host-tensors` replaces `stream.tensor.sizeof` with this
arithmetic. For a plain tensor it is element bytes x dims; for an encoded tensor
with a resolved layout it is the size of what the layout stores:

* a packed layout (`encoding_info`) pads each `innerDimsPos` dim up to a multiple
  of its inner tile (`ceildivsi` + `muli`), the number of elements `linalg.pack`
  produces (the swizzle only moves elements), as IREE's
  `calculatePackedStorageSizeInBytesImpl`;
* a padding layout stores the padded shape (`PaddingAttr`, a pad-only layout of
  the algebra, `padding.py`);
* a layout listing several targets takes the largest (`arith.maxui`).

A size is a size expression of the layout algebra (`size_expr.py`, over
constants and the tensor's dynamic dims) with the order IREE creates its ops in
(`StorageSize`). The algebra's constructors fold as MLIR's greedy driver folds
what IREE creates, so a static shape gives one constant and the ops print as
IREE's dumps do. The same size is evaluated on numbers (`evaluate`) and emitted
by the pass in the `arith` spelling (`size_lowering.py`).

Tile sizes, the padding rule and the packing order come from the layout algebra
(`inner_tiles`, `ceil_div`, imported when a packed layout is sized); nothing here
knows about IR values.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field

from xdsl.dialects.builtin import DYNAMIC_INDEX, NoneAttr, TensorType
from xdsl.ir import Attribute

from mini_iree.compiler.ir.queries import element_bit_width

from . import size_expr
from .size_expr import Const, Dim, Op, SizeExpr

__all__ = [
    "DynamicDim",
    "SizeBuilder",
    "StorageSize",
    "StorageSizeError",
    "dense_storage_size",
    "is_unserialized",
    "element_byte_offset_scale",
    "legal_storage_bit_width",
    "needs_sub_byte_packing",
    "packed_storage_size",
    "set_packed_i1_storage",
    "tensor_storage_size",
]


class StorageSizeError(ValueError):
    """A tensor whose storage size the host cannot compute."""


# ---------------------------------------------------------------------------
# Size programs
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DynamicDim:
    """What a storage size reads: the tensor's `index`-th dynamic dim (its position in `{%d0, %d1}`)."""

    index: int


Value = SizeExpr


def dynamic_dim(index: int) -> Dim:
    return Dim(DynamicDim(index))


@dataclass
class SizeBuilder:
    """Builds a `StorageSize` with the algebra's folding constructors, recording the ops in creation order."""

    instructions: list[Op] = field(default_factory=list[Op])

    def _record(self, result: SizeExpr, *operands: SizeExpr) -> SizeExpr:
        if isinstance(result, Op) and not any(result is o for o in operands):
            self.instructions.append(result)
        return result

    def muli(self, lhs: Value, rhs: Value, nsw: bool = False) -> Value:
        return self._record(size_expr.mul(lhs, rhs, nsw=nsw), lhs, rhs)

    def addi(self, lhs: Value, rhs: Value, nsw: bool = False) -> Value:
        return self._record(size_expr.add(lhs, rhs, nsw), lhs, rhs)

    def ceildivsi(self, lhs: Value, rhs: Value) -> Value:
        return self._record(size_expr.ceildiv(lhs, rhs), lhs, rhs)

    def ceildivui(self, lhs: Value, rhs: Value) -> Value:
        return self._record(size_expr.ceildivu(lhs, rhs), lhs, rhs)

    def maxui(self, lhs: Value, rhs: Value) -> Value:
        return self._record(size_expr.maximum(lhs, rhs), lhs, rhs)

    def finish(self, result: Value) -> StorageSize:
        return StorageSize(tuple(self.instructions), result)


@dataclass(frozen=True)
class StorageSize:
    """A byte size: the size expression `result`, whose ops IREE creates in the order of `instructions`."""

    instructions: tuple[Op, ...]
    result: Value

    @property
    def constant(self) -> int | None:
        """The size when it does not depend on any dynamic dim."""
        return size_expr.constant_value(self.result)

    def evaluate(self, dims: Sequence[int]) -> int:
        """The size for dynamic dims `dims`."""
        return size_expr.evaluate(self.result, lambda source: dims[source.index])


# ---------------------------------------------------------------------------
# Element storage (IREE's ElementPackingUtils)
# ---------------------------------------------------------------------------


def _bit_width(element_type: Attribute) -> int:
    width = element_bit_width(element_type)
    if width is None:
        raise StorageSizeError(f"cannot size elements of type {element_type}")
    return width


def _packs_sub_byte(bits: int, packed_storage: bool) -> bool:
    # Power-of-two widths below a byte are packed; i1 only with packed_storage.
    if packed_storage and bits == 1:
        return True
    return bits < 8 and bits & (bits - 1) == 0 and bits != 1


def _rounded_byte_width(bits: int) -> int:
    """Bytes per element, rounded up to a power of two (`getRoundedElementByteWidth`)."""
    nbytes = max(1, -(-bits // 8))
    return 1 << (nbytes - 1).bit_length()


# IREE's `--iree-experimental-packed-i1-storage` (Sept 2025; gone by IREE 3.13): every
# tensor is stored as if it had `#iree_encoding.packed_storage`, i1 packed eight to a byte.
_PACKED_I1_STORAGE: ContextVar[bool] = ContextVar("mini_iree_packed_i1_storage", default=False)


def set_packed_i1_storage(enabled: bool) -> None:
    """Set `--iree-experimental-packed-i1-storage` for this run."""
    _PACKED_I1_STORAGE.set(bool(enabled))


def _has_packed_storage(tensor: TensorType) -> bool:
    from mini_iree.dialects import iree_encoding

    if _PACKED_I1_STORAGE.get():
        return True

    encoding = tensor.encoding
    if isinstance(encoding, iree_encoding.PackedStorageAttr):
        return True
    return isinstance(encoding, iree_encoding.LayoutAttr) and any(
        isinstance(layout, iree_encoding.PackedStorageAttr) for layout in encoding.layouts.data
    )


def needs_sub_byte_packing(tensor: TensorType) -> bool:
    """Whether elements are stored several to a byte (`needToPackSubByteElements`)."""
    return _packs_sub_byte(_bit_width(tensor.element_type), _has_packed_storage(tensor))


def legal_storage_bit_width(tensor: TensorType) -> int:
    """The element bit width a tensor is stored with (`legalizeStorageElementType`).

    Sub-byte power-of-two integers stay (they are packed); other integers widen to
    a power-of-two number of bytes (i1 -> i8, i3 -> i8, i17 -> i32). Floats keep
    their width.
    """
    from xdsl.dialects.builtin import IntegerType

    bits = _bit_width(tensor.element_type)
    if not isinstance(tensor.element_type, IntegerType) or _packs_sub_byte(bits, _has_packed_storage(tensor)):
        return bits
    return _rounded_byte_width(bits) * 8


def element_byte_offset_scale(tensor: TensorType) -> tuple[str, int]:
    """How an element index becomes a byte offset (`calculateStorageElementOffsetInBytes`).

    `("divui", n)` when `n` elements share a byte (i4: 2, i1 with packed_storage: 8),
    else `("muli", n)` for `n` bytes an element (i1 and i3 are widened to one byte).
    """
    bits = legal_storage_bit_width(tensor)
    if _packs_sub_byte(bits, _has_packed_storage(tensor)):
        return "divui", 8 // bits
    return "muli", _rounded_byte_width(bits)


# ---------------------------------------------------------------------------
# Sizes
# ---------------------------------------------------------------------------


def _shape(tensor: TensorType) -> list[int | None]:
    return [None if d == DYNAMIC_INDEX else d for d in tensor.get_shape()]


def _dynamic_positions(shape: Sequence[int | None]) -> dict[int, int]:
    """Tensor dim -> its position among the dynamic dims."""
    positions: dict[int, int] = {}
    for dim, extent in enumerate(shape):
        if extent is None:
            positions[dim] = len(positions)
    return positions


def dense_storage_size(b: SizeBuilder, tensor: TensorType, nsw: bool = False) -> Value:
    """A tensor without a layout: static count x each dynamic dim (`calculateStorageElementCountInBytes`).

    Sub-byte elements are counted several to a byte: power-of-two integers below
    a byte always, i1 only with `#iree_encoding.packed_storage`. A static count of
    bits that is not whole bytes is an error, except with packed_storage, which
    rounds up (`PackedStorageAttr::calculateStorageSizeInBytes`; its dynamic
    products are `nsw` in IREE 3.13, where it is a serializable layout).
    """
    packed = _has_packed_storage(tensor)
    bits = legal_storage_bit_width(tensor)
    packs = _packs_sub_byte(bits, packed)
    shape = _shape(tensor)
    static_count = 1 if packs else _rounded_byte_width(bits)
    for extent in shape:
        if extent is not None:
            static_count *= extent
    value: Value = Const(static_count)
    for index in range(len(_dynamic_positions(shape))):
        value = b.muli(value, dynamic_dim(index), nsw and packed)
    if packs:
        if not packed and all(extent is not None for extent in shape) and (static_count * bits) % 8 != 0:
            raise StorageSizeError(f"'{tensor}' does not have integral number of total bytes")
        value = b.ceildivui(value, Const(8 // bits))
    return value


def packed_storage_size(b: SizeBuilder, layout: Attribute, tensor: TensorType, nsw: bool) -> Value:
    """A resolver's packed layout: tiled dims padded to their tiles (`calculatePackedStorageSizeInBytesImpl`)."""
    from mini_iree.dialects.iree_codegen import EncodingResolverAttr, MaterializeEncodingInfo

    # The layout algebra's modules bring numpy: imported here, so mini-iree-opt only loads them for packed layouts.
    from .iree_encoding import DYNAMIC, inner_tiles
    from .shapes import ceil_div

    assert isinstance(layout, EncodingResolverAttr)
    info = layout.encoding_info or MaterializeEncodingInfo()
    shape = _shape(tensor)
    positions = _dynamic_positions(shape)
    padded_static = list(shape)
    padded_dynamic: list[Value] = [dynamic_dim(i) for i in range(len(positions))]
    if any(not 0 <= d < len(shape) for d in info.inner_dims_pos):
        raise StorageSizeError(f"innerDimsPos {list(info.inner_dims_pos)} does not fit {tensor}")
    scalable = info.scalable_tiles or [False] * len(info.inner_tile_sizes)
    for dim, tile, raw, is_scalable in zip(info.inner_dims_pos, inner_tiles(info), info.inner_tile_sizes, scalable):
        if tile is None and is_scalable and raw != DYNAMIC:
            # Host code cannot ask for vscale yet (iree-org/iree#21317): it sizes a scalable
            # tile with the user's `--iree-experimental-vscale-value`.
            from mini_iree.compiler.cpu_options import user_vscale_value

            vscale = user_vscale_value()
            if vscale is None:
                raise StorageSizeError(
                    f"cannot size {tensor}: inner tile of dim {dim} is scalable and no "
                    "--iree-experimental-vscale-value is given"
                )
            tile = raw * vscale
        elif tile is None:
            # VMVX's microkernels pick the tile at run time and assume 16 for padding.
            if raw == DYNAMIC and layout.name == "iree_cpu.vmvx_encoding_resolver":
                tile = 16
            else:
                raise StorageSizeError(f"cannot size {tensor}: inner tile of dim {dim} is dynamic or scalable")
        if tile == 1:
            continue
        if dim in positions:
            i = positions[dim]
            alignment = Const(tile)
            padded_dynamic[i] = b.muli(b.ceildivsi(padded_dynamic[i], alignment), alignment, nsw)
        else:
            count = ceil_div(padded_static[dim], tile)
            assert count is not None
            padded_static[dim] = count * tile
    bits = _bit_width(tensor.element_type)
    static_count = max(1, bits // 8)
    for extent in padded_static:
        if extent is not None:
            static_count *= extent
    value: Value = Const(static_count)
    for dim_size in padded_dynamic:
        value = b.muli(value, dim_size, nsw)
    if bits < 8:
        if 8 % bits:
            raise StorageSizeError(f"cannot pack {tensor.element_type} elements into bytes")
        value = b.ceildivui(value, Const(8 // bits))
    return value


def _padding_storage_size(b: SizeBuilder, padding: Sequence[int], tensor: TensorType, nsw: bool) -> Value:
    """`PaddingAttr::calculateStorageSizeInBytes`: the element count of the padded shape.

    The padded shape is the physical shape of the pad-only layout (`padding.py`);
    a dynamic dim, whose padded size the algebra leaves dynamic, adds its pad here.
    """
    # Imported here, as for packed layouts: the algebra brings numpy.
    from .padding import padding_relayout

    shape = _shape(tensor)
    try:
        physical = padding_relayout(padding, tuple(shape)).physical_shape
    except ValueError as error:
        raise StorageSizeError(f"{error}: {tensor}") from None
    static_product = _rounded_byte_width(_bit_width(tensor.element_type))
    dynamic_product: Value = Const(1)
    index = 0
    for extent, pad in zip(physical, padding):
        if extent is not None:
            static_product *= extent
            continue
        dim: Value = dynamic_dim(index)
        index += 1
        if pad != 0:
            dim = b.addi(dim, Const(pad), nsw)
        dynamic_product = b.muli(dynamic_product, dim, nsw)
    return b.muli(Const(static_product), dynamic_product, nsw)


def _layout_storage_size(b: SizeBuilder, layout: Attribute, tensor: TensorType, nsw: bool) -> Value:
    from mini_iree.dialects import iree_encoding
    from mini_iree.dialects.iree_codegen import EncodingResolverAttr

    if isinstance(layout, EncodingResolverAttr):
        return packed_storage_size(b, layout, tensor, nsw)
    if isinstance(layout, iree_encoding.PaddingAttr | iree_encoding.PadEncodingLayoutAttr):
        # `PaddingAttr::calculateStorageSizeInBytes` marks its arithmetic nsw in every IREE
        # version that has it, the walkthrough's included.
        return _padding_storage_size(b, layout.get_padding(), tensor, True)
    if isinstance(layout, iree_encoding.IdentityAttr):
        return _padding_storage_size(b, [0] * tensor.get_num_dims(), tensor, nsw)
    if isinstance(layout, iree_encoding.PackedStorageAttr):
        return dense_storage_size(b, tensor, nsw)
    raise StorageSizeError(f"cannot compute the storage size of layout {layout}")


def is_unserialized(tensor: Attribute) -> bool:
    """A tensor type whose encoding still waits for a target to decide its layout."""
    from mini_iree.dialects import iree_encoding

    if not isinstance(tensor, TensorType) or isinstance(tensor.encoding, NoneAttr):
        return False
    encoding = tensor.encoding
    return iree_encoding.is_serializable_encoding(encoding) and not iree_encoding.is_serialized_encoding(encoding)


def tensor_storage_size(tensor: TensorType, *, nsw: bool = False) -> StorageSize:
    """The storage size program of a tensor type (IREE's `calculateStorageElementCountInBytes`).

    `nsw` marks the layout arithmetic `overflow<nsw>`, as IREE 3.13 does.
    Raises StorageSizeError for an unserialized encoding or one it cannot size.
    """
    from mini_iree.dialects import iree_encoding

    b = SizeBuilder()
    encoding = tensor.encoding
    if is_unserialized(tensor):
        raise StorageSizeError(f"unsupported (unserialized) tensor encoding: {tensor}")
    if isinstance(encoding, iree_encoding.LayoutAttr):
        result: Value | None = None
        for layout in encoding.layouts.data:
            size = _layout_storage_size(b, layout, tensor, nsw)
            result = size if result is None else b.maxui(result, size)
        assert result is not None
        return b.finish(result)
    if isinstance(encoding, iree_encoding.PaddingAttr | iree_encoding.PadEncodingLayoutAttr | iree_encoding.IdentityAttr):
        return b.finish(_layout_storage_size(b, encoding, tensor, nsw))
    return b.finish(dense_storage_size(b, tensor, nsw))
