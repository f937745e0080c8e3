"""Shared verification: MLIR's DestinationStyleOpInterface, IndexingMapOpInterface and
LinalgStructuredInterface verifiers."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ShapedType, TensorType
from xdsl.ir import Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.linalg.basic_ops import YieldOp
from mini_iree.dialects.linalg.syntax import element_type_or_self, quoted_type, shape_of

# ---------------------------------------------------------------------------------------
# Shared verification: MLIR's DestinationStyleOpInterface, IndexingMapOpInterface and
# LinalgStructuredInterface verifiers
# ---------------------------------------------------------------------------------------


def verify_destination_style(inits: Sequence[SSAValue], results: Sequence[SSAValue], first_init_index: int) -> None:
    """Each tensor init is tied to one result of the same type; memref inits to none."""
    tensor_inits: list[tuple[int, SSAValue]] = []
    for offset, init in enumerate(inits):
        if isinstance(init.type, TensorType):
            tensor_inits.append((first_init_index + offset, init))
        elif not isinstance(init.type, MemRefType):
            raise VerifyException(f"expected that operand #{first_init_index + offset} is a tensor or a memref")
    num_tensor_results = sum(1 for r in results if isinstance(r.type, TensorType))
    if num_tensor_results != len(tensor_inits):
        raise VerifyException(
            f"expected the number of tensor results ({num_tensor_results}) to be equal "
            f"to the number of output tensors ({len(tensor_inits)})"
        )
    for (index, init), result in zip(tensor_inits, results):
        if result.type != init.type:
            raise VerifyException(
                f"expected type of operand #{index} ({quoted_type(init.type)}) to match type of "
                f"corresponding result ({quoted_type(result.type)})"
            )


def _loops_to_shapes_map(maps: Sequence[AffineMap]) -> AffineMap:
    num_dims = max((m.num_dims for m in maps), default=0)
    return AffineMap(num_dims, 0, tuple(e for m in maps for e in m.results))


@functools.lru_cache(maxsize=256)
def _shapes_to_loops(maps: tuple[AffineMap, ...]) -> tuple[AffineMap, AffineMap | None]:
    # Every op of a kind has the same maps: invert them once.
    loops_to_shapes = _loops_to_shapes_map(maps)
    return loops_to_shapes, loops_to_shapes.inverse_permutation()


def verify_indexing_maps(operands: Sequence[SSAValue], maps: Sequence[AffineMap]) -> None:
    """MLIR's IndexingMapOpInterface verifier: maps agree with the operand shapes.

    The loop ranges are read off the operand shapes through the inverse of the
    concatenated maps; when all of them are static, every operand dimension is
    checked against the range its map reaches.
    """
    if len(maps) != len(operands):
        raise VerifyException(
            f"expected the number of indexing_map ({len(maps)}) to be equal to the "
            f"number of input/output operands ({len(operands)})"
        )
    for index, indexing_map in enumerate(maps):
        if indexing_map.num_symbols:
            raise VerifyException(f"unexpected symbols in indexing_map #{index}")
    loops_to_shapes, shapes_to_loops = _shapes_to_loops(tuple(maps))
    if shapes_to_loops is None:
        raise VerifyException(f"invalid indexing maps are non-invertible: ({loops_to_shapes})")

    num_loops = loops_to_shapes.num_dims
    for index, (operand, indexing_map) in enumerate(zip(operands, maps, strict=True)):
        if indexing_map.num_dims != num_loops:
            raise VerifyException(
                f"expected indexing_map #{index} to have {num_loops} dim(s) to match the number of loops"
            )
        rank = len(shape_of(operand.type))
        if len(indexing_map.results) != rank:
            raise VerifyException(
                f"expected operand rank ({rank}) to match the result rank of indexing_map "
                f"#{index} ({len(indexing_map.results)})"
            )

    all_sizes = [size for operand in operands for size in shape_of(operand.type)]
    loop_ranges = shapes_to_loops.eval(all_sizes, [])
    # A dynamic loop range makes every inferred size unknown: nothing to check.
    if any(r == DYNAMIC_INDEX for r in loop_ranges):
        return
    ends = [r - 1 for r in loop_ranges]
    starts = [0] * len(loop_ranges)
    for index, (operand, indexing_map) in enumerate(zip(operands, maps, strict=True)):
        first = indexing_map.eval(starts, [])
        last = indexing_map.eval(ends, [])
        for dim, size in enumerate(shape_of(operand.type)):
            if size == DYNAMIC_INDEX or size == 0:
                continue
            if min(first[dim], last[dim]) < 0:
                raise VerifyException(f"unexpected result less than 0 at expression #{dim} in {indexing_map}")
            inferred = max(first[dim], last[dim]) + 1
            if isinstance(indexing_map.results[dim], AffineDimExpr):
                if inferred != size:
                    raise VerifyException(
                        f"inferred input/output operand #{index} has shape's dimension #{dim} "
                        f"to be {inferred}, but found {size}"
                    )
            elif inferred > size:
                raise VerifyException(
                    f"inferred input/output operand #{index} has shape's dimension #{dim} "
                    f"to be greater than or equal to {inferred}, but found {size}"
                )


def _verify_yield(body: Region, outputs: Sequence[SSAValue]) -> None:
    """MLIR's `linalg.yield` verifier, run from the enclosing op."""
    block = body.blocks.first
    if block is None or not isinstance(terminator := block.last_op, YieldOp):
        return
    if len(terminator.operands) != len(outputs):
        raise VerifyException(
            f"expected number of yield values ({len(terminator.operands)}) to match the number "
            f"of inits / outs operands of the enclosing LinalgOp ({len(outputs)})"
        )
    for index, (value, output) in enumerate(zip(terminator.operands, outputs)):
        expected = element_type_or_self(output.type)
        if value.type != expected:
            raise VerifyException(
                f"type of yield operand {index + 1} ({quoted_type(value.type)}) doesn't match the "
                f"element type of the enclosing linalg.generic op ({quoted_type(expected)})"
            )


def verify_structured_op(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    results: Sequence[SSAValue],
    body: Region,
    maps: Sequence[AffineMap],
    num_loops: int,
) -> None:
    """Everything MLIR checks on any LinalgOp after its own verifier ran.

    In MLIR's order: the yield, destination-style ties between inits and
    results, pure tensor or buffer semantics, the indexing maps against the
    shapes, and the region's block arguments against the element types.
    """
    operands = [*inputs, *outputs]
    _verify_yield(body, outputs)
    verify_destination_style(outputs, results, len(inputs))
    shaped = [o.type for o in operands if isinstance(o.type, ShapedType)]
    if any(isinstance(t, TensorType) for t in shaped) and any(isinstance(t, MemRefType) for t in shaped):
        raise VerifyException("expected to have pure tensor or buffer semantics")
    verify_indexing_maps(operands, maps)
    for index, indexing_map in enumerate(maps):
        if indexing_map.num_dims != num_loops:
            raise VerifyException(
                f"expected indexing_map #{index} to have {num_loops} dim(s) to match the number of loops"
            )
    block = body.blocks.first
    if block is None or block.next_block is not None:
        raise VerifyException("expects to have 1 region with 1 block")
    if len(block.args) != len(operands):
        raise VerifyException(
            "expected as many non-induction variable region arguments as the number of input/output operands"
        )
    for index, (operand, arg) in enumerate(zip(operands, block.args)):
        expected = element_type_or_self(operand.type)
        if arg.type != expected:
            raise VerifyException(
                f"expected type of bb argument #{index} ({quoted_type(arg.type)}) to match element "
                f"or self type of the corresponding operand ({quoted_type(expected)})"
            )


