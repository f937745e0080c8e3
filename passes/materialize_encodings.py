"""``iree-stream-materialize-encodings``: each ``stream.tensor.encode`` becomes a dispatch of a generated executable.

A host-side ``stream.tensor.encode`` relayouts a whole tensor. This pass first
folds the encodes that change nothing (same type on both sides, or identity
layouts on both: the result is the source), then gives every remaining encode
in a top-level function or initializer a ``stream.executable private
@_encoding_N`` right before that function, with one export and one function

    func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(%arg0: !stream.binding, %arg1: index, ...,
                                                     %arg5: !stream.binding) {
      %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index   (source dims, then result dims)
      ...
      %4 = stream.binding.subspan %arg0[%c0] ... readonly:tensor<?x?xf32>
      %5 = stream.binding.subspan %arg5[%c0] ... writeonly:tensor<?x?xf32, #encoding>
      %6 = iree_tensor_ext.dispatch.tensor.load %4 ...
      %7 = iree_encoding.set_encoding %6 ...        (unset_encoding first if the source is encoded)
      iree_tensor_ext.dispatch.tensor.store %7, %5 ...

and replaces the encode with ``stream.async.dispatch @_encoding_0::@...[dims](%src[%c0 to %size for %size], dims)``.
The name says the shapes (``D`` for a dynamic dim) without the encodings;
encodes with the same source and result types share one executable.

Encodes inside executables are left alone (they are device code already).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    ModuleOp,
    NoneAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from mini_iree.compiler.analysis.functions import FUNCTION_LIKE, functions
from mini_iree.compiler.ir.diagnostics import OpError
from mini_iree.compiler.ir.locations import give_location
from mini_iree.compiler.ir.selective_walker import SelectivePatternRewriteWalker
from mini_iree.dialects import iree_encoding, iree_tensor_ext, stream

__all__ = ["MaterializeEncodingsPass", "encode_dispatch_name"]


def _is_identity_encoding(tensor: Attribute) -> bool:
    """No encoding, or one whose layout stores the tensor as it is."""
    if not isinstance(tensor, TensorType) or isinstance(tensor.encoding, NoneAttr):
        return True
    encoding = tensor.encoding
    return isinstance(encoding, iree_encoding.SerializableAttr) and encoding.is_identity_layout()


class FoldTensorEncodeOp(RewritePattern):
    """An encode that changes nothing is its source (IREE's ``TensorEncodeOp::fold``)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: stream.TensorEncodeOp, rewriter: PatternRewriter) -> None:
        same = op.source_encoding == op.result_encoding
        if not same and not (_is_identity_encoding(op.source_encoding) and _is_identity_encoding(op.result_encoding)):
            return
        rewriter.replace(op, [], [op.source])


def _shape_text(tensor: TensorType) -> str:
    dims = "".join(("D" if d == DYNAMIC_INDEX else str(d)) + "x" for d in tensor.get_shape())
    return dims + str(tensor.element_type)


def encode_dispatch_name(op: stream.TensorEncodeOp) -> str:
    """``encode_<source shape>_to_<result shape>``, e.g. ``encode_DxDxf32_to_DxDxf32`` (encodings left out)."""
    source, result = op.source_encoding, op.result_encoding
    assert isinstance(source, TensorType) and isinstance(result, TensorType)
    return f"encode_{_shape_text(source)}_to_{_shape_text(result)}"


def _drop_encoding(tensor: TensorType) -> TensorType:
    return TensorType(tensor.element_type, tensor.get_shape())


def _workgroup_func(op: stream.TensorEncodeOp, name: str) -> func.FuncOp:
    """Source binding, source dims, result dims, result binding -> load, relayout, store."""
    source_type, result_type = op.source_encoding, op.result_encoding
    assert isinstance(source_type, TensorType) and isinstance(result_type, TensorType)
    index = IndexType()
    n_source, n_result = len(op.source_encoding_dims), len(op.result_encoding_dims)
    arg_types = [stream.BindingType(), *[index] * (n_source + n_result), stream.BindingType()]
    block = Block(arg_types=arg_types)
    args = block.args

    ordinals = [iree_tensor_ext.DispatchWorkloadOrdinalOp(a, i) for i, a in enumerate(args[1 : 1 + n_source + n_result])]
    block.add_ops(ordinals)
    source_dims = [o.result for o in ordinals[:n_source]]
    result_dims = [o.result for o in ordinals[n_source:]]

    zero = arith.ConstantOp(IntegerAttr(0, index))
    source_binding = stream.BindingSubspanOp(
        args[0], zero, iree_tensor_ext.DispatchTensorType("readonly", source_type), source_dims
    )
    result_binding = stream.BindingSubspanOp(
        args[-1], zero, iree_tensor_ext.DispatchTensorType("writeonly", result_type), result_dims
    )
    load = iree_tensor_ext.DispatchTensorLoadOp(source_type, source_binding, source_dims)
    body: list[Operation] = [zero, source_binding, result_binding, load]
    value: SSAValue = load.result
    # Encodings are only added and removed by set/unset_encoding: go through the plain tensor.
    if source_type != result_type:
        if not isinstance(source_type.encoding, NoneAttr):
            unset = iree_encoding.UnsetEncodingOp(value, _drop_encoding(source_type), source_dims)
            body.append(unset)
            value = unset.result
        if not isinstance(result_type.encoding, NoneAttr):
            set_ = iree_encoding.SetEncodingOp(value, result_type)
            body.append(set_)
            value = set_.result
    body.append(iree_tensor_ext.DispatchTensorStoreOp(value, result_binding, result_dims))
    body.append(func.ReturnOp())
    block.add_ops(body)
    return func.FuncOp(name, (arg_types, []), Region(block))


def _executable(op: stream.TensorEncodeOp, executable_name: str) -> tuple[stream.ExecutableOp, str]:
    """``stream.executable private @_encoding_N`` with its export and function; returns it and the export name."""
    function_name = f"{executable_name}_{encode_dispatch_name(op)}"
    workload_count = len(op.source_encoding_dims) + len(op.result_encoding_dims)
    count_block = Block(arg_types=[IndexType()] * workload_count)
    count = iree_tensor_ext.DispatchWorkgroupCountFromSliceOp(count_block.args)
    count_block.add_ops([count, stream.ReturnOp(count.results)])
    export = stream.ExecutableExportOp(function_name, function_name, Region(count_block), sym_visibility="public")
    inner = ModuleOp([_workgroup_func(op, function_name)])
    executable = stream.ExecutableOp(executable_name, Region(Block([export, inner])), sym_visibility="private")
    return executable, function_name


def _replace_with_dispatch(op: stream.TensorEncodeOp, executable_name: str, export_name: str) -> None:
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    Rewriter.insert_op(zero, InsertPoint.before(op))
    dims = [*op.source_encoding_dims, *op.result_encoding_dims]
    dispatch = stream.AsyncDispatchOp(
        SymbolRefAttr(executable_name, [export_name]),
        dims,
        [op.source, *dims],
        [op.source_size],
        [zero.result],
        [op.source_size],
        [op.source_size],
        [op.result.type],
        [op.result_size],
        affinity=op.affinity,
    )
    give_location((zero, dispatch), op)
    Rewriter.replace_op(op, dispatch)


def _symbol_names(module: ModuleOp) -> set[str]:
    names: set[str] = set()
    for op in module.body.block.ops:
        sym = op.properties.get("sym_name")
        if isinstance(sym, StringAttr):
            names.add(sym.data)
    return names


@dataclass(frozen=True)
class MaterializeEncodingsPass(ModulePass):
    """Turns host ``stream.tensor.encode`` ops into dispatches of uniqued ``@_encoding_N`` executables."""

    name = "iree-stream-materialize-encodings"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        SelectivePatternRewriteWalker(GreedyRewritePatternApplier([FoldTensorEncodeOp()])).rewrite_module(op)
        encodes: list[tuple[Operation, stream.TensorEncodeOp]] = []
        for function in functions(op, kinds=FUNCTION_LIKE):
            encodes += [(function, e) for e in function.walk() if isinstance(e, stream.TensorEncodeOp)]
        if not encodes:
            return
        taken = _symbol_names(op)
        # (source type, result type) -> (executable name, export name): identical relayouts share code.
        cache: dict[tuple[Attribute, Attribute], tuple[str, str]] = {}
        next_id = 0
        for function, encode in encodes:
            for tensor in (encode.source_encoding, encode.result_encoding):
                if not isinstance(tensor, TensorType):
                    raise OpError(encode, f"expected tensor types, got {tensor}")
            key = (encode.source_encoding, encode.result_encoding)
            if key not in cache:
                while f"_encoding_{next_id}" in taken:
                    next_id += 1
                name = f"_encoding_{next_id}"
                next_id += 1
                taken.add(name)
                executable, export_name = _executable(encode, name)
                # Built for the first encode that needs it, at its location (as IREE does).
                give_location(executable, encode)
                Rewriter.insert_op(executable, InsertPoint.before(function))
                cache[key] = (name, export_name)
            _replace_with_dispatch(encode, *cache[key])
