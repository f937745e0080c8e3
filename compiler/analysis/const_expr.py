"""Constant-expression analysis and hoisting policy (IREE's ``ConstExprAnalysis``).

A value is *const-expr* when it can be computed once, ahead of any call: it is
a constant (a ``ConstantLike`` op such as ``arith.constant``), a load of an
immutable ``util.global``, or the result of an eligible side-effect-free op
whose producers are all const-expr. Producers of an op with regions include the
values its nested ops capture from above, so ``linalg.generic`` bodies and
``flow.dispatch.region`` captures count.

``ConstExprHoistingPolicy`` then decides which const-expr values are worth
materializing as globals: the *escapes* (const-expr values consumed by
something that is not hoisted), excluding roots, non-leaf ops (``tensor.empty``,
reshapes, ``linalg.fill``, broadcasts, bit-extends), sub-byte integers, and
values whose storage grows past a threshold over the constants they derive from.
Ops of unregistered dialects are never const-expr, except the stand-ins IREE's
tests use (``iree_unregistered.const_expr``, ``non_leaf_const_expr``).

Sources: IREE ``compiler/src/iree/compiler/Dialect/Util/Analysis/Constant/
{ConstExpr,OpOracle}.cpp`` and the ``HoistableOpInterface`` models of
``ExternalInterfaces/UtilExternalModels.cpp``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum, auto

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerType,
    ModuleOp,
    ShapedType,
    TensorType,
    UnrankedTensorType,
    UnregisteredOp,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.traits import ConstantLike, IsolatedFromAbove

from mini_iree.compiler.analysis.functions import FUNCTION_LIKE, functions
from mini_iree.compiler.ir.queries import (
    instance_test,
    is_bit_extend_op,
    is_broadcast_op_interface,
    nested_ops,
    op_has_trait,
    side_effect_free,
)
from mini_iree.compiler.ir.xdsl_internals import operand_tuple
from mini_iree.dialects import flow, linalg, util

__all__ = [
    "ConstExprAnalysis",
    "ConstExprHoistingPolicy",
    "ConstValueInfo",
    "Outcome",
    "State",
    "is_dispatch_container",
    "is_legal_const_expr_type",
]


# ---------------------------------------------------------------------------
# Op oracle: which ops may be part of a constant expression, and which may be
# materialized on their own.
# ---------------------------------------------------------------------------

# Containers later outlined into isolated executables; values defined inside
# them can never be replaced by a global load.
_DISPATCH_CONTAINERS = frozenset({"flow.dispatch.region", "flow.dispatch.workgroups"})

# Pure metadata ops: fine inside a hoisted tree, never worth a global alone.
_NON_LEAF_OPS = frozenset(
    {
        "tensor.empty",
        "tensor.expand_shape",
        "tensor.collapse_shape",
        "tensor.extract_slice",
        "flow.tensor.splat",
        "flow.tensor.bitcast",
        "iree_tensor_ext.bitcast",
    }
)

# IREE attaches an "unhoistable" model to these: encodings must be made
# explicit (flow.tensor.encode) before they can be precomputed.
_UNHOISTABLE_OPS = frozenset({"iree_encoding.set_encoding", "flow.dispatch.workgroup_count", "linalg.index"})

# Region control flow: hoistable as a whole when its body is, never as a leaf.
_REGION_CONTROL_FLOW = frozenset({"scf.for", "scf.if", "scf.while"})

# Unregistered ops IREE's lit tests use to stand for const-expr and variable computations.
_UNREGISTERED_CONST_EXPR = "iree_unregistered.const_expr"
_UNREGISTERED_NON_LEAF_CONST_EXPR = "iree_unregistered.non_leaf_const_expr"
_UNREGISTERED_VAR_EXPR = "iree_unregistered.var_expr"


def is_dispatch_container(op: Operation) -> bool:
    """``flow.dispatch.region`` / ``flow.dispatch.workgroups``: bodies that become executables."""
    return op.name in _DISPATCH_CONTAINERS


# The class tests below run for every op of a module: see `instance_test`.
_is_scalar_type = instance_test(IntegerType, IndexType, AnyFloat)
_is_tensor_type = instance_test(TensorType, UnrankedTensorType)
_is_block = instance_test(Block)
_is_unregistered = instance_test(UnregisteredOp)
_is_linalg_structured = instance_test(LinalgStructuredOperation)
_is_function_like = instance_test(func.FuncOp, util.FuncOp, util.InitializerOp)
_is_global_load = instance_test(util.GlobalLoadOp)
_is_optimization_barrier = instance_test(util.OptimizationBarrierOp)
_decides_own_hoisting = instance_test(flow.TensorEncodeOp, linalg.PackOp, linalg.UnPackOp, LinalgStructuredOperation)


def is_legal_const_expr_type(type_: Attribute) -> bool:
    """Integers, indices, floats, and tensors of them (encoded or not): the value types IREE allows."""
    if _is_scalar_type(type_):
        return True
    if _is_tensor_type(type_):
        return is_legal_const_expr_type(type_.element_type)  # type: ignore[attr-defined]
    return False


def _is_atomically_hoistable(op: Operation) -> bool:
    """Ops hoisted as a unit: nothing nested inside them is a const-expr of its own."""
    return (
        _is_linalg_structured(op)
        or op.name == "flow.dispatch.workgroups"
        or op.name in _REGION_CONTROL_FLOW
    )


def _is_constant_like(op: Operation) -> bool:
    # An unregistered op has no traits (xDSL would answer yes to any).
    return not _is_unregistered(op) and op_has_trait(op, ConstantLike)


def _is_memory_effect_free(op: Operation) -> bool:
    if _is_unregistered(op):
        return False  # effects unknown, as MLIR assumes for unregistered ops
    # xDSL leaves a few arith ops (extsi, remui) without effect traits; every
    # arith op is free of memory effects in MLIR.
    return op.dialect_name() == "arith" or side_effect_free(op)


def _region_control_flow_is_hoistable(op: Operation) -> bool:
    for nested in op.walk():
        if nested is op:
            continue
        if isinstance(nested, LinalgStructuredOperation | linalg.PackOp | linalg.UnPackOp):
            continue
        if nested.name in _UNHOISTABLE_OPS or not _is_memory_effect_free(nested):
            return False
    return True


def _is_eligible(op: Operation) -> bool:
    """IREE's ``isEligibleConstExpr``: may ``op`` be computed ahead of time at all?"""
    if _is_optimization_barrier(op) or not op.results:
        return False
    if not all(is_legal_const_expr_type(r.type) for r in op.results):
        return False
    # Ops with an explicit hoisting model decide for themselves.
    if op.name in _UNHOISTABLE_OPS:
        return False
    if _decides_own_hoisting(op):
        return True
    if op.name in _REGION_CONTROL_FLOW:
        return _region_control_flow_is_hoistable(op)
    if any(_is_atomically_hoistable(parent) for parent in _ancestors(op)):
        return False
    # IREE's test carve-out for unregistered ops, which declare no effects:
    # `var_expr` never folds, `const_expr` and `non_leaf_const_expr` always do.
    if _is_unregistered(op):
        name = op.op_name.data  # type: ignore[attr-defined]
        if name == _UNREGISTERED_VAR_EXPR:
            return False
        if name in (_UNREGISTERED_CONST_EXPR, _UNREGISTERED_NON_LEAF_CONST_EXPR):
            return True
    return _is_memory_effect_free(op)


def _escaping_producers(op: Operation) -> list[SSAValue]:
    """The operands of ``op`` plus the values its nested ops capture from above (in order, no repeats)."""
    producers: dict[SSAValue, None] = dict.fromkeys(operand_tuple(op))
    if not op.regions or (not _is_unregistered(op) and op_has_trait(op, IsolatedFromAbove)):
        return list(producers)
    nested = nested_ops(op)
    # A value is captured from above when its block is none of the blocks in `op`.
    inside = {block for contained in nested for region in contained.regions for block in region.blocks}
    for user in nested[1:]:
        for operand in operand_tuple(user):
            owner = operand.owner
            if (owner if _is_block(owner) else owner.parent) not in inside:
                producers.setdefault(operand)
    return list(producers)


def _is_hoistable_leaf_op(op: Operation) -> bool:
    if isinstance(op, UnregisteredOp):
        return op.op_name.data != _UNREGISTERED_NON_LEAF_CONST_EXPR
    if op.name in _NON_LEAF_OPS or op.name in _REGION_CONTROL_FLOW:
        return False
    if isinstance(op, linalg.FillOp):
        # Fills fuse into their consumers; materializing them only costs memory.
        return False
    if isinstance(op, linalg.GenericOp):
        if not any(isinstance(v.type, ShapedType) for v in op.inputs):
            return False  # fill-like or index sequences
        return not is_bit_extend_op(op) and not is_broadcast_op_interface(op)
    return True


# ---------------------------------------------------------------------------
# The analysis.
# ---------------------------------------------------------------------------


class State(Enum):
    UNANALYZED = auto()  # a placeholder for a producer nobody asked about yet
    UNKNOWN = auto()  # waiting on producers
    CONSTANT = auto()
    NON_CONSTANT = auto()


@dataclass(eq=False)
class ConstValueInfo:
    """What the analysis knows about one SSA value."""

    value: SSAValue
    state: State = State.UNANALYZED
    is_root: bool = False
    # Ordered sets (dicts with None values) so that results are deterministic.
    roots: dict[SSAValue, None] = field(default_factory=dict)
    producers: dict[ConstValueInfo, None] = field(default_factory=dict)
    consumers: dict[ConstValueInfo, None] = field(default_factory=dict)

    @property
    def is_const_expr(self) -> bool:
        return self.state is State.CONSTANT

    @property
    def op(self) -> Operation:
        assert isinstance(self.value, OpResult), "const-expr values have a defining op"
        return self.value.op

    def has_non_analyzed_consumer(self) -> bool:
        """Used by a zero-result op (a return, a store): an escape the analysis cannot represent."""
        return any(not use.operation.results for use in self.value.uses)


class ConstExprAnalysis:
    """Finds every value of ``module``'s functions that derives only from constants and immutable globals.

    Only ops directly in ``module`` are explored (functions and initializers),
    not nested modules, which are separate programs. Any change to the analyzed
    ops invalidates the analysis.
    """

    def __init__(self, module: ModuleOp):
        self._info: dict[SSAValue, ConstValueInfo] = {}
        self.infos: list[ConstValueInfo] = []  # creation order: roots, then defs before uses
        self._worklist: list[ConstValueInfo] = []

        roots = self._find_roots(module)
        for value in roots:
            info = self._add(value)
            info.is_root = True
            info.state = State.CONSTANT
            info.roots[value] = None
        for value in roots:
            for use in value.uses:
                self._expand_to_use_or_use_parent(roots[value], use.operation)
        self._resolve()
        for consumer in self.infos:
            for producer in consumer.producers:
                producer.consumers[consumer] = None

    # -- queries ------------------------------------------------------------

    def lookup(self, value: SSAValue) -> ConstValueInfo | None:
        return self._info.get(value)

    def lookup_op(self, op: Operation) -> ConstValueInfo | None:
        """The info of ``op``'s first result, if every result was analyzed (they share one state)."""
        if not op.results or any(r not in self._info for r in op.results):
            return None
        return self._info[op.results[0]]

    def is_const_expr_value(self, value: SSAValue) -> bool:
        info = self._info.get(value)
        return info is not None and info.is_const_expr

    def const_expr_operations(self) -> set[Operation]:
        """Every op defining a const-expr value, roots included."""
        return {info.op for info in self.infos if info.is_const_expr}

    # -- construction ---------------------------------------------------------

    @staticmethod
    def _find_roots(module: ModuleOp) -> dict[SSAValue, Operation]:
        immutable_globals = {
            op.sym_name.data
            for op in module.body.block.ops
            if isinstance(op, util.GlobalOp)
            and not op.is_global_mutable
            and is_legal_const_expr_type(op.type)
        }
        roots: dict[SSAValue, Operation] = {}
        for function in functions(module, kinds=FUNCTION_LIKE, defined=True):
            for op in nested_ops(function):
                if _is_global_load(op) and op.global_.root_reference.data in immutable_globals:  # type: ignore[attr-defined]
                    roots[op.result] = op
                elif _is_constant_like(op) and all(is_legal_const_expr_type(r.type) for r in op.results):
                    roots.update(dict.fromkeys(op.results, op))
        return roots

    def _add(self, value: SSAValue) -> ConstValueInfo:
        info = ConstValueInfo(value)
        self._info[value] = info
        self.infos.append(info)
        return info

    def _expand_to_use_or_use_parent(self, defining_op: Operation, user: Operation) -> None:
        # A use nested one level down (a linalg body, a dispatch region) makes
        # the enclosing op the consumer.
        if defining_op.parent_op() is not user.parent_op():
            parent = user.parent_op()
            if parent is not None and defining_op.parent_op() is parent.parent_op():
                self._expand_to_op(parent)
            return
        self._expand_to_op(user)

    def _expand_to_op(self, op: Operation) -> None:
        pending = [op]
        while pending:
            self._expand_step(pending.pop(), pending)

    def _expand_step(self, op: Operation, pending: list[Operation]) -> None:
        # An op reached again through another consumer has nothing left to
        # analyze; deciding its eligibility and producers again is wasted work.
        for result in op.results:
            info = self._info.get(result)
            if info is None or info.state is State.UNANALYZED:
                break
        else:
            return
        eligible = _is_eligible(op)
        producers = _escaping_producers(op)
        for result in op.results:
            info = self._info.get(result)
            if info is not None and info.state is not State.UNANALYZED:
                continue
            if info is None:
                info = self._add(result)
            for producer in producers:
                if (producer_info := self._info.get(producer)) is None:
                    producer_info = self._add(producer)
                    # Keep an op's results all analyzed or all not.
                    if isinstance(producer, OpResult):
                        for sibling in producer.op.results:
                            if sibling not in self._info:
                                self._add(sibling)
                info.producers[producer_info] = None
            if not eligible:
                info.state = State.NON_CONSTANT
                continue
            info.state = State.UNKNOWN
            self._worklist.append(info)
            for producer in producers:
                if not isinstance(producer, OpResult):
                    # A block argument: a function input or a loop variable.
                    info.state = State.NON_CONSTANT
                    break
                pending.append(producer.op)

    def _resolve(self) -> None:
        while self._worklist:
            current, self._worklist = self._worklist, []
            for info in current:
                if info.state is not State.UNKNOWN:
                    continue
                producer_states = {p.state for p in info.producers}
                if State.NON_CONSTANT in producer_states or State.UNANALYZED in producer_states:
                    info.state = State.NON_CONSTANT
                    continue
                if State.UNKNOWN in producer_states:
                    self._worklist.append(info)
                    continue
                info.state = State.CONSTANT
                for producer in info.producers:
                    info.roots.update(producer.roots)
                for use in info.value.uses:
                    self._expand_to_use_or_use_parent(info.op, use.operation)


def _ancestors(op: Operation) -> Iterator[Operation]:
    parent = op.parent_op()
    while parent is not None and not _is_function_like(parent):
        yield parent
        parent = parent.parent_op()


# ---------------------------------------------------------------------------
# The hoisting policy.
# ---------------------------------------------------------------------------


class Outcome(Enum):
    UNDECIDED = auto()
    ENABLE_HOIST = auto()
    DISABLE_HOIST = auto()


def _storage_bytes(element_count: int, element_type: Attribute) -> int:
    """IREE's ``getRoundedPhysicalStorageSize``.

    Sub-byte elements are packed; others take a power-of-two number of bytes.
    """
    if isinstance(element_type, IndexType):
        bits = 64
    elif isinstance(element_type, IntegerType):
        bits = element_type.width.data
    elif isinstance(element_type, AnyFloat):
        bits = element_type.bitwidth
    else:
        return 0
    if bits < 8 and 8 % bits == 0:
        return (element_count * bits + 7) // 8
    byte_width = 1
    while byte_width * 8 < bits:
        byte_width *= 2
    return element_count * byte_width


def _grows_too_much(info: ConstValueInfo, threshold: int) -> bool:
    """Would materializing ``info`` store more than ``threshold`` bytes beyond the constants it reads?"""
    in_size = 0
    for root in info.roots:
        if isinstance(root.type, ShapedType):
            # Dynamic extents count as 1: a lower bound on the input size.
            count = 1
            for dim in root.type.get_shape():
                count *= dim if dim != DYNAMIC_INDEX else 1
            in_size += _storage_bytes(count, root.type.get_element_type())
    out_size = 0
    if isinstance(info.value.type, ShapedType):
        shape = info.value.type.get_shape()
        if DYNAMIC_INDEX in shape:
            return True  # an unbounded increase
        count = 1
        for dim in shape:
            count *= dim
        out_size = _storage_bytes(count, info.value.type.get_element_type())
    return out_size > in_size + threshold


def is_hoistable_leaf(info: ConstValueInfo) -> bool:
    """May ``info``'s value be stored in a global of its own (IREE's ``isHoistableConstExprLeaf``)?

    IREE's per-op rules, then its refusal of sub-byte integers (they are packed
    or cast by some consumer in any legal program). Scalars qualify as tensors
    do: a const-expr ``i32`` computed by an op canonicalization cannot fold is
    worth computing once.
    """
    if not _is_hoistable_leaf_op(info.op):
        return False
    type_ = info.value.type
    element = type_.element_type if isinstance(type_, TensorType) else type_
    return not (isinstance(element, IntegerType) and element.width.data % 8 != 0)


@dataclass
class ConstExprHoistingPolicy:
    """Decides, for every analyzed value, whether it becomes a global (IREE's ``ConstExprHoistingPolicy``)."""

    analysis: ConstExprAnalysis
    max_size_increase_threshold: int
    _outcomes: dict[ConstValueInfo, Outcome] = field(default_factory=dict)

    def __post_init__(self) -> None:
        worklist = [info for info in self.analysis.infos if info.state is not State.UNANALYZED]
        for info in worklist:
            self._outcomes[info] = self._invariant_decision(info)
        changed = True
        while changed:
            changed = False
            for info in worklist:
                if self._outcomes[info] is Outcome.UNDECIDED:
                    self._outcomes[info] = self._escape_decision(info)
                    changed |= self._outcomes[info] is not Outcome.UNDECIDED

    def outcome(self, info: ConstValueInfo) -> Outcome:
        return self._outcomes.get(info, Outcome.UNDECIDED)

    def _invariant_decision(self, info: ConstValueInfo) -> Outcome:
        if not info.is_const_expr or info.is_root:
            return Outcome.DISABLE_HOIST
        if not is_hoistable_leaf(info):
            return Outcome.DISABLE_HOIST
        if _grows_too_much(info, self.max_size_increase_threshold):
            return Outcome.DISABLE_HOIST
        return Outcome.UNDECIDED

    def _escape_decision(self, info: ConstValueInfo) -> Outcome:
        """Hoist when the value flows into something that stays in the program."""
        if info.has_non_analyzed_consumer():
            return Outcome.ENABLE_HOIST
        for consumer in info.consumers:
            if self.outcome(consumer) is not Outcome.DISABLE_HOIST:
                continue
            # A consumer that does not take the value as an operand captures
            # it implicitly (a use inside its regions).
            operand_indices = [i for i, v in enumerate(consumer.op.operands) if v is info.value]
            if not operand_indices or _is_hoistable_consuming_operand(consumer.op, operand_indices[0]):
                return Outcome.ENABLE_HOIST
        return Outcome.DISABLE_HOIST


def _is_hoistable_consuming_operand(op: Operation, index: int) -> bool:
    # Only flow.dispatch.workgroups refuses some (tied) operands; we have none.
    return True
