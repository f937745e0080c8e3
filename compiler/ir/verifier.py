"""Verify a module op by op, reporting the failing op at its own location.

xDSL's ``Operation.verify`` raises the verifier's message with the whole module
attached but without saying which op failed. MLIR reports
``file:line:col: error: 'linalg.pack' op invalid inner_dims_pos vector`` at the
failing op; this walk does the same. As in MLIR, an op is verified before the ops
nested in it, verification stops at the first failure, and once every op is
valid each operand must dominate its use (``operand #0 does not dominate this
use``, with a note at the definition).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue

from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, SourceLoc, op_location

_XDSL_PREFIX = "Operation does not verify: "


def _message(op: Operation, err: Exception) -> str:
    text = str(err).split("\n\n", 1)[0].strip()
    if text.startswith(_XDSL_PREFIX):
        text = text[len(_XDSL_PREFIX) :]
    text = text.splitlines()[0] if text else type(err).__name__
    return f"'{op.name}' op {text}"


def _verify_encodings(op: Operation) -> None:
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


def verify_op_tree(op: Operation, fallback: SourceLoc) -> None:
    """Raise ``DiagnosticError`` at the first op of ``op``'s tree that does not verify.

    Every op is verified first (pre-order); then, as MLIR's verifier does once
    all ops are valid, every operand is checked to dominate its use.
    """
    # An explicit stack rather than recursion: a deeply nested program must get
    # its diagnostic, not a RecursionError.
    stack = [op]
    while stack:
        current = stack.pop()
        _verify_one(current, fallback)
        for region in reversed(current.regions):
            for block in reversed(region.blocks):
                stack.extend(reversed(list(block.ops)))
    _Dominance(fallback).verify(op)


def _verify_one(op: Operation, fallback: SourceLoc) -> None:
    try:
        op.verify(verify_nested_ops=False)
        _verify_encodings(op)
    except Exception as err:  # noqa: BLE001
        # Verifiers should only raise VerifyException, but some of xDSL's raise
        # plain exceptions; either way the op is invalid and gets its diagnostic.
        raise DiagnosticError(Diagnostic(op_location(op, fallback), _message(op, err))) from None


def _has_ssa_dominance(region: Region) -> bool:
    # A module body is a graph region in MLIR (RegionKind::Graph): its ops may
    # use each other in any order. Every other region here is an SSACFG region.
    return not isinstance(region.parent_op(), ModuleOp)


class _Dominance:
    """MLIR's operand dominance check (``verifyDominanceOfContainedRegions``).

    xDSL checks only that operands are defined somewhere, so a use before its
    definition in the same block, a use of an op's result inside the op itself
    or a value taken from a sibling region printed back as if valid.
    """

    def __init__(self, fallback: SourceLoc):
        self.fallback = fallback
        self.positions: dict[Block, dict[Operation, int]] = {}
        self.trees: dict[Region, tuple[set[Block], dict[Block, set[Block]]]] = {}

    def verify(self, root: Operation) -> None:
        stack = [root]
        while stack:
            op = stack.pop()
            for region in op.regions:
                for block in region.blocks:
                    reachable = self._reachable(block)
                    for inner in block.ops:
                        if reachable:
                            self._check_operands(inner)
                        if inner.regions:
                            stack.append(inner)

    def _check_operands(self, op: Operation) -> None:
        for index, value in enumerate(op.operands):
            if isinstance(value, BlockArgument):
                if not self._block_dominates(value.block, op):
                    self._fail(op, index, value)
            elif isinstance(value, OpResult) and not self._op_properly_dominates(value.op, op):
                self._fail(op, index, value)

    # -- dominance queries, as in mlir/lib/IR/Dominance.cpp -----------------

    def _position(self, op: Operation) -> int:
        block = op.parent_block()
        assert block is not None
        positions = self.positions.get(block)
        if positions is None:
            positions = {o: i for i, o in enumerate(block.ops)}
            self.positions[block] = positions
        return positions[op]

    def _tree(self, region: Region) -> tuple[set[Block], dict[Block, set[Block]]]:
        """The blocks reachable from the entry, and the dominators of each."""
        if (known := self.trees.get(region)) is not None:
            return known
        blocks = list(region.blocks)
        succs = {
            b: [s for s in (b.last_op.successors if b.last_op is not None else ()) if s.parent is region] for b in blocks
        }
        reachable: set[Block] = set()
        work = blocks[:1]
        while work:
            b = work.pop()
            if b not in reachable:
                reachable.add(b)
                work.extend(succs[b])
        preds: dict[Block, list[Block]] = {b: [] for b in blocks}
        for b in reachable:
            for s in succs[b]:
                preds[s].append(b)
        order = [b for b in blocks if b in reachable]
        doms = {b: set(order) for b in order}
        if order:
            doms[order[0]] = {order[0]}
        changed = True
        while changed:
            changed = False
            for b in order[1:]:
                new = {b} | set.intersection(*(doms[p] for p in preds[b]))
                if new != doms[b]:
                    doms[b], changed = new, True
        self.trees[region] = (reachable, doms)
        return reachable, doms

    def _reachable(self, block: Block) -> bool:
        region = block.parent
        if region is None or len(region.blocks) == 1:
            return True
        return block in self._tree(region)[0]

    def _blocks_properly_dominate(self, a: Block, b: Block) -> bool:
        """``a`` properly dominates ``b``, two blocks of one region."""
        region = a.parent
        assert region is not None
        if a is b:
            return not _has_ssa_dominance(region)
        reachable, doms = self._tree(region)
        if b not in reachable:
            return True  # an unreachable block is dominated by anything
        return a in doms[b]

    def _block_dominates(self, a: Block, user: Operation) -> bool:
        """A block argument of ``a`` dominates ``user``."""
        region = a.parent
        b = user.parent_block()
        if region is None or b is None:
            return False
        b = _ancestor_block_in(region, b)
        if b is None:
            return False
        return a is b or self._blocks_properly_dominate(a, b)

    def _op_properly_dominates(self, a: Operation, b: Operation) -> bool:
        a_block = a.parent_block()
        if a_block is None:
            return False
        region = a_block.parent
        assert region is not None
        if a is b:
            return not _has_ssa_dominance(region)
        ancestor = _ancestor_op_in(region, b)
        if ancestor is None:
            return False
        b_block = ancestor.parent_block()
        assert b_block is not None
        if a_block is b_block:
            if not _has_ssa_dominance(region):
                return True
            # `a is ancestor` means `a` encloses the use: its result is not
            # available inside its own regions.
            return self._position(a) < self._position(ancestor)
        return self._blocks_properly_dominate(a_block, b_block)

    def _fail(self, op: Operation, index: int, value: SSAValue) -> None:
        error = Diagnostic(op_location(op, self.fallback), f"operand #{index} does not dominate this use")
        user_block = op.parent_block()
        user_region = user_block.parent if user_block is not None else None
        if isinstance(value, OpResult):
            def_block = value.op.parent_block()
            def_region = def_block.parent if def_block is not None else None
            if def_block is user_block:
                where = " (op in the same block)"
            else:
                relation = _region_relation(def_region, user_region)
                where = f" (op {'is ' if relation.startswith('neither') else ''}{relation})"
            note = Diagnostic(op_location(value.op, self.fallback), "operand defined here" + where, "note")
        else:
            assert isinstance(value, BlockArgument)
            def_region = value.block.parent
            owner = def_region.parent_op() if def_region is not None else None
            block_index = list(def_region.blocks).index(value.block) if def_region is not None else 0
            where = _region_relation(def_region, user_region)
            note = Diagnostic(
                op_location(owner, self.fallback),
                f"operand defined as a block argument (block #{block_index} {where})",
                "note",
            )
        raise DiagnosticError(error, note)


def _ancestor_op_in(region: Region, op: Operation) -> Operation | None:
    """``op`` or the op enclosing it whose block is in ``region``."""
    current: Operation | None = op
    while current is not None:
        block = current.parent_block()
        if block is None:
            return None
        if block.parent is region:
            return current
        current = block.parent_op()
    return None


def _ancestor_block_in(region: Region, block: Block) -> Block | None:
    """``block`` or the block enclosing it that is in ``region``."""
    current: Block | None = block
    while current is not None:
        if current.parent is region:
            return current
        parent = current.parent_op()
        current = parent.parent_block() if parent is not None else None
    return None


def _region_relation(def_region, user_region) -> str:
    """Where a definition's region stands from its user's, in the words of MLIR's dominance note."""
    if def_region is user_region:
        return "in the same region"
    if _is_proper_ancestor(def_region, user_region):
        return "in a parent region"
    if _is_proper_ancestor(user_region, def_region):
        return "in a child region"
    return "neither in a parent nor in a child region"


def _is_proper_ancestor(outer: Region | None, inner: Region | None) -> bool:
    if outer is None or inner is None:
        return False
    op = inner.parent_op()
    while op is not None:
        region = op.parent_region()
        if region is outer:
            return True
        op = region.parent_op() if region is not None else None
    return False
