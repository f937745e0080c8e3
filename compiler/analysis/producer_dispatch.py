"""The dispatch region a value comes from, seen through reshapes.

IREE's ``getProducerDispatchValueAndOpChain`` (DispatchCreation/FusionUtils):
a value used by one dispatch is often the result of another dispatch, reshaped
on the way (``tensor.collapse_shape``/``expand_shape`` stay outside dispatches).
A pass that wants the producer to write the value differently (in an encoded
layout, padded) needs that producer result, the reshapes in between, and the
value's sizes in terms of what the producer states, so the old chain can die.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint

from mini_iree.compiler.analysis.dispatch_regions import dispatch_result_dims
from mini_iree.compiler.analysis.reshape_sizes import collapsed_dynamic_sizes
from mini_iree.dialects import flow, tensor

__all__ = ["ProducerChain", "chain_result_dims", "producer_dispatch_value_and_op_chain"]

# The ops a value may pass through between the producer dispatch and its user.
_RESHAPE_OPS = (tensor.CollapseShapeOp, tensor.ExpandShapeOp)


@dataclass(frozen=True)
class ProducerChain:
    """``value`` is ``producer`` (a dispatch region result) after ``ops``, in execution order."""

    producer: OpResult
    ops: tuple[Operation, ...]

    @property
    def dispatch(self) -> flow.DispatchRegionOp:
        region = self.producer.op
        assert isinstance(region, flow.DispatchRegionOp)
        return region


def producer_dispatch_value_and_op_chain(value: SSAValue) -> ProducerChain | None:
    """The dispatch result ``value`` is computed from through single-use reshapes, or None.

    Ranked, non-scalar tensors only; every value on the way, the dispatch result
    included, must have exactly one use, and the region a single block.
    """
    if not isinstance(value.type, TensorType) or value.type.get_num_dims() == 0:
        return None
    chain: list[Operation] = []
    current = value
    while isinstance(current, OpResult) and not isinstance(current.op, flow.DispatchRegionOp):
        if not current.has_one_use() or not isinstance(current.op, _RESHAPE_OPS):
            return None
        chain.append(current.op)
        current = current.op.operands[0]
    if not isinstance(current, OpResult):
        return None
    region = current.op
    assert isinstance(region, flow.DispatchRegionOp)
    if len(region.body.blocks) != 1 or not current.has_one_use():
        return None
    chain.reverse()
    return ProducerChain(current, tuple(chain))


def chain_result_dims(chain: ProducerChain, point: InsertPoint) -> list[SSAValue]:
    """The dynamic sizes of the chain's last value, from the producer's stated sizes.

    An ``expand_shape`` states its sizes; a ``collapse_shape`` multiplies each
    group's sizes, with ``arith`` ops built at ``point``. No value of the chain
    itself is used, so the chain can be erased once its user moves on.
    """
    dims = dispatch_result_dims(chain.dispatch, chain.producer.index)
    for op in chain.ops:
        if isinstance(op, tensor.ExpandShapeOp):
            dims = list(op.output_shape)
        else:
            assert isinstance(op, tensor.CollapseShapeOp)
            dims = collapsed_dynamic_sizes(op.src.type.get_shape(), dims, op.get_reassociation_indices(), point)
    return dims
