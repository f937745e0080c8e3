"""``iree-util-hoist-into-globals``: precompute constant expressions in initializers.

Data tiling relies on this pass to take the relayout of weights off the hot
path: once ``convert-encoding-to-flow`` has turned the ``set_encoding`` of a
constant into ``flow.tensor.encode %cst``, that encode is a constant expression,
and this pass moves it into a ``util.initializer`` that stores the encoded
tensor into a ``util.global``; the function then only loads the global.

    util.global private @__hoisted_tensor_513x1023xf32__encoded : tensor<513x1023xf32, #encoding>
    util.initializer {
      %cst = arith.constant dense<1.0> : tensor<513x1023xf32>
      %0 = flow.tensor.encode %cst : tensor<513x1023xf32> -> tensor<513x1023xf32, #encoding>
      util.global.store %0, @__hoisted_tensor_513x1023xf32__encoded : tensor<513x1023xf32, #encoding>
      util.return
    }
    ... %__hoisted_tensor_513x1023xf32__encoded = util.global.load immutable @__hoisted_tensor_513x1023xf32__encoded

Which values are constant, and which are worth a global, is decided by
``mini_iree.compiler.analysis.const_expr``. Source: IREE
``compiler/src/iree/compiler/Dialect/Util/Transforms/HoistIntoGlobals.cpp``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, NoneAttr, TensorType
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolOpInterface

from mini_iree.compiler.analysis.const_expr import (
    ConstExprAnalysis,
    ConstExprHoistingPolicy,
    ConstValueInfo,
    Outcome,
    is_dispatch_container,
)
from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.ir.locations import give_location
from mini_iree.compiler.ir.queries import nested_ops_post_order
from mini_iree.dialects import hal, util

# Attributes that say where data lives; hoisted globals and initializers must
# keep them so the precomputed value ends up on the right device.
_HOISTABLE_ATTRS = (hal.DeviceAffinityAttr, hal.DeviceOptimalAttr)


def hoisted_global_name(type_: Attribute) -> str:
    """``__hoisted_tensor_4x8xf32``, or ``__hoisted_tensor_4x8xf32__encoded`` for an encoded tensor."""
    if isinstance(type_, TensorType) and not isinstance(type_.encoding, NoneAttr):
        text = f"__hoisted_{TensorType(type_.element_type, type_.shape)}_encoded"
    else:
        text = f"__hoisted_{type_}"
    return re.sub(r"[^A-Za-z0-9_]", "_", text).removesuffix("_")


def _hoistable_attrs(op: Operation) -> dict[str, Attribute]:
    """Placement attributes of ``op`` and its ancestors; the innermost value of a name wins."""
    found: dict[str, Attribute] = {}
    current: Operation | None = op
    while current is not None:
        for name, value in current.attributes.items():
            # Only dialect attributes (`stream.affinity.default`) travel.
            if "." in name and isinstance(value, _HOISTABLE_ATTRS):
                found.setdefault(name, value)
        current = current.parent_op()
    return found


def _walk_outside_dispatches(op: Operation) -> Iterator[Operation]:
    """Pre-order walk that yields a dispatch container but not its body."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                yield child
                if not is_dispatch_container(child):
                    yield from _walk_outside_dispatches(child)


def _walk_post_order_reversed(op: Operation) -> list[Operation]:
    """The ops nested in ``op``: users before producers, nested ops before their parent.

    A snapshot, so erasing an op already visited is safe.
    """
    return nested_ops_post_order(op, reverse=True)[:-1]


class _Hoister:
    """Hoists the escapes of one module; one instance per pass run."""

    def __init__(self, module: ModuleOp, policy: ConstExprHoistingPolicy):
        self.module = module
        self.analysis = policy.analysis
        self.policy = policy
        self.symbols = {
            op.sym_name.data
            for op in module.body.block.ops
            # A nested `module` is a symbol op whose name is optional.
            if op.has_trait(SymbolOpInterface) and getattr(op, "sym_name", None) is not None
        }

    def hoist_function(self, function: Operation) -> None:
        hoisted: dict[SSAValue, util.GlobalOp] = {}
        order: dict[Operation, int] = {}
        for op in _walk_outside_dispatches(function):
            info = self.analysis.lookup_op(op)
            if info is None:
                continue
            order[op] = len(order)
            for result in op.results:
                result_info = self.analysis.lookup(result)
                if result_info is not None and self.policy.outcome(result_info) is Outcome.ENABLE_HOIST:
                    self._hoist(function, result, hoisted, order)

        # Replace the escapes in program order, once every initializer exists.
        for value, global_op in sorted(hoisted.items(), key=lambda item: order[_owner(item[0])]):
            load = util.GlobalLoadOp.of(global_op)
            # Named after the global, as IREE prints it, not after the value it replaces.
            load.result.name_hint = global_op.sym_name.data
            load.location = _owner(value).location
            Rewriter.insert_op(load, InsertPoint.after(_owner(value)))
            value.replace_all_uses_with(load.result)

    def _hoist(
        self,
        function: Operation,
        value: SSAValue,
        hoisted: dict[SSAValue, util.GlobalOp],
        order: dict[Operation, int],
    ) -> None:
        if value in hoisted:
            return
        attrs = _hoistable_attrs(function)
        initializer = util.InitializerOp(attributes=attrs)
        self.module.body.block.insert_op_before(initializer, function)
        body = initializer.body.block
        mapping: dict[SSAValue, SSAValue] = {}
        root = self.analysis.lookup_op(_owner(value))
        assert root is not None
        self._clone_tree(root, body, mapping, hoisted, order)
        # Every result of the root op gets a global, even those not asked for.
        for result in _owner(value).results:
            global_op = util.GlobalOp(self._unique(hoisted_global_name(result.type)), result.type, attributes=attrs)
            self.module.body.block.insert_op_before(global_op, initializer)
            hoisted[result] = global_op
            body.add_op(util.GlobalStoreOp(mapping[result], global_op.sym_name.data))
        body.add_op(util.ReturnOp())
        # The globals and their initializer are made for the hoisted op: they take its location.
        give_location([initializer, *(hoisted[r] for r in _owner(value).results)], _owner(value))

    def _clone_tree(
        self,
        info: ConstValueInfo,
        body: Block,
        mapping: dict[SSAValue, SSAValue],
        hoisted: dict[SSAValue, util.GlobalOp],
        order: dict[Operation, int],
    ) -> None:
        """Clone ``info``'s defining op into ``body`` after its producers; reuse globals already made."""
        if info.value in mapping:
            return
        if (global_op := hoisted.get(info.value)) is not None:
            # Initializers may read the globals they precede: not `immutable`.
            load = util.GlobalLoadOp(global_op.sym_name.data, global_op.type)
            body.add_op(load)
            mapping[info.value] = load.result
            return
        for producer in sorted(info.producers, key=lambda p: order.get(_owner(p.value), 0)):
            self._clone_tree(producer, body, mapping, hoisted, order)
        body.add_op(info.op.clone(value_mapper=mapping))

    def _unique(self, name: str) -> str:
        """The name, or ``name_0``, ``name_1``, ... as MLIR's symbol table renames on collision."""
        candidate, counter = name, 0
        while candidate in self.symbols:
            candidate = f"{name}_{counter}"
            counter += 1
        self.symbols.add(candidate)
        return candidate

    def erase_dead_const_exprs(self, functions: list[Operation]) -> None:
        """Erase the const-expr ops left without users (the hoisted trees, any dead constants)."""
        candidates = self.analysis.const_expr_operations()
        for function in functions:
            for op in _walk_post_order_reversed(function):
                if op in candidates and all(not r.uses for r in op.results):
                    candidates.discard(op)
                    Rewriter.erase_op(op)


def _owner(value: SSAValue) -> Operation:
    assert isinstance(value, OpResult)
    return value.op


@dataclass(frozen=True)
class HoistIntoGlobalsPass(ModulePass):
    """Moves constant expressions that escape into the program into ``util.initializer``s writing globals.

    Each escaping const-expr (see ``mini_iree.compiler.analysis.const_expr``) gets a
    private ``util.global`` of its type, an initializer computing it, and a
    ``util.global.load immutable`` at its old place; scalars and indices as
    tensors are. Never hoisted: values inside
    ``flow.dispatch.region``/``workgroups``, lone constants, sub-byte integers,
    non-leaf ops (``tensor.empty``, reshapes, fills, broadcasts, bit-extends),
    ``set_encoding``, and expressions whose result is more than
    ``max-size-increase-threshold`` bytes larger than their constant inputs.
    Existing initializers and nested modules are left alone.
    """

    name = "iree-util-hoist-into-globals"

    max_size_increase_threshold: int = 1048576

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        analysis = ConstExprAnalysis(op)
        policy = ConstExprHoistingPolicy(analysis, self.max_size_increase_threshold)
        hoister = _Hoister(op, policy)
        defined = functions(op, defined=True)
        for function in defined:
            hoister.hoist_function(function)
        hoister.erase_dead_const_exprs(defined)
