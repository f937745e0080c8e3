"""The contractions: `linalg.matmul`, `batch_matmul`, `matvec`, `vecmat`, `batch_matvec`,
`batch_vecmat`, `mmt4d` and `batch_mmt4d`."""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from typing import ClassVar, cast

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, TensorType
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.bodies import build_multiply_accumulate_region, create_named_op, hidden_body
from mini_iree.dialects.linalg.syntax import (
    is_function_of_dim,
    parse_ins_outs,
    parse_optional_arrow_type_list,
    print_ins_outs,
    print_optional_arrow_type_list,
)
from mini_iree.dialects.linalg.verifiers import verify_structured_op
from mini_iree.dialects.support import canonical, operand_groups
from mini_iree.dialects.traits import VerifierReadsOnlyItself

# ---------------------------------------------------------------------------------------
# Contractions
# ---------------------------------------------------------------------------------------


def _maps(num_dims: int, *results: Sequence[int]) -> tuple[AffineMap, ...]:
    return tuple(AffineMap(num_dims, 0, tuple(AffineExpr.dimension(d) for d in r)) for r in results)


_P = IteratorType.PARALLEL
_R = IteratorType.REDUCTION


# The iterator types of each contraction class, as an attribute (built once).
_ITERATOR_TYPES: dict[type, ArrayAttr[IteratorTypeAttr]] = {}

# ContractionOp._verification_key of each contraction that verified (types and
# attributes are immutable, so the same objects verify the same way again).
_VERIFIED_CONTRACTIONS: dict[tuple[int, ...], list[object]] = {}
_VERIFIED_CONTRACTIONS_LIMIT = 4096


class ContractionOp(NamedOperation, ABC):
    """Base of the named contractions: `ins(lhs, rhs) outs(acc)` with a hidden
    multiply-accumulate body.

    Passes ask any contraction for its iteration space with
    `get_indexing_maps()` / `get_indexing_maps_array()` and
    `get_iterator_types()`; ops that accept `indexing_maps = [...]` return the
    user's maps, the others their fixed defaults.

    Derives from xDSL's `NamedOperation` so that xDSL's structured-op utilities
    (and `linalg-generalize-named-ops`) see these ops as named linalg ops.
    """

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]]
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]]

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        outputs: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute] | None = None,
        *,
        properties: Mapping[str, Attribute | None] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
    ):
        ins = [SSAValue.get(v) for v in inputs]
        outs = [SSAValue.get(v) for v in outputs]
        if result_types is None:
            result_types = [o.type for o in outs if isinstance(o.type, TensorType)]
        IRDLOperation.__init__(
            self,
            operands=[ins, outs],
            result_types=[result_types],
            properties=properties,
            attributes=attributes,
            regions=[self.get_hidden_region(ins, outs)],
        )

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        types = [v.type for v in (*inputs, *outputs)]
        return hidden_body((ContractionOp, *types), lambda: build_multiply_accumulate_region(types))

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.DEFAULT_INDEXING_MAPS

    def get_indexing_maps_array(self) -> list[AffineMap]:
        """The indexing maps of lhs, rhs and acc, as plain `AffineMap`s."""
        return [m.data for m in self.get_indexing_maps()]

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        known = _ITERATOR_TYPES.get(type(self))
        if known is None:
            known = _ITERATOR_TYPES[type(self)] = ArrayAttr(IteratorTypeAttr(t) for t in self.ITERATOR_TYPES)
        return known

    # Syntax shared by every named structured op.

    @classmethod
    def _parse_indexing_maps(cls, parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
        return None

    def _print_indexing_maps(self, printer: Printer) -> None:
        return None

    @classmethod
    def parse(cls, parser: Parser) -> ContractionOp:
        indexing_maps = cls._parse_indexing_maps(parser)
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        inputs, outputs = parse_ins_outs(parser)
        result_types = parse_optional_arrow_type_list(parser)
        try:
            region = cls.get_hidden_region(inputs, outputs)
        except ValueError as error:
            parser.raise_error(str(error), pos)
        properties: dict[str, Attribute] = {}
        if indexing_maps is not None:
            properties["indexing_maps"] = indexing_maps
        return create_named_op(cls, inputs, outputs, result_types, properties, attributes, region)  # type: ignore[return-value]

    def print(self, printer: Printer) -> None:
        # Both groups at once: each accessor decodes the segment sizes again.
        inputs, outputs = operand_groups(self)
        self._print_indexing_maps(printer)
        printer.print_op_attributes(self.attributes)
        print_ins_outs(printer, inputs, outputs)
        print_optional_arrow_type_list(printer, self.res.types)

    def verify_contraction_maps(self) -> None:
        """Op-specific checks of user-provided indexing maps (MLIR's `verify()`)."""

    def verify_(self) -> None:
        # Ops of a program share a few signatures, and verify-each asks again
        # after every pass: a signature that verified once verifies again.
        key = self._verification_key()
        if key is not None and key[0] in _VERIFIED_CONTRACTIONS:
            return
        self.verify_contraction_maps()
        verify_structured_op(
            self.inputs,
            self.outputs,
            self.res,
            self.body,
            self.get_indexing_maps_array(),
            len(self.ITERATOR_TYPES),
        )
        if key is not None:
            if len(_VERIFIED_CONTRACTIONS) >= _VERIFIED_CONTRACTIONS_LIMIT:
                _VERIFIED_CONTRACTIONS.clear()
            _VERIFIED_CONTRACTIONS[key[0]] = key[1]

    def _verification_key(self) -> tuple[tuple[int, ...], list[object]] | None:
        """Everything ``verify_`` reads, as ids of canonical objects (see
        ``support.canonical``), and those objects (kept alive with the ids,
        so that no other object takes an id meanwhile).

        The class, the properties (the maps, and the operand segment sizes
        giving the input count), the operand and result types, the body's
        block arguments and its terminator's kind and operand types. None when
        the body is not one block (never cached).
        """
        block = self.body.blocks.first
        if block is None or block.next_block is not None:
            return None
        terminator = block.last_op
        objects: list[object] = [type(self), type(terminator)]
        for name, value in self.properties.items():
            objects += (name, value)
        objects += [v.type for v in self.operands]
        objects.append(None)
        objects += [v.type for v in self.results]
        objects.append(None)
        objects += [a.type for a in block.args]
        objects.append(None)
        if terminator is not None:
            objects += [v.type for v in terminator.operands]
        # Equal types built by different passes share one key.
        objects = [canonical(o) for o in objects]
        return tuple(map(id, objects)), objects


# The default indexing maps of each contraction class, as an attribute.
_DEFAULT_MAPS: dict[type, ArrayAttr[AffineMapAttr]] = {}


class _UserMapsContractionOp(ContractionOp, ABC):
    """A contraction whose maps may be given as `indexing_maps = [...]`.

    The `indexing_maps` property is only set when the maps differ from the
    op's defaults; `get_indexing_maps()` fills the defaults in. (MLIR always
    stores them, but an unprinted property would still get a `#map` alias line
    from our printer, which collects aliases from the IR rather than from the
    printed text.)
    """

    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])

    def __init__(
        self,
        inputs: Sequence[SSAValue | Operation],
        outputs: Sequence[SSAValue | Operation],
        result_types: Sequence[Attribute] | None = None,
        *,
        indexing_maps: Sequence[AffineMap] | ArrayAttr[AffineMapAttr] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
    ):
        if indexing_maps is not None and not isinstance(indexing_maps, ArrayAttr):
            indexing_maps = ArrayAttr(AffineMapAttr(m) for m in indexing_maps)
        super().__init__(
            inputs,
            outputs,
            result_types,
            properties={"indexing_maps": self._non_default(indexing_maps)},
            attributes=attributes,
        )

    @classmethod
    def _non_default(cls, maps: ArrayAttr[AffineMapAttr] | None) -> ArrayAttr[AffineMapAttr] | None:
        if maps is None or tuple(m.data for m in maps) == cls.DEFAULT_INDEXING_MAPS:
            return None
        return maps

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is None:
            # Attributes are immutable: every op of the class can share one.
            known = _DEFAULT_MAPS.get(type(self))
            if known is None:
                known = _DEFAULT_MAPS[type(self)] = ArrayAttr(AffineMapAttr(m) for m in self.DEFAULT_INDEXING_MAPS)
            return known
        return self.indexing_maps

    def get_indexing_maps_array(self) -> list[AffineMap]:
        # The defaults without building their attributes: the verifier asks for every op.
        if self.indexing_maps is None:
            return list(self.DEFAULT_INDEXING_MAPS)
        return [m.data for m in self.indexing_maps]

    def has_user_defined_maps(self) -> bool:
        return self.indexing_maps is not None and tuple(self.get_indexing_maps_array()) != self.DEFAULT_INDEXING_MAPS

    @classmethod
    def _parse_indexing_maps(cls, parser: Parser) -> ArrayAttr[AffineMapAttr] | None:
        if parser.parse_optional_keyword("indexing_maps") is None:
            return None
        parser.parse_punctuation("=")
        attr = parser.parse_attribute()
        if not isinstance(attr, ArrayAttr) or not all(
            isinstance(m, AffineMapAttr) for m in cast(ArrayAttr[Attribute], attr)
        ):
            parser.raise_error("element of indexing_maps array is not an affine_map")
        return cls._non_default(cast(ArrayAttr[AffineMapAttr], attr))

    def _print_indexing_maps(self, printer: Printer) -> None:
        if self.has_user_defined_maps():
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.get_indexing_maps())


@irdl_op_definition
class MatmulOp(_UserMapsContractionOp):
    """Matrix multiplication, with optional transposed or broadcast operands.

    `C[m, n] += cast(A[m, k]) * cast(B[k, n])`; inputs are sign-extended (or
    float-extended) to the accumulator's element type, so `i8 x i8 -> i32` and
    `f16 x f16 -> f32` are plain matmuls.

    Redefined rather than reused: xDSL's builds its hidden region with one
    element type for all operands, so mixed precision fails to verify, and it
    raises an `IndexError` on the `indexing_maps = [...]` form.

    ```mlir
    %0 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>)
                       outs(%c : tensor<?x?xi32>) -> tensor<?x?xi32>
    %1 = linalg.matmul indexing_maps = [#map, #map1, #map2]
                       ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>)
                       outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmatmul-linalgmatmulop.
    """

    name = "linalg.matmul"

    traits = traits_def(VerifierReadsOnlyItself(reads_entry_terminators=True))

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(3, (0, 2), (2, 1), (0, 1))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R)

    def verify_contraction_maps(self) -> None:
        maps = self.get_indexing_maps_array()
        if len(maps) != 3 or not self.has_user_defined_maps():
            return
        for op_map, default_map in zip(maps[:2], self.DEFAULT_INDEXING_MAPS):
            if not set(op_map.results) <= set(default_map.results):
                raise VerifyException("Unexpected dim expression in map result.")
            if len(op_map.results) < len(default_map.results):
                # A broadcast operand must still be indexed by the reduction dim.
                if len(op_map.results) != 1 or not is_function_of_dim(op_map.results[0], op_map.num_dims - 1):
                    raise VerifyException("Invalid broadcast requested, should be (d2).")


@irdl_op_definition
class BatchMatmulOp(_UserMapsContractionOp):
    """Batched matrix multiplication: `C[b, m, n] += cast(A[b, m, k]) * cast(B[b, k, n])`.

    ```mlir
    %0 = linalg.batch_matmul ins(%a, %b : tensor<2x?x?xf16>, tensor<2x?x?xf16>)
                             outs(%c : tensor<2x?x?xf32>) -> tensor<2x?x?xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_matmul-linalgbatchmatmulop.
    """

    name = "linalg.batch_matmul"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(4, (0, 1, 3), (0, 3, 2), (0, 1, 2))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _P, _R)

    @staticmethod
    def _is_valid_broadcast(bcast: AffineMap, is_lhs: bool) -> bool:
        batch, m, n, k = 0, 1, 2, 3
        results = bcast.results
        if len(results) == 1:
            return is_function_of_dim(results[0], k)
        if len(results) == 2:
            e0, e1 = results
            if is_lhs:
                return (is_function_of_dim(e0, batch) or is_function_of_dim(e0, m)) and is_function_of_dim(e1, k)
            return (is_function_of_dim(e0, batch) and is_function_of_dim(e1, k)) or (
                is_function_of_dim(e0, k) and is_function_of_dim(e1, n)
            )
        return False

    def verify_contraction_maps(self) -> None:
        if not self.has_user_defined_maps():
            return
        maps = self.get_indexing_maps_array()
        if len(maps) != 3:
            raise VerifyException("Indexing_map attribute must have 3 affine maps.")
        for index, (op_map, default_map) in enumerate(zip(maps, self.DEFAULT_INDEXING_MAPS)):
            if index == 2:
                if len(op_map.results) != 3:
                    raise VerifyException(f"expects 3 dims, but got ({len(op_map.results)}).")
                if not all(is_function_of_dim(e, d) for d, e in enumerate(op_map.results)):
                    raise VerifyException("Invalid output map result dimension.")
                continue
            if not set(op_map.results) <= set(default_map.results):
                raise VerifyException(
                    "Unexpected result dim expression (outside the set of default result dims)."
                )
            if len(op_map.results) > 3:
                raise VerifyException("no. of result dim expressions exceeds 3.")
            if len(op_map.results) < len(default_map.results):
                if not self._is_valid_broadcast(op_map, index == 0):
                    raise VerifyException("Invalid broadcast requested.")
            elif not is_function_of_dim(op_map.results[0], 0):
                raise VerifyException("Invalid batch dimension expression.")


@irdl_op_definition
class MatvecOp(ContractionOp):
    """Matrix-vector product: `x[m] += cast(A[m, n]) * cast(y[n])`.

    ```mlir
    %0 = linalg.matvec ins(%a, %y : tensor<4x8xf32>, tensor<8xf32>)
                       outs(%x : tensor<4xf32>) -> tensor<4xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmatvec-linalgmatvecop.
    """

    name = "linalg.matvec"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(2, (0, 1), (1,), (0,))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _R)


@irdl_op_definition
class VecmatOp(ContractionOp):
    """Vector-matrix product: `x[n] += cast(y[m]) * cast(A[m, n])`.

    ```mlir
    %0 = linalg.vecmat ins(%y, %a : tensor<4xf32>, tensor<4x8xf32>)
                       outs(%x : tensor<8xf32>) -> tensor<8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgvecmat-linalgvecmatop.
    """

    name = "linalg.vecmat"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(2, (1,), (1, 0), (0,))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _R)


@irdl_op_definition
class BatchMatvecOp(ContractionOp):
    """Batched matrix-vector product: `C[b, m] += cast(A[b, m, k]) * cast(B[b, k])`.

    ```mlir
    %0 = linalg.batch_matvec ins(%a, %y : tensor<2x4x8xf32>, tensor<2x8xf32>)
                             outs(%x : tensor<2x4xf32>) -> tensor<2x4xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_matvec-linalgbatchmatvecop.
    """

    name = "linalg.batch_matvec"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(3, (0, 1, 2), (0, 2), (0, 1))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R)


@irdl_op_definition
class BatchVecmatOp(ContractionOp):
    """Batched vector-matrix product: `C[b, n] += cast(A[b, k]) * cast(B[b, k, n])`.

    ```mlir
    %0 = linalg.batch_vecmat ins(%y, %a : tensor<2x4xf32>, tensor<2x4x8xf32>)
                             outs(%x : tensor<2x8xf32>) -> tensor<2x8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_vecmat-linalgbatchvecmatop.
    """

    name = "linalg.batch_vecmat"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(3, (0, 2), (0, 2, 1), (0, 1))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R)


@irdl_op_definition
class Mmt4DOp(ContractionOp):
    """Matmul on packed 4-D operands, the op data tiling lowers matmuls to.

    With loops `(m, n, k, m0, n0, k0)`:
    `acc[m, n, m0, n0] += cast(lhs[m, k, m0, k0]) * cast(rhs[n, k, n0, k0])`.
    The rhs is stored transposed (`N x K` tiles), so both inputs read their
    inner tiles along `k0`.

    ```mlir
    %0 = linalg.mmt4d ins(%lhs, %rhs : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>)
                      outs(%acc : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmmt4d-linalgmmt4dop.
    """

    name = "linalg.mmt4d"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(6, (0, 2, 3, 5), (1, 2, 4, 5), (0, 1, 3, 4))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _R, _P, _P, _R)


@irdl_op_definition
class BatchMmt4DOp(ContractionOp):
    """`linalg.mmt4d` with a leading batch dimension on all three operands.

    With loops `(b, m, n, k, m0, n0, k0)`:
    `acc[b, m, n, m0, n0] += cast(lhs[b, m, k, m0, k0]) * cast(rhs[b, n, k, n0, k0])`.

    ```mlir
    %0 = linalg.batch_mmt4d ins(%lhs, %rhs : tensor<2x?x?x8x1xf32>, tensor<2x?x?x8x1xf32>)
                            outs(%acc : tensor<2x?x?x8x8xf32>) -> tensor<2x?x?x8x8xf32>
    ```

    See https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_mmt4d-linalgbatchmmt4dop.
    """

    name = "linalg.batch_mmt4d"

    DEFAULT_INDEXING_MAPS: ClassVar[tuple[AffineMap, ...]] = _maps(7, (0, 1, 3, 4, 6), (0, 2, 3, 5, 6), (0, 1, 2, 4, 5))
    ITERATOR_TYPES: ClassVar[tuple[IteratorType, ...]] = (_P, _P, _P, _R, _P, _P, _R)


