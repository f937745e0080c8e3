"""The conversion patterns of encoding materialization, and ``materialize_function`` that runs them.

IREE keeps them in a library (``MaterializeEncodingPatterns.cpp``) that several
passes populate: ``iree-codegen-materialize-device-encoding`` with the
function's target, ``iree-codegen-materialize-encoding-into-nop`` with the
identity resolver. Each pattern converts one op on encoded tensors to the
packed (or padded, or plain) tensors its layout gives; casts bridge converted
values to not-yet-converted users and are gone when the function is done.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntegerAttr,
    NoneAttr,
    TensorType,
    UnrealizedConversionCastOp,
    i32,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.transforms.common_subexpression_elimination import cse

from mini_iree.compiler.ir.constants import hoist_and_unique_constants
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.compiler.materialize_encoding.builders import Builder, Mixed, mixed_sizes, static_shape, to_ir_shape
from mini_iree.compiler.materialize_encoding.layouts import LayoutSource
from mini_iree.dialects import hal, iree_encoding, iree_tensor_ext, linalg, stream, tensor
from mini_iree.dialects.iree_codegen import MaterializeEncodingInfo

__all__ = ["materialize_function"]

_CAST_MARK = "__materialize_encoding_cast"


def _has_encoding(ty: Attribute) -> bool:
    if isinstance(ty, iree_tensor_ext.DispatchTensorTypeBase):
        ty = ty.bound_type
    return isinstance(ty, TensorType) and not isinstance(ty.encoding, NoneAttr)


def _strip(ty: TensorType) -> TensorType:
    return TensorType(ty.get_element_type(), ty.get_shape())


@dataclass
class _Conversion:
    """What the patterns share while one function is converted (the dialect conversion's value map)."""

    layouts: LayoutSource
    func_op: Operation
    # Packed value -> sizes of the logical (encoded) tensor it stands for, and its own sizes.
    logical: dict[SSAValue, Mixed] = field(default_factory=dict)
    packed: dict[SSAValue, Mixed] = field(default_factory=dict)
    # Bindings that hold their tensor padded (a padding layout): loads and stores take a slice.
    padded: set[SSAValue] = field(default_factory=set)
    # The `tensor.dim` ops (and their index constants) built for function arguments' sizes.
    size_ops: list[Operation] = field(default_factory=list)

    def builder(self, anchor: Operation) -> Builder:
        return Builder(anchor, self.func_op.regions[0].blocks[0])

    def info(self, op: Operation, ty: Attribute) -> MaterializeEncodingInfo | None:
        if isinstance(ty, iree_tensor_ext.DispatchTensorTypeBase):
            ty = ty.bound_type
        return self.layouts.info(op, ty)

    def remapped(self, op: Operation, value: SSAValue) -> SSAValue:
        """The converted value standing for `value` (itself when it has no encoding)."""
        owner = value.owner
        if isinstance(owner, UnrealizedConversionCastOp) and _CAST_MARK in owner.attributes:
            return owner.inputs[0]
        if _has_encoding(value.type):
            if isinstance(owner, Operation):
                raise OpError(owner, "cannot be materialized: no pattern converts this op on encoded tensors")
            raise OpError(op, "has an encoded operand that is a block argument, which is not materialized")
        return value

    def replace(self, rewriter: PatternRewriter, op: Operation, new_values: list[SSAValue]) -> None:
        """Replace `op`; encoded results are bridged by casts until their users are converted."""
        bridged: list[SSAValue] = []
        for old, new in zip(op.results, new_values):
            if old.type == new.type:
                bridged.append(new)
                continue
            cast = UnrealizedConversionCastOp.get([new], [old.type])
            cast.attributes[_CAST_MARK] = NoneAttr()
            rewriter.insert(cast, InsertPoint.before(op))
            bridged.append(cast.results[0])
        rewriter.replace(op, [], bridged)  # type: ignore[arg-type]

    def logical_sizes(self, op: Operation, value: SSAValue) -> Mixed:
        """Sizes of an encoded (or plain) tensor value as ints and SSA values."""
        ty = value.type
        assert isinstance(ty, TensorType)
        owner = value.owner
        if isinstance(owner, UnrealizedConversionCastOp) and owner.inputs[0] in self.logical:
            return list(self.logical[owner.inputs[0]])
        if value in self.logical:
            return list(self.logical[value])
        from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims

        if isinstance(owner, iree_tensor_ext.DispatchTensorLoadOpBase):
            return list(owner.get_mixed_sizes())
        dims = get_dynamic_dims(value, InsertPoint.before(op))
        return mixed_sizes(ty.get_shape(), dims)

    def argument_sizes(self, op: Operation, value: SSAValue) -> Mixed | None:
        """The sizes of a materialized function argument (``tensor.dim`` before ``op`` for its
        dynamic dims); None for any other value whose sizes were not recorded."""
        from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims

        entry = self.func_op.regions[0].blocks[0] if self.func_op.regions and self.func_op.regions[0].blocks else None
        if not isinstance(value, BlockArgument) or value.block is not entry or not isinstance(value.type, TensorType):
            return None
        dims = get_dynamic_dims(value, InsertPoint.before(op))
        # A lowering that does not read them leaves them unused: erased when the function is done.
        self.size_ops += [d.owner for d in dims] + [d.owner.operands[1].owner for d in dims]  # type: ignore[union-attr]
        return mixed_sizes(value.type.get_shape(), dims)

    def record(self, value: SSAValue, logical: Mixed, packed: Mixed) -> None:
        self.logical[value] = list(logical)
        self.packed[value] = list(packed)


class _ConversionPattern(RewritePattern):
    """A pattern of the conversion, sharing the function's ``_Conversion``.

    Each pattern names the ops it converts in its ``match_and_rewrite``'s type
    hint (``op_type_rewrite_pattern``), so the walker visits only those.
    """

    def __init__(self, conversion: _Conversion):
        self.c = conversion


@contextmanager
def _cannot_materialize(op: Operation) -> Iterator[None]:
    """A layout a pattern cannot build IR for (a ``ValueError`` of the layout algebra, e.g. a
    dynamic inner tile) is an error at the op."""
    try:
        yield
    except ValueError as error:
        raise OpError(op, f"cannot be materialized: {error}") from None


def _has_runtime_tiles(info: MaterializeEncodingInfo | None) -> bool:
    return info is not None and DYNAMIC_INDEX in info.inner_tile_sizes


def _runtime_inner_tiles(
    conversion: _Conversion, builder: Builder, op: Operation, ty: TensorType, info: MaterializeEncodingInfo
) -> Mixed:
    """The inner tiles of a layout the resolver left to the runtime (IREE's getInnerTileSizesOfr).

    One `iree_codegen.query_tile_sizes` of the encoded type gives a value per
    dim; a dynamic tile takes its value, a static tile of a dynamic dim an index
    constant, any other static tile its size. Only VMVX with microkernels asks.
    """
    from mini_iree.dialects.iree_codegen import QueryTileSizesOp

    if not conversion.layouts.has_runtime_tiles():
        raise OpError(op, "cannot be materialized: failed to generate runtime tile size query")
    if info.swizzle is not None:
        raise OpError(op, "cannot be materialized: a swizzle of run-time inner tiles")
    query = builder.insert(QueryTileSizesOp(ty))
    tiles: Mixed = []
    for index, size in enumerate(info.inner_tile_sizes):
        if size == DYNAMIC_INDEX:
            tiles.append(query.results[index])
        elif ty.get_shape()[index] == DYNAMIC_INDEX:
            tiles.append(builder.insert(arith.ConstantOp(IntegerAttr(size, IndexType()))).results[0])
        else:
            tiles.append(size)
    return tiles


def _packed_sizes(
    conversion: _Conversion, builder: Builder, op: Operation, ty: TensorType, info: MaterializeEncodingInfo, logical: Mixed
) -> Mixed:
    """All sizes of the packed tensor of `ty` (logical sizes `logical`), run-time tiles queried."""
    if _has_runtime_tiles(info):
        return builder.materialized_sizes(info, logical, _runtime_inner_tiles(conversion, builder, op, ty, info))
    return builder.materialized_sizes(info, logical)


class MaterializeInterfaceBindingEncoding(_ConversionPattern):
    """`stream.binding.subspan` / `hal.interface.binding.subspan` of an encoded tensor -> packed type."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: stream.BindingSubspanOp | hal.InterfaceBindingSubspanOp, rewriter: PatternRewriter
    ) -> None:
        with _cannot_materialize(op):
            ty = op.result.type
            if not isinstance(ty, iree_tensor_ext.DispatchTensorTypeBase) or not _has_encoding(ty):
                return
            bound = ty.bound_type
            assert isinstance(bound, TensorType)
            pads = self.c.layouts.padding(op, bound)
            dynamic = sum(1 for s in bound.get_shape() if s == DYNAMIC_INDEX)
            if dynamic != len(op.dynamic_dims):
                if pads is not None and any(pads):
                    # Padding pads static dims only: the subspan keeps the dims it has, as
                    # IREE's padding pattern passes them through without checking them.
                    self._pad_unchecked(op, bound, pads, rewriter)
                    return
                raise OpError(
                    op,
                    f"cannot be materialized: its type has {dynamic} dynamic dimensions but "
                    f"{len(op.dynamic_dims)} dimension values are attached",
                )
            info = self.c.info(op, bound)
            logical = mixed_sizes(bound.get_shape(), list(op.dynamic_dims))
            builder = self.c.builder(op)
            if pads is not None and any(pads):
                # A padding layout: the binding holds the padded tensor, row-major.
                sizes = _padded_sizes(op, pads, logical)
                new_bound = TensorType(bound.get_element_type(), to_ir_shape(static_shape(sizes)))
            elif info is None or info.is_identity():
                sizes = logical
                new_bound = _strip(bound)
            else:
                sizes = _packed_sizes(self.c, builder, op, bound, info, logical)
                new_bound = TensorType(bound.get_element_type(), to_ir_shape(static_shape(sizes)))
            new_type = type(ty)(ty.access_mode, new_bound)
            dims = [s for s in sizes if isinstance(s, SSAValue)]
            # The dynamic dims are the last operands; the binding/offset operands stay.
            operands = list(op.operands[: len(op.operands) - len(op.dynamic_dims)]) + dims
            properties = dict(op.properties)
            if "operandSegmentSizes" in properties:
                segments = list(properties["operandSegmentSizes"].get_values())  # type: ignore[attr-defined]
                segments[-1] = len(dims)
                properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, segments)
            new = type(op).create(
                operands=operands, result_types=[new_type], properties=properties, attributes=dict(op.attributes)
            )
            rewriter.insert(new, InsertPoint.before(op))
            self.c.record(new.results[0], logical, sizes)
            if pads is not None and any(pads):
                self.c.padded.add(new.results[0])
            self.c.replace(rewriter, op, [new.results[0]])

    def _pad_unchecked(
        self, op: Operation, bound: TensorType, pads: list[int], rewriter: PatternRewriter
    ) -> None:
        """A padded binding whose dynamic dims do not match its type: the padded type, the same dims.
        Its loads and stores then take their own dims (`_padded_slice_dims`)."""
        from mini_iree.compiler.layout.padding import padded_shape

        shape = tuple(None if s == DYNAMIC_INDEX else s for s in bound.get_shape())
        if any(pad and size is None for pad, size in zip(pads, shape)):
            raise OpError(op, "cannot be materialized: padding a dynamic dim is not supported")
        try:
            padded = padded_shape(pads, shape)
        except ValueError as error:
            raise OpError(op, f"cannot be materialized: {error}") from None
        ty = op.result.type
        new_type = type(ty)(ty.access_mode, TensorType(bound.get_element_type(), to_ir_shape(list(padded))))  # type: ignore[attr-defined]
        new = type(op).create(
            operands=list(op.operands),
            result_types=[new_type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        rewriter.insert(new, InsertPoint.before(op))
        self.c.padded.add(new.results[0])
        self.c.replace(rewriter, op, [new.results[0]])


def _padded_sizes(op: Operation, pads: list[int], logical: Mixed) -> Mixed:
    """The sizes of a padded binding: the padded shape of the pad-only layout (static dims only)."""
    from mini_iree.compiler.layout.padding import padded_shape

    if any(pad and isinstance(size, SSAValue) for pad, size in zip(pads, logical)):
        raise OpError(op, "cannot be materialized: padding a dynamic dim is not supported")
    try:
        padded = padded_shape(pads, tuple(None if isinstance(s, SSAValue) else s for s in logical))
    except ValueError as error:
        raise OpError(op, f"cannot be materialized: {error}") from None
    return [size if extent is None else extent for size, extent in zip(logical, padded)]


def _same_slice(op: Operation) -> dict:
    """The offsets, sizes and strides of a load or store, to build its converted op with."""
    return {
        "offsets": op.get_mixed_offsets(),  # type: ignore[attr-defined]
        "sizes": op.get_mixed_sizes(),  # type: ignore[attr-defined]
        "strides": op.get_mixed_strides(),  # type: ignore[attr-defined]
    }


def _keeps_slices(conversion: _Conversion, binding: SSAValue, info: MaterializeEncodingInfo | None) -> bool:
    """Whether loads and stores of the converted `binding` keep their offsets, sizes and strides:
    a padded binding, or one whose layout is the identity. Only a packed binding is rewritten,
    and then only for whole-tensor slices (IREE: "TODO(jornt): Enable partial slices")."""
    return binding in conversion.padded or info is None or info.is_identity()


def _is_full_slice(op: Operation, sizes: list, dims: Mixed) -> bool:
    offsets = op.get_mixed_offsets()  # type: ignore[attr-defined]
    strides = op.get_mixed_strides()  # type: ignore[attr-defined]
    return all(o == 0 for o in offsets) and all(s == 1 for s in strides) and list(sizes) == list(dims)


class MaterializeTensorExtDispatchTensorLoadOp(_ConversionPattern):
    """A whole-tensor `dispatch.tensor.load` of an encoded binding reads the packed tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorLoadOpBase, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            if not _has_encoding(op.source.type) and not _has_encoding(op.result.type):
                return
            source = self.c.remapped(op, op.source)
            result_info = self.c.info(op, op.result.type)
            source_info = self.c.info(op, op.source.type)
            if (result_info or MaterializeEncodingInfo()) != (source_info or MaterializeEncodingInfo()):
                raise OpError(
                    op, "loads a tensor whose layout differs from its binding's; relayout is not materialized"
                )
            if source in self.c.padded:
                # A padded binding keeps its dynamic dims (padding pads static dims only): the
                # load keeps its own, as IREE's padding pattern does.
                new = type(op)(_strip(op.result.type), source, list(op.source_dims), **_same_slice(op))
                rewriter.insert(new, InsertPoint.before(op))
                sizes = op.get_mixed_sizes()
                if len(sizes) == len(op.result.type.get_shape()):
                    self.c.record(new.result, sizes, sizes)
                self.c.replace(rewriter, op, [new.result])
                return
            logical = self.c.logical.get(source)
            if logical is None:
                raise OpError(op, "reads a binding that was not materialized")
            packed = self.c.packed[source]
            dims = [s for s in packed if isinstance(s, SSAValue)]
            if _keeps_slices(self.c, source, source_info):
                # IREE's identity and padding resolvers (getOffsetsSizesStrides): the binding
                # holds the tensor row-major, so any slice of it is read as it is.
                sizes = op.get_mixed_sizes()
                new = type(op)(_strip(op.result.type), source, dims, **_same_slice(op))
                rewriter.insert(new, InsertPoint.before(op))
                if len(sizes) == len(op.result.type.get_shape()):
                    self.c.record(new.result, sizes, sizes)
                self.c.replace(rewriter, op, [new.result])
                return
            if not _is_full_slice(op, op.get_mixed_sizes(), logical):
                raise OpError(op, "only whole-tensor loads of encoded bindings are materialized")
            # The op's own class: `flow.dispatch.tensor.load` in the walkthrough's older IR.
            new = type(op)(
                source.type.bound_type,  # type: ignore[attr-defined]
                source,
                dims,
            )
            rewriter.insert(new, InsertPoint.before(op))
            self.c.record(new.result, logical, packed)
            self.c.replace(rewriter, op, [new.result])


class MaterializeTensorExtDispatchTensorStoreOp(_ConversionPattern):
    """A whole-tensor `dispatch.tensor.store` into an encoded binding writes the packed tensor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorStoreOpBase, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            if not _has_encoding(op.target.type) and not _has_encoding(op.value.type):
                return
            value_info = self.c.info(op, op.value.type)
            target_info = self.c.info(op, op.target.type)
            if (value_info or MaterializeEncodingInfo()) != (target_info or MaterializeEncodingInfo()):
                raise OpError(
                    op, "stores a tensor whose layout differs from its binding's; relayout is not materialized"
                )
            value = self.c.remapped(op, op.value)
            target = self.c.remapped(op, op.target)
            if target in self.c.padded:
                # As for loads: a padded binding's store keeps its slice and its own dims.
                rewriter.replace(op, type(op)(value, target, list(op.target_dims), **_same_slice(op)))
                return
            logical = self.c.logical.get(target)
            if logical is None:
                raise OpError(op, "writes a binding that was not materialized")
            packed = self.c.packed[target]
            dims = [s for s in packed if isinstance(s, SSAValue)]
            if _keeps_slices(self.c, target, target_info):
                # As for loads: the slice is written as it is; a padded binding's pad is left alone.
                rewriter.replace(op, type(op)(value, target, dims, **_same_slice(op)))
                return
            if not _is_full_slice(op, op.get_mixed_sizes(), logical):
                raise OpError(op, "only whole-tensor stores into encoded bindings are materialized")
            new = type(op)(value, target, dims)
            rewriter.replace(op, new)


def _runtime_pack(
    conversion: _Conversion, builder: Builder, op: Operation, info: MaterializeEncodingInfo, source: SSAValue, logical: Mixed
) -> tuple[SSAValue, Mixed]:
    """`set_encoding` with run-time tiles: one `linalg.pack` with a padding value (IREE's
    lowerSetEncodingOpToPackOp; no size is known to divide a queried tile)."""
    ty = op.result.type  # type: ignore[attr-defined]
    tiles = _runtime_inner_tiles(conversion, builder, op, ty, info)
    element = ty.get_element_type()
    pad = builder.zero(element)
    sizes = builder.materialized_sizes(info, logical, tiles)
    dest = builder.empty(sizes, element)
    perm = info.outer_dims_perm or list(range(len(logical)))
    pack = linalg.PackOp(source, dest, info.inner_dims_pos, tiles, pad, perm)  # type: ignore[arg-type]
    return builder.insert(pack).results[0], sizes


class SetEncodingOpLoweringConversion(_ConversionPattern):
    """`set_encoding` -> `linalg.pack padding_value(0)` (+ expand_shape + transpose)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.SetEncodingOp, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            info = self.c.info(op, op.result.type)
            logical = self.c.logical_sizes(op, op.source)
            source = self.c.remapped(op, op.source)
            if info is None or info.is_identity() or len(logical) == 0:
                self.c.record(source, logical, logical)
                self.c.replace(rewriter, op, [source])
                return
            builder = self.c.builder(op)
            if _has_runtime_tiles(info):
                packed, sizes = _runtime_pack(self.c, builder, op, info, source, logical)
            else:
                packed, sizes = builder.pack_chain(info, source, logical)
            self.c.record(packed, logical, sizes)
            self.c.replace(rewriter, op, [packed])


class UnsetEncodingOpLoweringConversion(_ConversionPattern):
    """`unset_encoding` -> inverse transpose + collapse_shape (swizzle) + `linalg.unpack`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_encoding.UnsetEncodingOp, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            info = self.c.info(op, op.source.type)
            source = self.c.remapped(op, op.source)
            result = mixed_sizes(op.result.type.get_shape(), list(op.result_dims))
            if info is None or info.is_identity():
                if source.type != op.result.type:
                    raise OpError(op, "slicing unset_encoding of an identity layout is not materialized")
                self.c.replace(rewriter, op, [source])
                return
            if _has_runtime_tiles(info):
                builder = self.c.builder(op)
                dest = builder.empty(result, op.result.type.get_element_type())
                tiles = _runtime_inner_tiles(self.c, builder, op, op.source.type, info)
                perm = info.outer_dims_perm or list(range(len(op.source.type.get_shape())))
                unpack = builder.insert(linalg.UnPackOp(source, dest, info.inner_dims_pos, tiles, perm))  # type: ignore[arg-type]
                self.c.replace(rewriter, op, [unpack.results[0]])
                return
            shape = op.source.type.get_shape()
            # A swizzle's inverse transpose takes the packed source's sizes: for a function
            # argument its `tensor.dim`s (IREE's getMixedSizes of the converted source).
            packed = self.c.packed.get(source)
            if packed is None and info.swizzle is not None:
                packed = self.c.argument_sizes(op, source)
            if (info.swizzle is None or packed is not None) and all(
                s != DYNAMIC_INDEX or isinstance(r, SSAValue) for s, r in zip(shape, result)
            ):
                # Then the unpack needs only which dims are dynamic: a `tensor.dim` of the
                # encoded source (a function argument) would be left unconverted.
                logical: Mixed = [s if s != DYNAMIC_INDEX else r for s, r in zip(shape, result)]
            else:
                logical = self.c.logical_sizes(op, op.source)
            value = self.c.builder(op).unpack_chain(info, source, logical, result, packed)
            self.c.replace(rewriter, op, [value])


class MaterializeTensorEmptyOp(_ConversionPattern):
    """`tensor.empty` of an encoded type -> `tensor.empty` of the packed type (IREE's MaterializeOperation)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.EmptyOp, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            if not _has_encoding(op.tensor.type):
                return
            ty = op.tensor.type
            info = self.c.info(op, ty)
            logical = mixed_sizes(ty.get_shape(), list(op.dynamic_sizes))  # type: ignore[attr-defined]
            builder = self.c.builder(op)
            sizes = logical if info is None or info.is_identity() else _packed_sizes(self.c, builder, op, ty, info, logical)
            new = builder.empty(sizes, ty.get_element_type())  # type: ignore[attr-defined]
            self.c.record(new, logical, sizes)
            self.c.replace(rewriter, op, [new])


class MaterializeFillOp(_ConversionPattern):
    """`linalg.fill` into an encoded tensor fills the packed tensor (IREE's MaterializeDPSOperation)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.FillOp, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            if not any(_has_encoding(r.type) for r in op.results):
                return
            out = self.c.remapped(op, op.outputs[0])
            new = linalg.FillOp([op.inputs[0]], [out], [out.type])
            rewriter.insert(new, InsertPoint.before(op))
            self._record_like(new.results[0], out)
            self.c.replace(rewriter, op, [new.results[0]])

    def _record_like(self, value: SSAValue, like: SSAValue) -> None:
        if like in self.c.logical:
            self.c.record(value, self.c.logical[like], self.c.packed[like])


def _is_elementwise_generic(op: Operation) -> bool:
    return isinstance(op, linalg.GenericOp) and all(str(t.data) == "parallel" for t in op.iterator_types.data)


class MaterializeContractionOp(_ConversionPattern):
    """A contraction on encoded operands -> `linalg.mmt4d`/`batch_mmt4d` or `iree_codegen.inner_tiled`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.ContractionOp | linalg.GenericOp, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            from mini_iree.compiler.materialize_encoding.contraction import lower_to_mmt4d

            if _is_elementwise_generic(op):
                return
            if not any(_has_encoding(v.type) for v in op.operands):
                return
            operands = list(op.operands)
            if self.c.layouts.padding_resolver is not None:
                # Padding keeps every tensor's shape: the contraction runs as it is, without encodings.
                new = _clone_on(op, [self.c.remapped(op, v) for v in operands])
                rewriter.insert(new, InsertPoint.before(op))
                self.c.replace(rewriter, op, list(new.results))
                return
            # A scaled (MX) contraction takes both scales as two more inputs.
            scaled = _is_scaled_contraction(op)
            if len(operands) != (5 if scaled else 3) or len(op.results) != 1:
                raise OpError(op, "only contractions with two inputs and one init are materialized")
            infos = [self.c.info(op, v.type) for v in operands]
            new_operands = [self.c.remapped(op, v) for v in operands]
            if all(i is None or i.is_identity() for i in infos):
                # Identity layouts (also any encoding the resolver does not lay out, such as
                # `#iree_encoding.matmul_k`): the same op on the plain tensors.
                new = _clone_on(op, new_operands)
                rewriter.insert(new, InsertPoint.before(op))
                self.c.replace(rewriter, op, [new.results[0]])
                return
            encodings = [v.type.encoding for v in operands]  # type: ignore[attr-defined]
            if not all(isinstance(e, iree_encoding.EncodingAttr) for e in encodings) or [
                e.get_operand_index() for e in encodings
            ] != list(range(len(operands))):
                raise OpError(op, "expects #iree_encoding.encoding with operand indices 0, 1, 2 on lhs, rhs and init")
            if isinstance(op, linalg.GenericOp) and not scaled and not _is_mul_add_body(op):
                raise OpError(op, "is not a multiply-accumulate contraction")
            if any(i is None or i.is_identity() for i in infos):
                raise OpError(op, "has operands with and without packed layouts")
            builder = self.c.builder(op)
            layouts = self.c.layouts
            sizes = [self.c.packed.get(v) or self.c.argument_sizes(op, v) for v in new_operands]
            # The backend of the resolver that chose the layouts lowers the contraction
            # (IREE's LayoutMaterializerAttr::lowerOp); mmt4d when no resolver says.
            resolver = layouts.contraction_resolver(self.c.func_op)
            if resolver is not None:
                result = resolver.lower_contraction(builder, op, encodings, infos, new_operands, sizes, layouts.profile)
            else:
                if any(s is None for s in sizes):
                    raise OpError(op, "operand sizes of the packed operands are unknown")
                result, _ = lower_to_mmt4d(builder, op, encodings, infos, new_operands, sizes)  # type: ignore[arg-type]
            acc = new_operands[-1]
            if acc in self.c.logical:
                self.c.record(result, self.c.logical[acc], self.c.packed[acc])
            self.c.replace(rewriter, op, [result])


def _is_scaled_contraction(op: Operation) -> bool:
    from mini_iree.compiler.analysis.scaled_contraction import scaled_contraction_dims

    return scaled_contraction_dims(op) is not None


def _clone_on(op: Operation, operands: list[SSAValue]) -> Operation:
    """`op` on new operands (plain tensors), its result typed like its init."""
    return type(op).create(
        operands=operands,
        result_types=[operands[-1].type],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )


def _is_mul_add_body(op: linalg.GenericOp) -> bool:
    """`yield(add(out, mul(cast?(in0), cast?(in1))))`, what mmt4d computes."""
    ops = list(op.body.block.ops)
    names = [o.name for o in ops]
    core = [n for n in names if n not in ("arith.extsi", "arith.extui", "arith.extf", "arith.sitofp", "arith.truncf")]
    return core in (["arith.mulf", "arith.addf", "linalg.yield"], ["arith.muli", "arith.addi", "linalg.yield"])


class MaterializeGenericOp(_ConversionPattern):
    """An all-parallel `linalg.generic` on encoded tensors runs on the packed tiles
    (IREE's lowerGenericOpWithResolvedLayouts, in ``generic.py``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter) -> None:
        with _cannot_materialize(op):
            from mini_iree.compiler.materialize_encoding.generic import lower_generic_with_resolved_layouts

            if not _is_elementwise_generic(op) or not any(_has_encoding(v.type) for v in op.operands):
                return
            infos = [self.c.info(op, v.type) for v in op.operands]
            new_operands = [self.c.remapped(op, v) for v in op.operands]
            outs = new_operands[len(op.inputs) :]
            new = lower_generic_with_resolved_layouts(op, infos, new_operands, [v.type for v in outs])
            if new is None:
                # IREE's conversion leaves the op illegal, and the pass fails on the function.
                raise OpError(
                    op,
                    "failed to legalize operation 'linalg.generic' that was explicitly marked illegal",
                    prefix_op_name=False,
                    more=(OpError(self.c.func_op, "materialization failed"),),
                )
            rewriter.insert(new, InsertPoint.before(op))
            for result, out in zip(new.results, outs):
                if out in self.c.logical:
                    self.c.record(result, self.c.logical[out], self.c.packed[out])
            self.c.replace(rewriter, op, list(new.results))


def _runtime_tiled_shape(info: MaterializeEncodingInfo, shape: Sequence[int]) -> list[int | None]:
    """The packed shape of a layout with run-time tiles: a dim tiled by a queried tile, and the
    tile itself, are dynamic (IREE's type converter keeps `kDynamic`)."""
    tile_of = dict(zip(info.inner_dims_pos, info.inner_tile_sizes))
    outer: list[int | None] = []
    for d in info.outer_dims_perm or range(len(shape)):
        size, tile = shape[d], tile_of.get(d)
        if size == DYNAMIC_INDEX or tile == DYNAMIC_INDEX:
            outer.append(None)
        else:
            outer.append(size if tile is None else -(-size // tile))
    return outer + [None if t == DYNAMIC_INDEX else t for t in info.inner_tile_sizes]


def _materialized_type(conversion: _Conversion, op: Operation, ty: TensorType) -> TensorType:
    """The tensor type an encoded tensor is materialized to (IREE's type converter):
    the packed (swizzled) shape with dynamic outer dims, or the plain type for an identity layout."""
    from mini_iree.compiler.layout import iree_encoding as layout

    pads = conversion.layouts.padding(op, ty)
    if pads is not None and any(pads):
        # IREE pads such a tensor where a binding holds it; a function boundary has no binding.
        raise OpError(op, "cannot be materialized: a function argument or result with a padding layout")
    info = conversion.info(op, ty)
    if info is None or info.is_identity():
        return _strip(ty)
    if _has_runtime_tiles(info):
        return TensorType(ty.get_element_type(), to_ir_shape(list(_runtime_tiled_shape(info, ty.get_shape()))))
    with _cannot_materialize(op):
        shape = layout.materialized_shape(info, tuple(None if d == DYNAMIC_INDEX else d for d in ty.get_shape()))
    return TensorType(ty.get_element_type(), to_ir_shape(list(shape)))


def _convert_signature(conversion: _Conversion, func_op: Operation) -> None:
    """Encoded function arguments take their materialized types (IREE's signature conversion); a
    marked cast stands for the encoded value until its users are converted."""
    if not isinstance(func_op, func.FuncOp) or not func_op.body.blocks:
        return
    block = func_op.body.blocks[0]
    changed = False
    for index, arg in enumerate(list(block.args)):
        ty = arg.type
        if not isinstance(ty, TensorType) or not _has_encoding(ty):
            continue
        new_type = _materialized_type(conversion, func_op, ty)
        new_arg = block.insert_arg(new_type, index)
        new_arg.name_hint = arg.name_hint
        new_arg.location = arg.location  # MLIR's signature conversion keeps the argument's location
        cast = UnrealizedConversionCastOp.get([new_arg], [ty])
        cast.attributes[_CAST_MARK] = NoneAttr()
        cast.location = func_op.location
        first = block.first_op
        if first is None:
            block.add_op(cast)
        else:
            block.insert_op_before(cast, first)
        arg.replace_all_uses_with(cast.results[0])
        block.erase_arg(arg)
        if DYNAMIC_INDEX not in ty.get_shape():
            conversion.record(new_arg, list(ty.get_shape()), list(new_type.get_shape()))
        changed = True
    if changed:
        _update_function_type(func_op)


def _update_function_type(func_op: func.FuncOp) -> None:
    returns = [op for op in func_op.walk() if isinstance(op, func.ReturnOp) and op.parent_op() is func_op]
    outputs = [v.type for v in returns[0].operands] if returns else list(func_op.function_type.outputs.data)
    func_op.function_type = FunctionType.from_lists([a.type for a in func_op.body.blocks[0].args], outputs)


class MaterializeFuncReturnOp(_ConversionPattern):
    """`func.return` of encoded tensors returns their materialized values; the function's type follows."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter) -> None:
        if not any(_has_encoding(v.type) for v in op.operands):
            return
        parent = op.parent_op()
        if not isinstance(parent, func.FuncOp):
            return
        for value in op.operands:
            if _has_encoding(value.type):
                _materialized_type(self.c, parent, value.type)  # refuses a padding layout
        new = func.ReturnOp(*[self.c.remapped(op, v) for v in op.operands])
        new.location = op.location
        rewriter.replace(op, new)
        _update_function_type(parent)


def _finish(func_op: Operation) -> None:
    """Drop the bridging casts; one still in use means a user was not materialized."""
    for op in list(func_op.walk()):
        if isinstance(op, UnrealizedConversionCastOp) and _CAST_MARK in op.attributes:
            if op.results[0].uses:
                user = next(iter(op.results[0].uses)).operation
                raise OpError(user, "cannot be materialized: no pattern converts this op on encoded tensors")
    for op in reversed(list(func_op.walk())):
        if isinstance(op, UnrealizedConversionCastOp) and _CAST_MARK in op.attributes:
            op.detach()
            op.erase()


class FoldFillWithTensorReshape(RewritePattern):
    """`expand_shape(linalg.fill(v, init))` -> `linalg.fill(v, expand_shape(init))` (MLIR's fill
    canonicalization, which IREE's materialization runs after the conversion): a matvec's or
    vecmat's init is then filled as the 4-D mmt4d tile it is read as."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        fill = op.src.owner  # type: ignore[attr-defined]
        if not isinstance(fill, linalg.FillOp) or len(fill.outputs) != 1:
            return
        init = tensor.ExpandShapeOp(
            fill.outputs[0], op.get_reassociation_indices(), op.get_mixed_output_shape(), op.result.type
        )
        init.location = fill.location
        rewriter.insert(init, InsertPoint.before(op))
        new = linalg.FillOp([fill.inputs[0]], [init.result], [op.result.type])
        new.location = op.location
        rewriter.replace(op, new)
        if not fill.results[0].uses:
            rewriter.erase(fill)


class FoldEmptyTensorWithReshapeOp(RewritePattern):
    """`expand_shape(tensor.empty)` -> `tensor.empty` of the expanded shape (MLIR's
    populateFoldTensorEmptyPatterns; the sizes are the reshape's output shape)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        empty = op.src.owner  # type: ignore[attr-defined]
        if not isinstance(empty, tensor.EmptyOp):
            return
        sizes = op.get_mixed_output_shape()
        new = tensor.EmptyOp([s for s in sizes if isinstance(s, SSAValue)], op.result.type)
        new.location = op.location
        rewriter.replace(op, new)
        if not empty.results[0].uses:
            rewriter.erase(empty)


def _static_binding(value: SSAValue) -> hal.InterfaceBindingSubspanOp | None:
    """The `hal.interface.binding.subspan` defining `value`, when its tensor is static."""
    subspan = value.owner
    if not isinstance(subspan, hal.InterfaceBindingSubspanOp) or subspan.dynamic_dims:
        return None
    return subspan


def _rebound(subspan: hal.InterfaceBindingSubspanOp, bound: TensorType, rewriter: PatternRewriter) -> SSAValue:
    """A new subspan of the same binding and offset, holding `bound` (static) instead."""
    ty = subspan.result.type
    assert isinstance(ty, iree_tensor_ext.DispatchTensorTypeBase)
    new = type(subspan).create(
        operands=list(subspan.operands),
        result_types=[type(ty)(ty.access_mode, bound)],
        properties=dict(subspan.properties),
        attributes=dict(subspan.attributes),
    )
    new.location = subspan.location
    rewriter.insert(new, InsertPoint.before(subspan))
    return new.results[0]


def _whole(op: Operation, shape: Sequence[int]) -> bool:
    offsets, sizes, strides = op.get_mixed_offsets(), op.get_mixed_sizes(), op.get_mixed_strides()  # type: ignore[attr-defined]
    return all(o == 0 for o in offsets) and all(t == 1 for t in strides) and list(sizes) == list(shape)


class FoldExpandShapeIntoInterfaceTensorLoad(RewritePattern):
    """`expand_shape(dispatch.tensor.load(binding))` of a whole static binding -> a load of the binding
    viewed with the expanded type (IREE's reshape-to-interface pattern; static shapes only here)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter) -> None:
        load = op.src.owner  # type: ignore[attr-defined]
        if not isinstance(load, iree_tensor_ext.DispatchTensorLoadOpBase):
            return
        subspan = _static_binding(load.source)
        result = op.result.type
        if subspan is None or DYNAMIC_INDEX in result.get_shape():  # type: ignore[attr-defined]
            return
        if not _whole(load, subspan.result.type.bound_type.get_shape()):  # type: ignore[attr-defined]
            return
        uses = list(op.result.uses)
        if len(uses) == 1 and isinstance(uses[0].operation, iree_tensor_ext.DispatchTensorStoreOpBase):
            store = uses[0].operation
            if _static_binding(store.target) is not None and _whole(store, store.target.type.bound_type.get_shape()):  # type: ignore[attr-defined]
                return  # IREE folds it into the store instead
        binding = _rebound(subspan, result, rewriter)  # type: ignore[arg-type]
        new = type(load)(result, binding)
        new.location = op.location
        rewriter.replace(op, new)
        for dead in (load, subspan):
            if all(not r.uses for r in dead.results):
                rewriter.erase(dead)


class FoldCollapseShapeIntoInterfaceTensorStoreFullSlice(RewritePattern):
    """`dispatch.tensor.store(collapse_shape(v), binding)` of a whole static binding -> a store of `v`
    into the binding viewed with `v`'s type (IREE's reshape-to-interface pattern; static shapes only)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: iree_tensor_ext.DispatchTensorStoreOpBase, rewriter: PatternRewriter) -> None:
        collapse = op.value.owner
        if not isinstance(collapse, tensor.CollapseShapeOp):
            return
        subspan = _static_binding(op.target)
        source = collapse.src.type
        if subspan is None or not isinstance(source, TensorType) or DYNAMIC_INDEX in source.get_shape():
            return
        if not _whole(op, subspan.result.type.bound_type.get_shape()):  # type: ignore[attr-defined]
            return
        binding = _rebound(subspan, source, rewriter)
        new = type(op)(collapse.src, binding)
        new.location = op.location
        rewriter.replace(op, new)
        for dead in (collapse, subspan):
            if all(not r.uses for r in dead.results):
                rewriter.erase(dead)


def _decompose_mismatched_load_stores(conversion: _Conversion, func_op: Operation) -> None:
    """IREE's first phase: loads and stores whose tensor and binding materialize to different
    layouts become a load/store of the binding's type plus unset/set_encoding (a relayout)."""
    from mini_iree.compiler.materialize_encoding.dispatch_tensor import (
        DecomposeMismatchEncodingTensorLoadOp,
        DecomposeMismatchEncodingTensorStoreOp,
    )

    with _cannot_materialize(func_op):
        SelectivePatternRewriteWalker(
            GreedyRewritePatternApplier(
                [DecomposeMismatchEncodingTensorLoadOp(conversion), DecomposeMismatchEncodingTensorStoreOp(conversion)]
            ),
            apply_recursively=False,
        ).rewrite_module(func_op)  # type: ignore[arg-type]


def materialize_function(func_op: Operation, layouts: LayoutSource) -> None:
    """Materialize the encodings of one function with the layouts ``layouts`` gives (the pass, per function)."""
    from mini_iree.compiler.materialize_encoding.convolution import materialize_convolution_pattern

    conversion = _Conversion(layouts, func_op)
    _decompose_mismatched_load_stores(conversion, func_op)
    _convert_signature(conversion, func_op)
    patterns = [
        MaterializeInterfaceBindingEncoding(conversion),
        MaterializeTensorExtDispatchTensorLoadOp(conversion),
        MaterializeTensorExtDispatchTensorStoreOp(conversion),
        SetEncodingOpLoweringConversion(conversion),
        UnsetEncodingOpLoweringConversion(conversion),
        MaterializeTensorEmptyOp(conversion),
        MaterializeFillOp(conversion),
        materialize_convolution_pattern(conversion),
        MaterializeContractionOp(conversion),
        MaterializeGenericOp(conversion),
        MaterializeFuncReturnOp(conversion),
    ]
    SelectivePatternRewriteWalker(
        GreedyRewritePatternApplier(patterns), apply_recursively=False, walk_regions_first=False
    ).rewrite_module(func_op)  # type: ignore[arg-type]
    _finish(func_op)
    for op in reversed(conversion.size_ops):
        if op.parent is not None and all(r.first_use is None for r in op.results):
            op.detach()
            op.erase()
    # IREE's clean-up after the conversion: its greedy folding places the
    # constants at the top of the function (dumps 18/19), and the packed
    # sizes each op asked for (`affine.apply ceildiv`, `tensor.empty`) are
    # computed once.
    # IREE then folds reshapes into the fills and empties they reshape, and into the
    # loads and stores of whole bindings.
    SelectivePatternRewriteWalker(
        GreedyRewritePatternApplier(
            [
                FoldFillWithTensorReshape(),
                FoldEmptyTensorWithReshapeOp(),
                FoldExpandShapeIntoInterfaceTensorLoad(),
                FoldCollapseShapeIntoInterfaceTensorStoreFullSlice(),
            ]
        ),
        apply_recursively=True,
    ).rewrite_module(func_op)  # type: ignore[arg-type]
    hoist_and_unique_constants(func_op)
    cse(func_op)
