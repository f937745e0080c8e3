"""``iree-abi-wrap-entry-points``: public tensor functions become ``!hal.buffer_view`` entry points.

A compiled IREE module is called through its ABI: tensors cross the boundary as
``!hal.buffer_view`` values. This pass rewrites each public ``func.func`` on
tensors into a ``util.func`` of the same name that imports every tensor
argument (``hal.buffer_view.dim`` for each dynamic size, then
``hal.tensor.import``), runs the original body, and exports every tensor result
(``hal.tensor.export``).

IREE builds a wrapper that calls a private copy of the original function and
inlines it later, adding ``iree.abi.stub``/``iree.reflection`` attributes and
``iree_tensor_ext.compute_barrier`` ops on the way. The data-tiling walkthrough
prints the inlined form without those, and so does this pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.dialects import hal, tensor, util


def _is_scalar(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType | AnyFloat)


def _called_symbols(module: ModuleOp) -> set[str]:
    """Names of the functions some op of the module calls (``func.call``, ``util.call``)."""
    names: set[str] = set()
    for op in module.walk():
        callee = getattr(op, "callee", None)
        if isinstance(op, func.CallOp | util.CallOp) and isinstance(callee, SymbolRefAttr):
            names.add(callee.root_reference.data)
    return names


def _should_wrap(function: func.FuncOp, called: set[str]) -> bool:
    """A public, defined, single-block function on tensors and scalars that nothing calls."""
    if function.sym_visibility is not None and function.sym_visibility.data != "public":
        return False
    if len(function.body.blocks) != 1 or function.sym_name.data in called:
        return False
    types = (*function.function_type.inputs.data, *function.function_type.outputs.data)
    if not any(isinstance(t, TensorType) for t in types):
        return False
    return all(isinstance(t, TensorType) or _is_scalar(t) for t in types)


def _abi_type(type_: Attribute) -> Attribute:
    return hal.BufferViewType() if isinstance(type_, TensorType) else type_


def _import_arguments(block: Block, types: Sequence[Attribute]) -> list[SSAValue]:
    """Import each tensor argument of ``block``; the values the original body's arguments become."""
    values: list[SSAValue] = []
    for index, (argument, type_) in enumerate(zip(block.args, types)):
        if not isinstance(type_, TensorType):
            values.append(argument)
            continue
        dims = [
            hal.BufferViewDimOp(argument, axis)
            for axis, size in enumerate(type_.get_shape())
            if size == DYNAMIC_INDEX
        ]
        imported = hal.TensorImportOp(argument, type_, [d.result for d in dims], name=f"input{index}")
        block.add_ops([*dims, imported])
        values.append(imported.target)
    return values


def _fold_dims_of_imports(imports: Sequence[hal.TensorImportOp], body: Block) -> None:
    """``tensor.dim`` of an imported tensor is the import's size operand (or a constant, if static).

    This is the fold IREE's canonicalization applies. The folded ``tensor.dim``
    and its index constant, when nothing else reads it, are erased.
    """
    for imported in imports:
        shape = imported.target.type.get_shape()
        for use in tuple(imported.target.uses):
            dim_op = use.operation
            if not isinstance(dim_op, tensor.DimOp) or dim_op.source is not imported.target:
                continue
            index_op = dim_op.index.owner
            if not isinstance(index_op, arith.ConstantOp) or not isinstance(index_op.value, IntegerAttr):
                continue
            axis = index_op.value.value.data
            if not 0 <= axis < len(shape):
                continue
            if shape[axis] != DYNAMIC_INDEX:
                size = arith.ConstantOp(IntegerAttr(shape[axis], IndexType()))
                Rewriter.insert_op(size, InsertPoint.before(dim_op))
                dim_op.result.replace_all_uses_with(size.result)
                if not size.result.uses:
                    Rewriter.erase_op(size)
            else:
                position = sum(1 for size in shape[:axis] if size == DYNAMIC_INDEX)
                dim_op.result.replace_all_uses_with(imported.target_dims[position])
            Rewriter.erase_op(dim_op)
            if not index_op.result.uses and index_op.parent_block() is body:
                Rewriter.erase_op(index_op)


def _export_results(terminator: func.ReturnOp) -> util.ReturnOp:
    """Export each tensor returned by ``terminator`` and return the buffer views."""
    values: list[SSAValue] = []
    for index, value in enumerate(terminator.arguments):
        if not isinstance(value.type, TensorType):
            values.append(value)
            continue
        dims = get_dynamic_dims(value, InsertPoint.before(terminator))
        exported = hal.TensorExportOp(value, dims, name=f"output{index}")
        Rewriter.insert_op(exported, InsertPoint.before(terminator))
        values.append(exported.target)
    new_return = util.ReturnOp(*values)
    Rewriter.replace_op(terminator, new_return)
    return new_return


def wrap_function(function: func.FuncOp) -> util.FuncOp:
    """Replace ``function`` by its ``!hal.buffer_view`` entry point with the body inlined."""
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    entry = Block(arg_types=[_abi_type(t) for t in inputs])
    values = _import_arguments(entry, inputs)
    imports = [op for op in entry.ops if isinstance(op, hal.TensorImportOp)]

    old_body = function.body.blocks.first
    assert old_body is not None
    for old, new in zip(old_body.args, values):
        old.replace_all_uses_with(new)
    for op in tuple(old_body.ops):
        op.detach()
        entry.add_op(op)

    # Exports first: their sizes may be read through tensor.dim ops the fold
    # below then rewrites to the imports' sizes, like every other use.
    terminator = entry.last_op
    if isinstance(terminator, func.ReturnOp):
        _export_results(terminator)
    _fold_dims_of_imports(imports, entry)
    # Replacing the original arguments and tensor.dim ops handed their names
    # (%arg0, %dim) to the new values; IREE's output numbers them instead.
    for argument in entry.args:
        argument.name_hint = None
    for created in entry.ops:
        if isinstance(created, hal.BufferViewDimOp | hal.TensorImportOp):
            created.results[0].name_hint = None

    wrapper = util.FuncOp(
        function.sym_name.data,
        ([_abi_type(t) for t in inputs], [_abi_type(t) for t in outputs]),
        Region(entry),
        "public",
        attributes=dict(function.attributes),
    )
    Rewriter.replace_op(function, wrapper, new_results=[])
    return wrapper


@dataclass(frozen=True)
class WrapEntryPointsPass(ModulePass):
    """Turn each public ``func.func`` on tensors into a ``util.func`` on ``!hal.buffer_view``.

    Tensor arguments are imported (``hal.tensor.import "inputN"``) and tensor
    results exported (``hal.tensor.export "outputN"``); scalar arguments and
    results pass through. Private functions, declarations, functions with
    other argument types and public functions that another function calls are
    left alone, so ``func.call`` sites keep their callee.
    """

    name = "iree-abi-wrap-entry-points"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        called = _called_symbols(op)
        for function in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            if isinstance(function.parent_op(), ModuleOp) and _should_wrap(function, called):
                wrap_function(function)


__all__ = ["WrapEntryPointsPass", "wrap_function"]
