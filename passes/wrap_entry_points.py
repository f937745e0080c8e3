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
prints the inlined form without those, and so does this pass by default.

``invocation-model=sync`` gives IREE's own form (WrapEntryPoints.cpp): each
public ``util.func`` @f becomes a private ``@_f`` and a public ``iree.abi.stub``
wrapper that imports its arguments, ``util.call``s ``@_f`` and exports the
results, with ``iree.reflection = {iree.abi.declaration = "sync func @f(...)"}``;
each external ``util.func`` (an import) takes ``!hal.buffer_view``s and gets a
private ``@_f`` wrapper that its callers call instead. IREE's ``iree.abi.*``
argument and result attributes are honoured (``name``, ``encoding``,
``affinity``, ``consume``, ``output``: a result written into a caller's buffer
through ``hal.tensor.alias``). ``invocation-model=coarse-fences`` adds IREE's
wait/signal ``!hal.fence`` arguments to exports and imports; a function's own
``iree.abi.model`` attribute overrides the option. As in IREE, these forms wrap
``util.func`` ops only (IREE's input conversion has turned ``func.func`` into
``util.func`` by then); functions already marked ``iree.abi.stub`` are skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from io import StringIO
from typing import TypeVar

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.ir.dynamic_dims import get_dynamic_dims
from mini_iree.compiler.ir.locations import give_location
from mini_iree.compiler.ir.printer import MLIRPrinter
from mini_iree.compiler.ir.queries import instance_test, nested_ops
from mini_iree.dialects import hal, tensor, util


def _is_scalar(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | IndexType | AnyFloat)


_is_call = instance_test(func.CallOp, util.CallOp)
_is_dim_or_import = instance_test(hal.BufferViewDimOp, hal.TensorImportOp)


def _called_symbols(module: ModuleOp) -> set[str]:
    """Names of the functions some op of the module calls (``func.call``, ``util.call``)."""
    names: set[str] = set()
    for op in nested_ops(module):
        if _is_call(op) and isinstance(callee := getattr(op, "callee", None), SymbolRefAttr):
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
        shape = type_.get_shape()
        dims = [hal.BufferViewDimOp(argument, axis) for axis, size in enumerate(shape) if size == DYNAMIC_INDEX]
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
                size.location = dim_op.location
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
        exported.location = terminator.location
        Rewriter.insert_op(exported, InsertPoint.before(terminator))
        values.append(exported.target)
    new_return = util.ReturnOp(*values)
    new_return.location = terminator.location
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
        if _is_dim_or_import(created):
            created.results[0].name_hint = None

    wrapper = util.FuncOp(
        function.sym_name.data,
        ([_abi_type(t) for t in inputs], [_abi_type(t) for t in outputs]),
        Region(entry),
        "public",
        attributes=dict(function.attributes),
    )
    # The entry point and the imports of its arguments stand for the function.
    give_location(wrapper, function)
    Rewriter.replace_op(function, wrapper, new_results=[])
    return wrapper


# -- IREE's form (invocation-model=sync) ------------------------------------------

# Attributes only this pass reads; IREE strips them once the wrappers exist.
_ABI_ATTRS = ("iree.abi.affinity", "iree.abi.encoding", "iree.abi.model", "iree.abi.output")


def _io_dicts(attrs: ArrayAttr | None, count: int) -> list[dict[str, Attribute]]:
    if attrs is None:
        return [{} for _ in range(count)]
    return [dict(d.data) for d in attrs.data]


def _strip_abi(dicts: list[dict[str, Attribute]]) -> list[dict[str, Attribute]]:
    return [{k: v for k, v in d.items() if k not in _ABI_ATTRS} for d in dicts]


def _as_array(dicts: list[dict[str, Attribute]]) -> ArrayAttr | None:
    return ArrayAttr(DictionaryAttr(d) for d in dicts) if any(dicts) else None


def _strip_abi_attrs(function: util.FuncOp) -> None:
    for name in _ABI_ATTRS:
        function.attributes.pop(name, None)
    inputs = len(function.function_type.inputs.data)
    outputs = len(function.function_type.outputs.data)
    function.arg_attrs = _as_array(_strip_abi(_io_dicts(function.arg_attrs, inputs)))
    function.res_attrs = _as_array(_strip_abi(_io_dicts(function.res_attrs, outputs)))


def _io_name(attrs: dict[str, Attribute], default: str) -> str:
    name = attrs.get("iree.abi.name")
    return name.data if isinstance(name, StringAttr) else default


def print_attribute_text(attr: Attribute) -> str:
    """An attribute or type as MLIR prints it with no aliases (the declaration is a plain string)."""
    stream = StringIO()
    MLIRPrinter(stream=stream, local_scope=True).print_attribute(attr)
    return stream.getvalue()


def _format_io_attrs(attrs: dict[str, Attribute]) -> str:
    shown = [(k, v) for k, v in attrs.items() if k != "iree.abi.name"]
    if not shown:
        return ""
    return " {" + ", ".join(f"{k} = {print_attribute_text(v)}" for k, v in shown) + "}"


def _source_declaration(function: util.FuncOp, public_name: str, model: str) -> str:
    """IREE's human-readable ``iree.abi.declaration``: ``sync func @f(%input0: T) -> (%output0: T)``
    (``async func`` with coarse fences)."""
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    arg_dicts = _io_dicts(function.arg_attrs, len(inputs))
    res_dicts = _io_dicts(function.res_attrs, len(outputs))
    args = [
        f"%{_io_name(d, f'input{i}')}: {print_attribute_text(t)}{_format_io_attrs(d)}"
        for i, (t, d) in enumerate(zip(inputs, arg_dicts))
    ]
    results = [
        f"%{_io_name(d, f'output{i}')}: {print_attribute_text(t)}{_format_io_attrs(d)}"
        for i, (t, d) in enumerate(zip(outputs, res_dicts))
    ]
    kind = "async" if model == "coarse-fences" else "sync"
    return f"{kind} func @{public_name}({', '.join(args)}) -> ({', '.join(results)})"


def _rename_calls(module: ModuleOp, old: str, new: str) -> None:
    for op in module.walk():
        if isinstance(op, func.CallOp | util.CallOp) and op.callee.root_reference.data == old:
            op.callee = SymbolRefAttr(new)


def _export_wrapper(function: util.FuncOp, public_name: str, model: str) -> util.FuncOp:
    """The public ``!hal.buffer_view`` wrapper calling the (now private) ``function``.

    ``coarse-fences`` adds a wait and a signal ``!hal.fence`` argument: imports
    wait on the first, and the results (or, with no tensor results, a
    ``hal.fence.signal``) signal the second.
    """
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    arg_dicts = _io_dicts(function.arg_attrs, len(inputs))
    res_dicts = _io_dicts(function.res_attrs, len(outputs))
    default_affinity = function.attributes.get("iree.abi.affinity")
    fenced = model == "coarse-fences"

    reflection = dict(function.attributes["iree.reflection"].data) if "iree.reflection" in function.attributes else {}
    if "iree.abi" in function.attributes:
        reflection["iree.abi"] = function.attributes["iree.abi"]
    if fenced:
        reflection["iree.abi.model"] = StringAttr("coarse-fences")
    declaration = function.attributes.get("iree.abi.declaration")
    reflection["iree.abi.declaration"] = declaration or StringAttr(_source_declaration(function, public_name, model))
    function.attributes.pop("iree.reflection", None)
    if default_affinity is not None:
        function.attributes["stream.affinity"] = default_affinity

    fence_types = [hal.FenceType(), hal.FenceType()] if fenced else []
    entry = Block(arg_types=[*(_abi_type(t) for t in inputs), *fence_types])
    wait_fence, signal_fence = (entry.args[-2], entry.args[-1]) if fenced else (None, None)
    # Results written into caller storage: `iree.abi.output = N` on a buffer argument.
    storages: dict[int, SSAValue] = {}
    for index, attrs in enumerate(arg_dicts):
        output = attrs.get("iree.abi.output")
        if isinstance(output, IntegerAttr):
            storages[output.value.data] = entry.args[index]

    arguments: list[SSAValue] = []
    for index, (argument, type_, attrs) in enumerate(zip(entry.args, inputs, arg_dicts)):
        if not isinstance(type_, TensorType):
            arguments.append(argument)
            continue
        shape = type_.get_shape()
        dims = [hal.BufferViewDimOp(argument, axis) for axis, size in enumerate(shape) if size == DYNAMIC_INDEX]
        imported = hal.TensorImportOp(
            argument,
            type_,
            [d.result for d in dims],
            name=_io_name(attrs, f"input{index}"),
            target_encoding=_type_attr(attrs.get("iree.abi.encoding")),
            consume="iree.abi.consume" in attrs,
            wait_fence=wait_fence,
            affinity=attrs.get("iree.abi.affinity", default_affinity),
        )
        entry.add_ops([*dims, imported])
        arguments.append(imported.target)
    call = util.CallOp(function.sym_name.data, arguments, list(outputs))
    entry.add_op(call)

    results: list[SSAValue] = list(call.results)
    # The sizes of values this wrapper made, as IREE's shape-aware ops report them.
    known_dims: dict[SSAValue, list[SSAValue]] = {}
    for index, storage in sorted(storages.items()):
        source = results[index]
        dims = get_dynamic_dims(source, InsertPoint.at_end(entry))
        alias = hal.TensorAliasOp(
            source, dims, storage, wait_fence, res_dicts[index].get("iree.abi.affinity", default_affinity)
        )
        entry.add_op(alias)
        results[index] = alias.result
        known_dims[alias.result] = dims
    if signal_fence is not None:
        tensor_indices = [i for i, value in enumerate(results) if isinstance(value.type, TensorType)]
        if not tensor_indices:
            entry.add_op(hal.FenceSignalOp(signal_fence))
        else:
            barrier = hal.TensorBarrierOp([results[i] for i in tensor_indices], signal_fence)
            entry.add_op(barrier)
            for i, ready in zip(tensor_indices, barrier.results):
                results[i] = ready

    exported_results: list[SSAValue] = []
    for index, (value, attrs) in enumerate(zip(results, res_dicts)):
        if not isinstance(value.type, TensorType):
            exported_results.append(value)
            continue
        dims = known_dims.get(value) or get_dynamic_dims(value, InsertPoint.at_end(entry))
        exported = hal.TensorExportOp(
            value,
            dims,
            name=_io_name(attrs, f"output{index}"),
            source_encoding=_type_attr(attrs.get("iree.abi.encoding")),
            affinity=attrs.get("iree.abi.affinity", default_affinity),
        )
        entry.add_op(exported)
        exported_results.append(exported.target)
    entry.add_op(util.ReturnOp(*exported_results))

    wrapper_arg_dicts = _strip_abi(arg_dicts) + ([{}, {}] if fenced else [])
    wrapper = util.FuncOp(
        public_name,
        ([_abi_type(t) for t in inputs] + fence_types, [_abi_type(t) for t in outputs]),
        Region(entry),
        "public",
        arg_attrs=_as_array(wrapper_arg_dicts),
        res_attrs=_as_array(_strip_abi(res_dicts)),
        attributes={"iree.abi.stub": UnitAttr(), "iree.reflection": DictionaryAttr(reflection)},
    )
    _strip_abi_attrs(function)
    return wrapper


def _import_wrapper(function: util.FuncOp, private_name: str, model: str) -> util.FuncOp:
    """The private wrapper with the import's original tensor signature, calling the import on buffer views.

    With ``coarse-fences`` the import also takes a wait fence (signalled once
    the tensor arguments are ready, through ``hal.tensor.barrier``) and a signal
    fence its results wait on; an import without ``nosideeffects`` is awaited
    on the host. A fence nothing needs is ``util.null``.
    """
    inputs = function.function_type.inputs.data
    outputs = function.function_type.outputs.data
    arg_dicts = _io_dicts(function.arg_attrs, len(inputs))
    res_dicts = _io_dicts(function.res_attrs, len(outputs))
    default_affinity = function.attributes.get("iree.abi.affinity")
    if default_affinity is not None:
        function.attributes["stream.affinity"] = default_affinity
    fenced = model == "coarse-fences"
    has_side_effects = "nosideeffects" not in function.attributes

    entry = Block(arg_types=list(inputs))
    values: list[SSAValue] = list(entry.args)
    wait_fence: SSAValue | None = None
    signal_fence: SSAValue | None = None
    if fenced:
        device = _resolve_device(entry, default_affinity)
        tensor_indices = [i for i, t in enumerate(inputs) if isinstance(t, TensorType)]
        if not tensor_indices:
            wait_fence = _add(entry, util.NullOp(hal.FenceType())).result
        else:
            wait_fence = _add(entry, hal.FenceCreateOp(device)).result
            barrier = _add(entry, hal.TensorBarrierOp([values[i] for i in tensor_indices], wait_fence))
            for i, ready in zip(tensor_indices, barrier.results):
                values[i] = ready
        if not any(isinstance(t, TensorType) for t in outputs) and not has_side_effects:
            signal_fence = _add(entry, util.NullOp(hal.FenceType())).result
        else:
            signal_fence = _add(entry, hal.FenceCreateOp(device)).result

    arguments: list[SSAValue] = []
    for value, attrs in zip(values, arg_dicts):
        if not isinstance(value.type, TensorType):
            arguments.append(value)
            continue
        dims = get_dynamic_dims(value, InsertPoint.at_end(entry))
        exported = hal.TensorExportOp(
            value,
            dims,
            source_encoding=_type_attr(attrs.get("iree.abi.encoding")),
            affinity=attrs.get("iree.abi.affinity", default_affinity),
        )
        entry.add_op(exported)
        arguments.append(exported.target)
    if fenced:
        arguments += [wait_fence, signal_fence]  # type: ignore[list-item]
    call = util.CallOp(function.sym_name.data, arguments, [_abi_type(t) for t in outputs])
    entry.add_op(call)
    if fenced and has_side_effects:
        # The import may have started work of its own that nothing else tracks.
        timeout = _add(entry, arith.ConstantOp(IntegerAttr(-1, i32)))
        _add(entry, hal.FenceAwaitOp(timeout.result, [signal_fence]))  # type: ignore[list-item]
    results: list[SSAValue] = []
    for value, type_, attrs in zip(call.results, outputs, res_dicts):
        if not isinstance(type_, TensorType):
            results.append(value)
            continue
        dims = [hal.BufferViewDimOp(value, axis) for axis, size in enumerate(type_.get_shape()) if size == DYNAMIC_INDEX]
        imported = hal.TensorImportOp(
            value,
            type_,
            [d.result for d in dims],
            target_encoding=_type_attr(attrs.get("iree.abi.encoding")),
            consume="iree.abi.consume" in attrs,
            wait_fence=signal_fence,
            affinity=attrs.get("iree.abi.affinity", default_affinity),
        )
        entry.add_ops([*dims, imported])
        results.append(imported.target)
    entry.add_op(util.ReturnOp(*results))

    wrapper = util.FuncOp(
        private_name,
        (list(inputs), list(outputs)),
        Region(entry),
        "private",
        arg_attrs=_as_array(_strip_abi(arg_dicts)),
        res_attrs=_as_array(_strip_abi(res_dicts)),
    )
    # The import itself now takes and returns buffer views (and fences).
    fences = [hal.FenceType(), hal.FenceType()] if fenced else []
    function.function_type = FunctionType.from_lists(
        [*(_abi_type(t) for t in inputs), *fences], [_abi_type(t) for t in outputs]
    )
    if fenced and function.arg_attrs is not None:
        function.arg_attrs = ArrayAttr([*function.arg_attrs.data, DictionaryAttr({}), DictionaryAttr({})])
    _strip_abi_attrs(function)
    function.attributes["iree.abi.stub"] = UnitAttr()
    return wrapper


_OpT = TypeVar("_OpT", bound=Operation)


def _add(block: Block, op: _OpT) -> _OpT:
    block.add_op(op)
    return op


def _resolve_device(block: Block, affinity: Attribute | None) -> SSAValue:
    """The device of an import's fences: its affinity's, else the first device at runtime."""
    if isinstance(affinity, hal.DeviceAffinityAttr):
        return _add(block, hal.DeviceResolveOp(affinity)).result
    index = _add(block, arith.ConstantOp(IntegerAttr(0, IndexType())))
    return _add(block, hal.DevicesGetOp(index.result)).result


def _type_attr(attr: Attribute | None) -> Attribute | None:
    """``iree.abi.encoding = tensor<...>``: the ABI type, or None for the tensor's own."""
    return attr if isinstance(attr, TensorType) else None


def _invocation_model(function: util.FuncOp, default: str) -> str:
    """A function's own ``iree.abi.model``, else the pass's."""
    model = function.attributes.get("iree.abi.model")
    if isinstance(model, StringAttr):
        return "coarse-fences" if model.data == "coarse-fences" else "sync"
    return default


def _has_valid_storage(function: util.FuncOp) -> bool:
    """Arguments with ``iree.abi.output`` must be buffers (IREE rejects anything else)."""
    for type_, attrs in zip(function.function_type.inputs.data, _io_dicts(function.arg_attrs, len(function.function_type.inputs.data))):
        if "iree.abi.output" in attrs and not isinstance(type_, hal.BufferType | hal.BufferViewType):
            return False
    return True


def wrap_entry_points_iree(module: ModuleOp, default_model: str) -> None:
    """IREE's WrapEntryPointsPass (``sync`` or ``coarse-fences``)."""
    imports: list[util.FuncOp] = []
    exports: list[util.FuncOp] = []
    for op in functions(module, kinds=("util.func",)):
        if "iree.abi.stub" in op.attributes:
            continue
        if op.is_declaration:
            imports.append(op)
        elif op.sym_visibility is None or op.sym_visibility.data == "public":
            if _has_valid_storage(op):
                exports.append(op)
    for function in imports:
        public_name = function.sym_name.data
        _rename_calls(module, public_name, "_" + public_name)
        wrapper = _import_wrapper(function, "_" + public_name, _invocation_model(function, default_model))
        give_location(wrapper, function)
        Rewriter.insert_op(wrapper, InsertPoint.after(function))
    for function in exports:
        model = _invocation_model(function, default_model)
        public_name = function.sym_name.data
        _rename_calls(module, public_name, "_" + public_name)
        function.sym_name = StringAttr("_" + public_name)
        function.sym_visibility = StringAttr("private")
        wrapper = _export_wrapper(function, public_name, model)
        give_location(wrapper, function)
        Rewriter.insert_op(wrapper, InsertPoint.before(function))


_INVOCATION_MODELS = ("walkthrough", "sync", "coarse-fences")


@dataclass(frozen=True)
class WrapEntryPointsPass(ModulePass):
    """Turn each public ``func.func`` on tensors into a ``util.func`` on ``!hal.buffer_view``.

    Tensor arguments are imported (``hal.tensor.import "inputN"``) and tensor
    results exported (``hal.tensor.export "outputN"``); scalar arguments and
    results pass through. Private functions, declarations, functions with
    other argument types and public functions that another function calls are
    left alone, so ``func.call`` sites keep their callee.

    ``invocation-model=sync`` / ``coarse-fences`` build IREE's wrappers instead
    (see the module docstring).
    """

    name = "iree-abi-wrap-entry-points"

    # IREE's option; `walkthrough` (ours, the default) is the inlined form the
    # walkthrough prints, `sync` IREE's wrapper + private original, and
    # `coarse-fences` the same with wait/signal fence arguments.
    invocation_model: str = "walkthrough"

    def __post_init__(self):
        if self.invocation_model not in _INVOCATION_MODELS:
            raise ValueError(
                f"unknown invocation-model '{self.invocation_model}' (expected one of: {', '.join(_INVOCATION_MODELS)})"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.invocation_model != "walkthrough":
            wrap_entry_points_iree(op, self.invocation_model)
            return
        called = _called_symbols(op)
        for function in functions(op, kinds=("func.func",), nested=True):
            if isinstance(function.parent_op(), ModuleOp) and _should_wrap(function, called):
                wrap_function(function)


__all__ = ["WrapEntryPointsPass", "wrap_function"]
