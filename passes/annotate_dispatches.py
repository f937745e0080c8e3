"""``iree-flow-annotate-dispatches``: dispatch entry points get names that say what they compute.

For each ``flow.executable`` export the pass picks the dispatch function's most
expensive op with IREE's cost model (the product of the static loop ranges, 1024
for a dynamic one, doubled for ops with reductions; encoding and pack/unpack ops
only when nothing else is there) and appends a summary of it to the export, its
function and every ``flow.dispatch`` that names it:
``@matmul_f32f32f32_dispatch_0`` becomes ``@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32``.
Summaries follow IREE's AnnotateDispatches: the op kind (``matmul``,
``elementwise``, ``elementwise_broadcast``, ``transpose``, ``matmul_like``,
``matvec_like``, ``contract``, ``reduction``, or the op's name), the loop ranges
(``D`` for dynamic) and the element types (one if all agree). Executables whose
function it cannot find, or whose body has nothing to summarize, keep their names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, ModuleOp, ShapedType, StringAttr, SymbolRefAttr
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.contraction import infer_contraction_dims
from mini_iree.compiler.analysis.functions import functions
from mini_iree.dialects import flow, iree_encoding, iree_tensor_ext, linalg
from mini_iree.dialects.hal import sanitize_symbol_name

__all__ = ["AnnotateDispatchesPass", "summarize_dispatch"]

_MAX_COST = 2**63 - 1
_REDUCTION_COST = 2
_DYNAMIC_PLACEHOLDER = 1024
_MIN_ESTIMATED_COST = -1


def _saturating_mul(lhs: int, rhs: int) -> int:
    return min(lhs * rhs, _MAX_COST)


def _cost_of_domain(domain: Sequence[int]) -> int:
    """The product of the sizes, with 1024 standing for a dynamic size (IREE's placeholder)."""
    product = 1
    for size in domain:
        product = _saturating_mul(product, _DYNAMIC_PLACEHOLDER if size == DYNAMIC_INDEX else size)
    return product


def _ranges_string(ranges: Sequence[int]) -> str:
    """``512xDx128``: ``?`` is not a valid symbol character, so dynamic sizes are ``D``."""
    return "x".join("D" if r == DYNAMIC_INDEX else str(r) for r in ranges)


def _type_string(value: SSAValue) -> str:
    ty = value.type
    return str(ty.get_element_type() if isinstance(ty, ShapedType) else ty)


# ---------------------------------------------------------------------------
# Linalg structured ops
# ---------------------------------------------------------------------------


def _is_structured(op: Operation) -> bool:
    """A linalg op with indexing maps (IREE's ``linalg::LinalgOp``); pack/unpack are not."""
    return (
        op.name.startswith("linalg.")
        and not isinstance(op, linalg.PackOp | linalg.UnPackOp)
        and hasattr(op, "get_indexing_maps")
        and getattr(op, "outputs", None) is not None
    )


def _maps(op: Operation) -> list[AffineMap]:
    return [m.data for m in op.get_indexing_maps().data]  # type: ignore[attr-defined]


def _iterators(op: Operation) -> list[str]:
    result = []
    for it in op.get_iterator_types().data:  # type: ignore[attr-defined]
        data = getattr(it, "data", it)
        result.append(str(getattr(data, "value", data)))
    return result


def _operands(op: Operation) -> list[SSAValue]:
    return [*op.inputs, *op.outputs]  # type: ignore[attr-defined]


def _static_loop_ranges(op: Operation) -> list[int]:
    """Each loop's size read off the first operand dimension it indexes directly (``D`` if none)."""
    maps = _maps(op)
    ranges = [DYNAMIC_INDEX] * (maps[0].num_dims if maps else 0)
    found = [False] * len(ranges)
    for value, affine_map in zip(_operands(op), maps):
        shape = value.type.get_shape() if isinstance(value.type, ShapedType) else ()
        for position, expr in enumerate(affine_map.results):
            if isinstance(expr, AffineDimExpr) and not found[expr.position] and position < len(shape):
                ranges[expr.position] = shape[position]
                found[expr.position] = True
    return ranges


def _is_permutation(m: AffineMap) -> bool:
    return m.num_dims == len(m.results) and m.is_projected_permutation()


def _is_identity(m: AffineMap) -> bool:
    return m.num_symbols == 0 and m == AffineMap.identity(m.num_dims)


def _num_reductions(op: Operation) -> int:
    return sum(1 for it in _iterators(op) if it == "reduction")


def _contraction_kind(op: Operation) -> str:
    """``matvec_like``, ``matmul_like``, ``contract`` or ``""`` for a generic contraction."""
    maps = _maps(op)
    if len(maps) != 3 or len(op.inputs) != 2 or not _num_reductions(op):  # type: ignore[attr-defined]
        return ""
    dims = infer_contraction_dims(maps)
    if dims is None or not dims.k:
        return ""
    bounds = _static_loop_ranges(op)
    iterators = _iterators(op)

    def all_parallel_unit(affine_map: AffineMap) -> bool:
        for expr in affine_map.results:
            pos = expr.position  # type: ignore[attr-defined]
            if iterators[pos] == "parallel" and bounds[pos] != 1 and pos not in dims.batch:
                return False
        return True

    if all_parallel_unit(maps[0]) or all_parallel_unit(maps[1]):
        return "matvec_like"
    if iterators.count("parallel") >= 2:
        return "matmul_like"
    return "contract"


def _generic_kind(op: Operation) -> str:
    maps = _maps(op)
    num_inputs = len(op.inputs)  # type: ignore[attr-defined]
    inputs, outputs = maps[:num_inputs], maps[num_inputs:]
    identity_outs = all(_is_identity(m) for m in outputs)
    permutation_outs = all(_is_permutation(m) for m in outputs)
    projected_ins = all(m.is_projected_permutation(allow_zero_in_results=True) for m in inputs)
    identity_in = sum(1 for m in inputs if _is_identity(m))
    permutation_in = sum(1 for m in inputs if _is_permutation(m))
    identity_root = identity_in > 0 and identity_in == permutation_in
    if identity_outs and projected_ins and identity_root:
        return "elementwise"
    if permutation_outs and projected_ins and ((identity_root and not identity_outs) or permutation_in > identity_in):
        return "elementwise_transpose"
    if permutation_outs and projected_ins and permutation_in == 0:
        return "elementwise_broadcast"
    if kind := _contraction_kind(op):
        return kind
    if _num_reductions(op):
        return "reduction"
    return ""


def _summarize_linalg(op: Operation) -> str:
    prefix = ""
    body = op.regions[0].blocks.first if op.regions else None
    only_yield = body is not None and len(list(body.ops)) == 1
    if only_yield and all(_is_permutation(m) for m in _maps(op)):
        prefix = "transpose"
    if not prefix and isinstance(op, linalg.GenericOp):
        prefix = _generic_kind(op)
    if not prefix:
        prefix = op.name.removeprefix("linalg.")
    ranges = _ranges_string(_static_loop_ranges(op))
    types = [_type_string(v) for v in _operands(op)]
    type_string = types[0] if len(set(types)) == 1 else "x".join(types)
    if not ranges:
        return prefix
    return f"{prefix}_{ranges}_{type_string}"


def _linalg_cost(op: Operation) -> int:
    cost = _cost_of_domain(_static_loop_ranges(op))
    return _saturating_mul(cost, _REDUCTION_COST) if _num_reductions(op) else cost


# ---------------------------------------------------------------------------
# LinalgExt ops
# ---------------------------------------------------------------------------


def _main_tensor(op: Operation) -> ShapedType | None:
    main: ShapedType | None = None
    for ty in [*op.operand_types, *op.result_types]:
        if isinstance(ty, ShapedType) and (main is None or _cost_of_domain(ty.get_shape()) > _cost_of_domain(main.get_shape())):
            main = ty
    return main


def _linalg_ext_cost(op: Operation) -> int:
    main = _main_tensor(op)
    cost = _cost_of_domain(main.get_shape()) if main is not None else 1
    return _MAX_COST if cost >= _MAX_COST // 10 else cost * 10


def _summarize_linalg_ext(op: Operation) -> str:
    name = op.name.removeprefix("iree_linalg_ext.")
    main = _main_tensor(op)
    suffix = f"_{_ranges_string(main.get_shape())}x{main.get_element_type()}" if main is not None else ""
    uses = list(op.results[0].uses) if op.results else []
    if len(uses) == 1:
        suffix += "_" + uses[0].operation.name.split(".", 1)[-1]
    return name + suffix


# ---------------------------------------------------------------------------
# The summary
# ---------------------------------------------------------------------------


def _op_cost(op: Operation) -> int | None:
    """The cost IREE's model gives ``op``, or None for ops it does not rank."""
    if _is_structured(op):
        return _linalg_cost(op)
    if isinstance(op, iree_encoding.SetEncodingOp | iree_encoding.UnsetEncodingOp | linalg.PackOp | linalg.UnPackOp):
        return _MIN_ESTIMATED_COST + 1
    if op.name.startswith("iree_linalg_ext."):
        return _linalg_ext_cost(op)
    return None


def _summarize(op: Operation) -> str:
    if _is_structured(op):
        return _summarize_linalg(op)
    if isinstance(op, linalg.PackOp | linalg.UnPackOp):
        return op.name.split(".", 1)[-1] + "_" + _type_string(op.operands[0])
    if isinstance(op, iree_encoding.SetEncodingOp | iree_encoding.UnsetEncodingOp):
        encoded = op.result.type if isinstance(op, iree_encoding.SetEncodingOp) else op.source.type
        plain = op.source.type if isinstance(op, iree_encoding.SetEncodingOp) else op.result.type
        encoding = encoded.encoding  # type: ignore[attr-defined]
        index = getattr(encoding, "operand_index", None)
        op_type = getattr(encoding, "op_type", None)
        role = ""
        if index is not None:
            kind = op_type.data if op_type is not None else iree_encoding.EncodingOpType.MATMUL
            role = iree_encoding.stringify_operand_index(kind, index.value.data)
        return f"{op.name.split('.', 1)[-1]}_{role}_{_ranges_string(plain.get_shape())}"  # type: ignore[attr-defined]
    if op.name.startswith("iree_linalg_ext."):
        return _summarize_linalg_ext(op)
    return op.name


def summarize_dispatch(region: Region) -> str:
    """IREE's ``summarizeDispatchRegion``: a short name for what ``region`` computes ("" if unknown)."""
    best: Operation | None = None
    best_cost = _MIN_ESTIMATED_COST
    tileable: list[Operation] = []
    for op in region.walk():
        if _is_structured(op) or isinstance(op, linalg.PackOp | linalg.UnPackOp) or op.name.startswith("iree_linalg_ext."):
            tileable.append(op)
        cost = _op_cost(op)
        if cost is None or cost < best_cost:
            continue
        best, best_cost = op, cost
    if best is None:
        # A store of a value loaded straight from a binding is a copy.
        for op in region.walk():
            if isinstance(op, iree_tensor_ext.DispatchTensorStoreOpBase) and isinstance(
                op.value.owner, iree_tensor_ext.DispatchTensorLoadOpBase
            ):
                return "slow_memcpy"
        return ""
    summary = _summarize(best)
    if tileable:
        if not isinstance(best, linalg.UnPackOp) and isinstance(tileable[0], linalg.UnPackOp):
            summary = "unpack_" + summary
        if not isinstance(best, linalg.PackOp) and isinstance(tileable[-1], linalg.PackOp):
            summary += "_pack"
    return sanitize_symbol_name(summary)


def _rename_entry_points(module: ModuleOp, renames: dict[SymbolRefAttr, SymbolRefAttr]) -> None:
    for op in module.walk():
        if not isinstance(op, flow.DispatchOp):
            continue
        refs = [renames.get(ref, ref) for ref in op.entry_points.data]
        op.entry_points = ArrayAttr(refs)


@dataclass(frozen=True)
class AnnotateDispatchesPass(ModulePass):
    """Appends a summary of each dispatch's main op to its export and function names."""

    name = "iree-flow-annotate-dispatches"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        renames: dict[SymbolRefAttr, SymbolRefAttr] = {}
        for executable in op.ops:
            if not isinstance(executable, flow.ExecutableOp):
                continue
            inner = next((o for o in executable.body.block.ops if isinstance(o, ModuleOp)), None)
            if inner is None:
                continue
            by_name = {f.sym_name.data: f for f in functions(inner, kinds=("func.func",))}
            for export in executable.body.block.ops:
                if not isinstance(export, flow.ExecutableExportOp):
                    continue
                function = by_name.get(export.function_ref.root_reference.data)
                if function is None:
                    continue  # an external function: nothing to read
                summary = summarize_dispatch(function.body)
                if not summary:
                    continue
                new_name = f"{function.sym_name.data}_{summary}"
                old_ref = SymbolRefAttr(executable.sym_name.data, [export.sym_name.data])
                export.sym_name = StringAttr(new_name)
                export.function_ref = SymbolRefAttr(new_name)
                function.sym_name = StringAttr(new_name)
                renames[old_ref] = SymbolRefAttr(executable.sym_name.data, [new_name])
        _rename_entry_points(op, renames)

