"""Verifying one op: xDSL's checks, without xDSL's generic overhead where it can be shown to hold.

``verify_one`` verifies an op (not the ops nested in it) and raises a
``DiagnosticError`` at the op when it is invalid. Its fast path is a plan per
op class (:class:`_Plan`): xDSL's ``OpDef.verify`` looks everything up again
for every op (which operand groups are variadic, where the segment sizes live,
each group through a descriptor); a plan does those lookups once and then runs
the same constraint checks. A plan only ever accepts: an op it does not cover,
and any failure, go to ``Operation.verify``, which raises xDSL's own message.

An op's own constraints are remembered per signature (``_Plan.signature``):
types and attributes are immutable, so an op whose signature was found valid
is valid again. For classes that declare ``VerifierReadsOnlyItself``
(``dialects/traits.py``), the class's own ``verify_`` is part of what is
remembered.
"""

from __future__ import annotations

from itertools import chain

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, SymbolRefAttr, i32
from xdsl.ir import Attribute, Block, ErasedSSAValue, Operation
from xdsl.irdl import IRDLOperation
from xdsl.irdl.constraints import VerificationContext
from xdsl.irdl.operations import (
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    AttrSizedSegments,
    OptAttributeDef,
    OptionalDef,
    OptPropertyDef,
    OptSingleBlockRegionDef,
    SingleBlockRegionDef,
    VariadicDef,
    VarSingleBlockRegionDef,
)
from xdsl.traits import IsolatedFromAbove, IsTerminator, NoTerminator, OpTrait

from mini_iree.compiler.ir.diagnostics import DiagnosticError, SourceLoc, op_diagnostics
from mini_iree.compiler.ir.memo import ClassMemo, IdentityMemo, Memo
from mini_iree.compiler.ir.queries import op_has_trait
from mini_iree.dialects.support import canonical
from mini_iree.compiler.ir.xdsl_internals import (
    block_arg_tuple,
    first_block,
    first_op,
    generated_verifier_parts,
    last_block,
    last_op,
    next_block,
    next_op,
    operand_tuple,
    successor_tuple,
    value_type,
)

#: For each isolated-from-above op being verified (by id), the ops nested in it
#: that may read a value from above (``dominance.climb``); an op missing here
#: has none.
IsolationScope = dict[int, list[Operation]]

_XDSL_PREFIX = "Operation does not verify: "


def verify_one(op: Operation, fallback: SourceLoc, own: bool, isolation_scope: IsolationScope) -> None:
    """Verify ``op`` (not the ops nested in it), raising its diagnostic if it is invalid.

    Without ``own``, the op's own constraints and tensor encodings are known
    to hold (see ``_Plan.check``).
    """
    try:
        if not _verifies_fast(op, own, isolation_scope):
            op.verify(verify_nested_ops=False)
            if own:
                verify_encodings(op)
    except Exception as err:  # noqa: BLE001
        # Verifiers should only raise VerifyException, but some of xDSL's raise
        # plain exceptions; either way the op is invalid and gets its diagnostic.
        raise DiagnosticError(*op_diagnostics(op, _message(op, err), fallback)) from None


def _message(op: Operation, err: Exception) -> str:
    text = str(err).split("\n\n", 1)[0].strip()
    if text.startswith(_XDSL_PREFIX):
        text = text[len(_XDSL_PREFIX) :]
    text = text.splitlines()[0] if text else type(err).__name__
    if text.startswith(f"Operation {op.name} terminates block in") and text.endswith("but is not a terminator"):
        # MLIR's verifier says this of the block, at its last op, which it prints.
        from mini_iree.compiler.ir.printer import print_module_to_string

        return f"block with no terminator, has {print_module_to_string(op, generic=True, local_scope=True).strip()}"
    return f"'{op.name}' op {text}"


def verify_encodings(op: Operation) -> None:
    """Check tensor encodings against the tensors carrying them.

    MLIR verifies a tensor type's encoding when the type is built
    (``VerifiableTensorEncoding``); xDSL has no such hook, so encodings that
    define ``verify_encoding(shape, element_type)`` are checked here, for every
    type an op defines.
    """
    types = [r.type for r in op.results]
    types += [a.type for region in op.regions for block in region.blocks for a in block.args]
    for ty in types:
        encoding = getattr(ty, "encoding", None)
        check = getattr(encoding, "verify_encoding", None)
        if check is not None:
            check(ty.get_shape(), ty.get_element_type())  # type: ignore[attr-defined]


def _verifies_fast(op: Operation, own: bool, isolation_scope: IsolationScope) -> bool:
    """True if ``op`` is valid by the checks ``Operation.verify(verify_nested_ops=False)``
    makes and (with ``own``) its tensor encodings are; False if that could not
    be shown here (the op may still be valid)."""
    plan = _PLANS.lookup(type(op), _Plan)
    if not plan.usable:
        return False
    try:
        # (ErasedSSAValue has no subclasses: comparing the classes is isinstance)
        if own and ErasedSSAValue in map(type, operand_tuple(op)):
            return False
        # Operation.verify's terminator rules (no successors here, see _Plan).
        block = op.parent
        if block is not None and next_op(op) is None:  # the op ends its block
            region = block.parent
            if region is not None:
                parent = region.parent
                needs_terminator = first_block(region) is not last_block(region) or (
                    parent is not None and not op_has_trait(parent, NoTerminator)
                )
                if needs_terminator and not op_has_trait(op, IsTerminator):
                    return False
        return plan.check(op, own, isolation_scope)
    except Exception:  # noqa: BLE001 - xDSL reports it, with its own message
        return False


# ---------------------------------------------------------------------------
# Which ops verify the same whatever changes around them
# ---------------------------------------------------------------------------


def reads_only_itself(cls: type[Operation]) -> bool | None:
    """Whether verifying an op of ``cls`` reads only the op itself and what is nested in it.

    For an op checked by a plan (no xDSL fallback) whose own verifier is empty
    or declared ``VerifierReadsOnlyItself``: False if its traits check nothing
    (the op is valid anywhere but at the end of a block that needs a
    terminator), True if its only checking trait is ``IsTerminator`` (valid at
    the end of its block). None otherwise: traits reading the parent or the
    nested ops (``HasParent``, ``IsolatedFromAbove``...). Such an op,
    unchanged, need not be verified again when an op around it or a producer
    of its operands changes, as long as it stays where the answer says.
    """
    return _READS_ONLY_ITSELF.lookup(cls, _reads_only_itself)


def _reads_only_itself(cls: type[Operation]) -> bool | None:
    plan = plan_of(cls)
    if not plan.usable or (plan.custom is not None and not plan.custom_keyed):
        return None
    if not plan.traits and not plan.isolated:
        return False
    if not plan.isolated and len(plan.traits) == 1 and type(getattr(plan.traits[0], "__self__", None)) is IsTerminator:
        return True
    return None


_READS_ONLY_ITSELF: ClassMemo[bool | None] = ClassMemo("verifier: ops whose verification reads only themselves")


# ---------------------------------------------------------------------------
# Isolation from above
# ---------------------------------------------------------------------------


def _block_is_inside(block: Block, op: Operation) -> bool:
    """``block`` is in a region of ``op``, at any depth, but not inside an
    isolated-from-above op nested in ``op``."""
    current: Block | None = block
    while current is not None:
        region = current.parent
        parent = region.parent if region is not None else None
        if parent is op:
            return True
        if parent is None or op_has_trait(parent, IsolatedFromAbove):
            return False
        current = parent.parent
    return False


def _isolated_from_above(op: Operation, isolation_scope: IsolationScope) -> bool:
    """xDSL's ``IsolatedFromAbove`` check, without an ancestor walk per operand.

    Every operand of an op nested in ``op`` (but not in a nested isolated op,
    which checks itself) must be defined in one of the blocks nested in ``op``
    (not in a nested isolated op either). Only the nested ops that may read a
    value from above (``isolation_scope``, see ``dominance.climb``) are checked.
    """
    # Whether each block met is nested in `op`, remembered: operands come from a few blocks.
    inside: dict[int, bool] = {}  # by id(block)
    for inner in isolation_scope.get(id(op), ()):
        for value in operand_tuple(inner):
            owner = value.owner
            block = owner if isinstance(owner, Block) else owner.parent
            known = inside.get(id(block)) if block is not None else False
            if known is None:
                known = inside[id(block)] = _block_is_inside(block, op)  # type: ignore[arg-type]
            if not known:
                return False
    return True


# ---------------------------------------------------------------------------
# Checking an op against its IRDL definition
# ---------------------------------------------------------------------------


def plan_of(cls: type[Operation]) -> _Plan:
    """The plan of ``cls``, made once."""
    return _PLANS.lookup(cls, _Plan)


_PLANS: ClassMemo[_Plan] = ClassMemo("verifier: IRDL checks per op class")

# Signatures (``_Plan.signature``) already checked: whether the op's own
# constraints held, and the objects whose ids make the signature (kept alive so
# that no other object takes one of those ids meanwhile).
_SIGNATURES: Memo[tuple, tuple[bool, list[object]]] = Memo("verifier: op signatures checked", 1 << 16)


class _Plan:
    """The IRDL checks of one op class, looked up once."""

    def __init__(self, cls: type[Operation]):
        self.usable = False
        self.custom = None
        self.custom_keyed = self.key_terminators = self.isolated = False
        self.traits: list = []
        if not issubclass(cls, IRDLOperation):
            return
        parts = generated_verifier_parts(cls)
        if parts is None:
            return  # a class that replaced IRDL's `verify_`: left to xDSL
        op_def, custom = parts
        # (Operation's own `verify_` checks nothing)
        self.custom = None if custom is Operation.verify_ else custom
        if self.custom is not None:
            # (imported here: mini-iree-opt on a module without ops of our
            # dialects loads no dialect module)
            from mini_iree.dialects.traits import VerifierReadsOnlyItself

            declared = cls.get_trait(VerifierReadsOnlyItself)
            if declared is not None:
                # The own verifier reads only what the signature holds, with the
                # terminators of the regions' entry blocks for some classes.
                self.custom_keyed = True
                self.key_terminators = declared.reads_entry_terminators
        sized_options = [o for o in op_def.options if isinstance(o, AttrSizedSegments)]
        if any(not isinstance(o, (AttrSizedOperandSegments, AttrSizedResultSegments)) for o in sized_options):
            return
        if any(isinstance(d, VariadicDef) for _, d in op_def.regions) or op_def.successors:
            return

        def groups(defs, option_type):
            # 1: exactly one value, 2: optional, 3: variadic
            kinds = [(d.constr, 2 if isinstance(d, OptionalDef) else 3 if isinstance(d, VariadicDef) else 1) for _, d in defs]
            sized = next((o for o in sized_options if isinstance(o, option_type)), None)
            return sized, kinds

        self.operands = groups(op_def.operands, AttrSizedOperandSegments)
        self.results = groups(op_def.results, AttrSizedResultSegments)
        self.regions = [
            (d, isinstance(d, (SingleBlockRegionDef, VarSingleBlockRegionDef, OptSingleBlockRegionDef)))
            for _, d in op_def.regions
        ]
        self.property_names = set(op_def.properties)
        self.properties = [(n, d.constr, isinstance(d, OptPropertyDef)) for n, d in op_def.properties.items()]
        self.attributes = [(n, d.constr, isinstance(d, OptAttributeDef)) for n, d in op_def.attributes.items()]
        # Traits that check nothing (Pure, ConstantLike...) are not called at
        # all; isolation from above is checked by `_isolated_from_above`.
        self.isolated = any(isinstance(t, IsolatedFromAbove) for t in op_def.traits)
        self.traits = [
            t.verify
            for t in op_def.traits
            if type(t).verify is not OpTrait.verify and not isinstance(t, IsolatedFromAbove)
        ]
        self.usable = True

    def check(self, op: Operation, own: bool, isolation_scope: IsolationScope) -> bool:
        """True if ``op`` satisfies its definition and its own verifier; False if xDSL must decide.

        With ``own``, the tensor encodings of the types the op defines are
        checked too (raising as ``verify_encodings`` does). Without it, the
        op's operand, result, attribute, property and region constraints and
        its encodings are known to hold: only the traits, and an own verifier
        that may read more than those, are checked.
        """
        # (a terminator read by the own verifier can change without the op)
        if own or self.key_terminators:
            key, objects = self.signature(op)
            holds, _ = _SIGNATURES.lookup(key, lambda: (self._signature_holds(op), objects))
            if not holds:
                return False
        for trait in self.traits:
            if trait(op) is False:
                return False
        if self.isolated and not _isolated_from_above(op, isolation_scope):
            return False
        if self.custom is not None and not self.custom_keyed:
            self.custom(op)
        return True

    def _signature_holds(self, op: Operation) -> bool:
        """The op's own constraints, its tensor encodings and a keyed own verifier hold
        (False: xDSL must decide; raises if invalid)."""
        if not self._check_own(op):
            return False
        verify_encodings(op)
        if self.custom_keyed:
            self.custom(op)  # type: ignore[misc]
        return True

    def signature(self, op: Operation) -> tuple[tuple, list[object]]:
        """What the op's own constraints read, as ids of canonical objects, and those objects.

        Types and attributes are immutable, so the values an op was found
        valid with are valid again: an op whose signature was found valid (own
        constraints, tensor encodings and, for ``custom_keyed`` classes, the own
        verifier) is not checked twice. The signature holds the plan (so the op
        class), the operand and result types, the argument types of each block
        of each region (encodings are checked for all of them), the successor
        count, and the property and attribute names and values (canonical
        objects too: equal names and values give equal signatures).
        """
        canon = canonical
        # (maps rather than comprehensions: this runs for every op verified)
        objects: list[object] = [self, *map(canon, map(value_type, operand_tuple(op))), None]
        objects += map(canon, map(value_type, op.results))
        for region in op.regions:
            objects.append(None)
            entry = block = first_block(region)
            while block is not None:
                objects += map(canon, map(value_type, block_arg_tuple(block)))
                objects.append(True)  # ends a block
                block = next_block(block)
            if entry is not None and self.key_terminators:
                terminator = last_op(entry)
                objects.append(type(terminator))
                if terminator is not None:
                    objects += map(canon, map(value_type, operand_tuple(terminator)))
        objects.append(len(successor_tuple(op)))
        # Names and values, one after the other.
        if op.properties:
            objects += map(canon, chain.from_iterable(op.properties.items()))
        objects.append(None)
        if op.attributes:
            objects += map(canon, chain.from_iterable(op.attributes.items()))
        return tuple(map(id, objects)), objects

    def _check_own(self, op: Operation) -> bool:
        context = VerificationContext()
        for (sized, kinds), values in ((self.operands, op.operands), (self.results, op.results)):
            types = [v.type for v in values]
            if sized is None:
                # Without segment sizes, every variadic group has the same size.
                variadic = sum(1 for _, kind in kinds if kind != 1)
                if not variadic:
                    if len(types) != len(kinds):
                        return False
                    for (constr, _), ty in zip(kinds, types):
                        constr.verify((ty,), context)
                    continue
                each, rest = divmod(len(types) - (len(kinds) - variadic), variadic)
                if each < 0 or rest or (each > 1 and any(kind == 2 for _, kind in kinds)):
                    return False
                sizes = [1 if kind == 1 else each for _, kind in kinds]
            else:
                container = op.properties if sized.as_property else op.attributes
                sizes_attr = container.get(sized.attribute_name)
                if not isinstance(sizes_attr, DenseArrayBase) or sizes_attr.elt_type != i32:
                    return False
                sizes = sizes_attr.get_values()
                if len(sizes) != len(kinds) or sum(sizes) != len(types):
                    return False
            start = 0
            for (constr, kind), size in zip(kinds, sizes):
                if size < 0 or (kind == 1 and size != 1) or (kind == 2 and size > 1):
                    return False
                constr.verify(tuple(types[start : start + size]), context)
                start += size
        regions = op.regions
        if len(regions) != len(self.regions) or op.successors:
            return False
        for region, (region_def, single_block) in zip(regions, self.regions):
            if single_block and len(region.blocks) != 1:
                return False
            entry = region.first_block
            if entry is not None:
                region_def.entry_args.verify(entry.arg_types, context)
        properties = op.properties
        for name, constr, optional in self.properties:
            if name not in properties:
                if optional:
                    continue
                return False
            constr.verify(properties[name], context)
        if any(name not in self.property_names for name in properties):
            return False
        attributes = op.attributes
        for name, constr, optional in self.attributes:
            if name not in attributes:
                if optional:
                    continue
                return False
            constr.verify(attributes[name], context)
        return True


# ---------------------------------------------------------------------------
# Ops naming a symbol
# ---------------------------------------------------------------------------


def names_a_symbol(op: Operation) -> bool:
    """Whether one of the op's attributes or properties names a symbol."""
    lookup = _NAMES_SYMBOL.lookup
    for mapping in (op.attributes, op.properties):
        for attr in mapping.values():
            if lookup(attr, _names_symbol):
                return True
    return False


def _names_symbol(attr: Attribute) -> bool:
    return isinstance(attr, SymbolRefAttr) or (
        isinstance(attr, ArrayAttr) and any(isinstance(a, SymbolRefAttr) for a in attr.data)
    )


# Attributes are immutable: whether one names a symbol is remembered per object.
_NAMES_SYMBOL: IdentityMemo[Attribute, bool] = IdentityMemo("verifier: attributes naming a symbol")
