"""The default workgroup count region of a ``flow.dispatch.workgroups``.

Until a backend knows how it tiles a dispatch, the number of workgroups is left
to a placeholder: the ``count`` region takes the workload (the dispatch's
``index`` operands) and returns ``iree_tensor_ext.dispatch.workgroup_count_from_slice``
of it, which codegen later replaces with the real computation, derived from the
program slice that computes the ``iree_tensor_ext.dispatch.workload.ordinal``
values in the body.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region

from mini_iree.dialects import flow, iree_tensor_ext


def default_workgroup_count_region(workload_size: int) -> Region:
    """``count(%w0: index, ...) { %x, %y, %z = workgroup_count_from_slice(%w0, ...); flow.return }``."""
    block = Block(arg_types=[IndexType()] * workload_size)
    count = iree_tensor_ext.DispatchWorkgroupCountFromSliceOp(block.args)
    block.add_ops([count, flow.ReturnOp(count.results)])
    return Region(block)
