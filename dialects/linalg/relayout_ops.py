"""The relayout ops at the heart of data tiling: `linalg.pack` and `linalg.unpack`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import cast

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IndexType, TensorType, i64
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
    split_dynamic_index_list,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.syntax import (
    apply_permutation,
    constant_int,
    i64_array,
    invert_permutation,
    parse_dense_i64_array,
    quoted_type,
)

# ---------------------------------------------------------------------------------------
# Relayout: pack / unpack
# ---------------------------------------------------------------------------------------


def packed_shape(
    shape: Sequence[int | None],
    inner_dims_pos: Sequence[int],
    inner_tiles: Sequence[int | None],
    outer_dims_perm: Sequence[int] = (),
) -> tuple[int | None, ...]:
    """`linalg.pack`'s result (MLIR's `PackOp::inferPackedShape`), `None` for a dynamic size.

    Each tiled dim becomes `ceil(size / tile)` (dynamic if either is), the outer
    dims are put in `outer_dims_perm` order, and the tiles follow them. The
    layout algebra (compiler/layout/shapes) packs with this same formula, so the
    verifier and every pass agree.
    """
    outer = list(shape)
    for dim, tile in zip(inner_dims_pos, inner_tiles, strict=True):
        size = shape[dim]
        outer[dim] = None if size is None or tile is None else -(-size // tile)
    order = outer_dims_perm or range(len(shape))
    return tuple(outer[p] for p in order) + tuple(inner_tiles)


def infer_packed_shape(
    unpacked_shape: Sequence[int],
    inner_tiles: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int] = (),
) -> list[int]:
    """`packed_shape` with dynamic sizes and tiles as `DYNAMIC_INDEX`, as types hold them."""
    shape = tuple(None if size == DYNAMIC_INDEX else size for size in unpacked_shape)
    tiles = tuple(None if tile == DYNAMIC_INDEX else tile for tile in inner_tiles)
    return [DYNAMIC_INDEX if size is None else size for size in packed_shape(shape, inner_dims_pos, tiles, outer_dims_perm)]


def infer_packed_type(
    unpacked_type: TensorType[Attribute],
    inner_tiles: Sequence[int],
    inner_dims_pos: Sequence[int],
    outer_dims_perm: Sequence[int] = (),
) -> TensorType[Attribute]:
    """The tensor type `linalg.pack` produces from `unpacked_type`.

    The encoding is dropped, as in MLIR's `PackOp::inferPackedTensorType`.
    """
    shape = infer_packed_shape(unpacked_type.get_shape(), inner_tiles, inner_dims_pos, outer_dims_perm)
    return TensorType(unpacked_type.get_element_type(), shape)


def _is_invalid_packing_pos_spec(dims: Sequence[int], rank: int) -> bool:
    """Duplicates, out-of-range entries, or more entries than the rank."""
    if len(dims) > rank or len(set(dims)) != len(dims):
        return True
    return any(d < 0 or d >= rank for d in dims)


class _RelayoutOp(IRDLOperation, ABC):
    """What `linalg.pack` and `linalg.unpack` share: tiles, permutations, verifier."""

    outer_dims_perm = opt_prop_def(DenseArrayBase.constr(i64))
    inner_dims_pos = prop_def(DenseArrayBase.constr(i64))
    static_inner_tiles = prop_def(DenseArrayBase.constr(i64))

    traits = traits_def(Pure())

    @property
    def _source(self) -> SSAValue:
        return self.operands[0]

    @property
    def _dest(self) -> SSAValue:
        return self.operands[1]

    @abstractmethod
    def _dynamic_tiles(self) -> Sequence[SSAValue]: ...

    @abstractmethod
    def _unpacked_type(self) -> TensorType[Attribute]: ...

    @abstractmethod
    def _packed_type(self) -> TensorType[Attribute]: ...

    def get_outer_dims_perm(self) -> tuple[int, ...]:
        """The outer permutation, empty when the op has none."""
        return () if self.outer_dims_perm is None else self.outer_dims_perm.get_values()

    def get_inner_dims_pos(self) -> tuple[int, ...]:
        return self.inner_dims_pos.get_values()

    def get_static_tiles(self) -> tuple[int, ...]:
        """The tile sizes, `DYNAMIC_INDEX` where a tile is an SSA value."""
        return self.static_inner_tiles.get_values()

    def get_mixed_tiles(self) -> list[int | SSAValue]:
        """The tile sizes, each an `int` or the SSA value giving it."""
        dynamic = iter(self._dynamic_tiles())
        return [next(dynamic) if t == DYNAMIC_INDEX else t for t in self.get_static_tiles()]

    def get_dim_and_tile_mapping(self) -> dict[int, int | SSAValue]:
        """Unpacked dimension -> its tile size."""
        return dict(zip(self.get_inner_dims_pos(), self.get_mixed_tiles()))

    def _verify_common(self) -> None:
        """MLIR's `commonVerifierPackAndUnPackOp`, after the result/dest type tie."""
        if self.results[0].type != self._dest.type:
            raise VerifyException("failed to verify that result type matches type of dest")
        num_dynamic = sum(1 for t in self.get_static_tiles() if t == DYNAMIC_INDEX)
        if num_dynamic != len(self._dynamic_tiles()):
            raise VerifyException(
                f"expected {num_dynamic} dynamic inner_tiles values, got {len(self._dynamic_tiles())}"
            )
        mixed_tiles = self.get_mixed_tiles()
        if any(constant_int(t) == 0 for t in mixed_tiles):
            raise VerifyException("invalid zero tile factor")

        unpacked_type = self._unpacked_type()
        unpacked_rank = unpacked_type.get_num_dims()
        inner_dims_pos = self.get_inner_dims_pos()
        outer_dims_perm = self.get_outer_dims_perm()
        if _is_invalid_packing_pos_spec(inner_dims_pos, unpacked_rank):
            raise VerifyException("invalid inner_dims_pos vector")
        if _is_invalid_packing_pos_spec(outer_dims_perm, unpacked_rank):
            raise VerifyException("invalid outer_dims_perm vector")
        if outer_dims_perm and len(outer_dims_perm) != unpacked_rank:
            raise VerifyException("outer_dims_perm must be a permutation or empty")
        if len(mixed_tiles) > unpacked_rank:
            raise VerifyException(
                "tiling factors must be less than or equal to the input rank for pack or output rank for unpack"
            )
        if len(mixed_tiles) != len(inner_dims_pos):
            raise VerifyException("tiling factors must equal the number of dimensions to tile")

        packed_type = self._packed_type()
        packed_shape = packed_type.get_shape()
        expected_rank = unpacked_rank + len(mixed_tiles)
        if len(packed_shape) != expected_rank:
            raise VerifyException(
                f"packed rank != (unpacked rank + num tiling factors), got {len(packed_shape)} != {expected_rank}"
            )

        expected_shape = infer_packed_shape(
            unpacked_type.get_shape(), self.get_static_tiles(), inner_dims_pos, outer_dims_perm
        )
        # A static tile must be the static size of its packed dimension; an SSA
        # tile needs a dynamic one.
        tile_dims = packed_shape[len(packed_shape) - len(mixed_tiles) :]
        for size, tile in zip(tile_dims, mixed_tiles):
            if (size != tile) if isinstance(tile, int) else (size != DYNAMIC_INDEX):
                raise VerifyException(
                    "mismatch in inner tile sizes specified and shaped of tiled dimension in the packed type"
                )
        if any(a != b and DYNAMIC_INDEX not in (a, b) for a, b in zip(expected_shape, packed_shape)):
            element_type = unpacked_type.get_element_type()
            expected = TensorType(element_type, expected_shape)
            actual = TensorType(element_type, packed_shape)
            raise VerifyException(
                f"expected {quoted_type(expected)} for the packed domain value, got {quoted_type(actual)}"
            )

    # Syntax: `[outer_dims_perm = [..]] inner_dims_pos = [..] inner_tiles = [..] into %dest`

    @staticmethod
    def _parse_layout(
        parser: Parser,
    ) -> tuple[list[int] | None, list[int], Sequence[UnresolvedOperand], Sequence[int], UnresolvedOperand]:
        outer_dims_perm = None
        if parser.parse_optional_keyword("outer_dims_perm") is not None:
            parser.parse_punctuation("=")
            outer_dims_perm = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_integer)
        inner_dims_pos = parse_dense_i64_array(parser, "inner_dims_pos")
        parser.parse_keyword("inner_tiles")
        parser.parse_punctuation("=")
        dynamic_tiles, static_tiles = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        parser.parse_keyword("into")
        dest = parser.parse_unresolved_operand()
        return outer_dims_perm, inner_dims_pos, dynamic_tiles, static_tiles, dest

    @staticmethod
    def _parse_types(parser: Parser) -> tuple[Attribute, Attribute]:
        parser.parse_punctuation(":")
        source_type = parser.parse_type()
        if parser.parse_optional_punctuation("->") is None:
            parser.raise_error("pack/unpack requires '->' and destination type")
        return source_type, parser.parse_type()

    def _print_layout_and_types(self, printer: Printer) -> None:
        if outer_dims_perm := self.get_outer_dims_perm():
            printer.print_string(f" outer_dims_perm = [{', '.join(map(str, outer_dims_perm))}]")
        printer.print_string(f" inner_dims_pos = [{', '.join(map(str, self.get_inner_dims_pos()))}]")
        printer.print_string(" inner_tiles = ")
        print_dynamic_index_list(printer, DYNAMIC_INDEX, self._dynamic_tiles(), self.get_static_tiles())
        printer.print_string(" into ")
        printer.print_operand(self._dest)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self._source.type)
        printer.print_string(" -> ")
        printer.print_attribute(self._dest.type)


def _relayout_properties(
    inner_dims_pos: Sequence[int],
    inner_tiles: Sequence[int | SSAValue],
    outer_dims_perm: Sequence[int] | None,
) -> tuple[dict[str, Attribute | None], list[SSAValue]]:
    static_tiles, dynamic_tiles = split_dynamic_index_list(inner_tiles, DYNAMIC_INDEX)
    properties: dict[str, Attribute | None] = {
        "inner_dims_pos": i64_array(inner_dims_pos),
        "static_inner_tiles": i64_array(static_tiles),
        "outer_dims_perm": i64_array(outer_dims_perm) if outer_dims_perm else None,
    }
    return properties, dynamic_tiles


@irdl_op_definition
class PackOp(_RelayoutOp):
    """Tile a tensor into a higher-rank packed layout, padding partial tiles.

    Source dimension `inner_dims_pos[i]` is tiled by `inner_tiles[i]`; the tile
    dimensions are appended in that order, and the outer dimensions are then
    permuted by `outer_dims_perm`. Partial tiles are filled with
    `padding_value`; without one they are undefined behavior, rejected when
    the shapes show it statically.

    ```mlir
    %pack = linalg.pack %src padding_value(%cst : f32) outer_dims_perm = [0, 1]
        inner_dims_pos = [0, 1] inner_tiles = [128, 16]
        into %dest : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgpack-linalgpackop.
    """

    name = "linalg.pack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    padding_value = opt_operand_def()
    inner_tiles = var_operand_def(IndexType)
    result = result_def(TensorType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%pack`, `%pack_0`...)."""
        return ["pack"]

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        inner_dims_pos: Sequence[int],
        inner_tiles: Sequence[int | SSAValue],
        padding_value: SSAValue | Operation | None = None,
        outer_dims_perm: Sequence[int] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        properties, dynamic_tiles = _relayout_properties(inner_dims_pos, inner_tiles, outer_dims_perm)
        dest = SSAValue.get(dest)
        super().__init__(
            operands=[source, dest, [] if padding_value is None else [padding_value], dynamic_tiles],
            result_types=[dest.type],
            properties=properties,
            attributes=attributes,
        )

    def _dynamic_tiles(self) -> Sequence[SSAValue]:
        return self.inner_tiles

    def _unpacked_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.source.type)

    def _packed_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.dest.type)

    def require_padding_value(self) -> bool:
        """True when the shapes show a partial tile, which needs `padding_value`.

        MLIR's `PackOp::requirePaddingValue`: a static source dimension that a
        constant tile does not divide, or (for an SSA tile) that its static
        outer size does not divide.
        """
        source_shape = self.source.type.get_shape()
        outer_sizes = list(self.dest.type.get_shape()[: len(source_shape)])
        if perm := self.get_outer_dims_perm():
            outer_sizes = apply_permutation(outer_sizes, invert_permutation(perm))
        for pos, tile in zip(self.get_inner_dims_pos(), self.get_mixed_tiles()):
            size = source_shape[pos]
            if size == DYNAMIC_INDEX:
                continue
            constant = constant_int(tile)
            if constant is None:
                outer = outer_sizes[pos]
                if outer not in (DYNAMIC_INDEX, 0) and size % outer != 0:
                    return True
            elif size % constant != 0:
                return True
        return False

    def verify_(self) -> None:
        self._verify_common()
        source_element = self.source.type.get_element_type()
        if self.padding_value is not None and self.padding_value.type != source_element:
            raise VerifyException(
                f"expected padding_value has {quoted_type(source_element)} but got: {quoted_type(self.padding_value.type)}"
            )
        if self.padding_value is None and self.require_padding_value():
            raise VerifyException(
                "invalid tile factor or output size provided. Only full tiles are "
                "supported when padding_value is not set"
            )

    @classmethod
    def parse(cls, parser: Parser) -> PackOp:
        source = parser.parse_unresolved_operand()
        padding = None
        if parser.parse_optional_keyword("padding_value") is not None:
            parser.parse_punctuation("(")
            padding_name = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            padding = parser.resolve_operand(padding_name, parser.parse_type())
            parser.parse_punctuation(")")
        outer, inner_pos, dynamic_names, static_tiles, dest = cls._parse_layout(parser)
        attributes = parser.parse_optional_attr_dict()
        source_type, dest_type = cls._parse_types(parser)
        dynamic_tiles = [parser.resolve_operand(t, IndexType()) for t in dynamic_names]
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(dest, dest_type),
                [] if padding is None else [padding],
                dynamic_tiles,
            ],
            result_types=[dest_type],
            properties={
                "inner_dims_pos": i64_array(inner_pos),
                "static_inner_tiles": i64_array(static_tiles),
                **({} if outer is None else {"outer_dims_perm": i64_array(outer)}),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        if self.padding_value is not None:
            printer.print_string(" padding_value(")
            printer.print_operand(self.padding_value)
            printer.print_string(" : ")
            printer.print_attribute(self.padding_value.type)
            printer.print_string(")")
        self._print_layout_and_types(printer)


@irdl_op_definition
class UnPackOp(_RelayoutOp):
    """The inverse of `linalg.pack`: gather tiles back, dropping the padding.

    `inner_dims_pos` and `outer_dims_perm` are read as in the `linalg.pack`
    that produced the source; the destination may be smaller than the tiles
    cover, and the elements beyond it are discarded.

    ```mlir
    %unpack = linalg.unpack %src outer_dims_perm = [0, 1] inner_dims_pos = [0, 1]
        inner_tiles = [128, 128] into %dest : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgunpack-linalgunpackop.
    """

    name = "linalg.unpack"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    inner_tiles = var_operand_def(IndexType)
    result = result_def(TensorType)

    def asm_result_names(self) -> list[str]:
        """The result name MLIR's OpAsmOpInterface gives (`%unpack`, `%unpack_0`...)."""
        return ["unpack"]

    def __init__(
        self,
        source: SSAValue | Operation,
        dest: SSAValue | Operation,
        inner_dims_pos: Sequence[int],
        inner_tiles: Sequence[int | SSAValue],
        outer_dims_perm: Sequence[int] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        properties, dynamic_tiles = _relayout_properties(inner_dims_pos, inner_tiles, outer_dims_perm)
        dest = SSAValue.get(dest)
        super().__init__(
            operands=[source, dest, dynamic_tiles],
            result_types=[dest.type],
            properties=properties,
            attributes=attributes,
        )

    def _dynamic_tiles(self) -> Sequence[SSAValue]:
        return self.inner_tiles

    def _unpacked_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.dest.type)

    def _packed_type(self) -> TensorType[Attribute]:
        return cast(TensorType[Attribute], self.source.type)

    def verify_(self) -> None:
        self._verify_common()

    @classmethod
    def parse(cls, parser: Parser) -> UnPackOp:
        source = parser.parse_unresolved_operand()
        outer, inner_pos, dynamic_names, static_tiles, dest = cls._parse_layout(parser)
        attributes = parser.parse_optional_attr_dict()
        source_type, dest_type = cls._parse_types(parser)
        dynamic_tiles = [parser.resolve_operand(t, IndexType()) for t in dynamic_names]
        return cls.build(
            operands=[
                parser.resolve_operand(source, source_type),
                parser.resolve_operand(dest, dest_type),
                dynamic_tiles,
            ],
            result_types=[dest_type],
            properties={
                "inner_dims_pos": i64_array(inner_pos),
                "static_inner_tiles": i64_array(static_tiles),
                **({} if outer is None else {"outer_dims_perm": i64_array(outer)}),
            },
            attributes=attributes,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        self._print_layout_and_types(printer)


