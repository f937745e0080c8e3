"""Dominance: every operand must dominate its use (MLIR's ``verifyDominanceOfContainedRegions``).

Checked once every op is valid, as MLIR's verifier does (``operand #0 does not
dominate this use``, with a note at the definition). ``climb`` finds, for the
uses to check, which ones plainly dominate (a block argument or an earlier op
of the block around the use) and which may not: only those go through the
general queries of :class:`Dominance`. It also finds, for each
isolated-from-above op, the nested ops that may read a value from above.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import IsolatedFromAbove

from mini_iree.compiler.ir.diagnostics import Diagnostic, DiagnosticError, SourceLoc, op_diagnostics, op_location
from mini_iree.compiler.ir.queries import op_has_trait
from mini_iree.compiler.ir.verifier.op_checks import IsolationScope
from mini_iree.compiler.ir.verifier.snapshot import OpRecord
from mini_iree.compiler.ir.xdsl_internals import first_op, next_op, operand_tuple


def climb(ops: Iterable[Operation], records: dict[int, OpRecord]) -> tuple[list[Operation], IsolationScope]:
    """Where each operand of ``ops`` comes from, seen from its user: the ops
    whose operands may not dominate them, and for isolated-from-above ops (by
    id) the ops nested in them that may read a value from above.

    From each user, the walk goes up the ops around it to the block defining
    the operand. A block argument found there dominates the use, and so does an
    op result defined there before the op around the use (by the places in
    ``records``' walk); anything else is left to ``Dominance``. An
    isolated-from-above op crossed on the way (the closest one around the
    user) gets the user in its list: only those can break its isolation.
    """
    suspects: list[Operation] = []
    scope: IsolationScope = {}
    get = records.get
    for op in ops:
        record = get(id(op))
        if record is None:
            continue  # not in the module
        suspect = False
        isolated = None
        for value in operand_tuple(op):
            kind = type(value)
            if kind is OpResult:
                definition = value.op
                target = definition.parent
                if target is op.parent:
                    # The common case: defined in the user's own block.
                    defined = get(id(definition))
                    if defined is None or defined.index >= record.index:
                        suspect = True
                    continue
            elif kind is BlockArgument:
                definition = None
                target = value.block
            else:  # an erased value: left to the general checks, as if from above
                definition = target = None
            found = None
            current: Operation | None = op
            while current is not None:
                block = current.parent
                if block is None:
                    break
                if block is target:
                    found = current
                    break
                region = block.parent
                current = region.parent if region is not None else None
                if current is not None and isolated is None and op_has_trait(current, IsolatedFromAbove):
                    isolated = current
            if found is None:
                suspect = True
            elif definition is not None:
                defined = get(id(definition))
                if defined is None or defined.index >= get(id(found)).index:
                    suspect = True
        if suspect:
            suspects.append(op)
        if isolated is not None:
            scope.setdefault(id(isolated), []).append(op)
    return suspects, scope


def _has_ssa_dominance(region: Region) -> bool:
    # A module body is a graph region in MLIR (RegionKind::Graph): its ops may
    # use each other in any order. Every other region here is an SSACFG region.
    return not isinstance(region.parent_op(), ModuleOp)


class Dominance:
    """MLIR's operand dominance check (``verifyDominanceOfContainedRegions``).

    xDSL checks only that operands are defined somewhere, so a use before its
    definition in the same block, a use of an op's result inside the op itself
    or a value taken from a sibling region printed back as if valid.
    """

    def __init__(self, fallback: SourceLoc):
        self.fallback = fallback
        # the position of each op (by id) in its block (by id), while verify runs
        self.positions: dict[int, dict[int, int]] = {}
        self.trees: dict[Region, tuple[set[Block], dict[Block, set[Block]]]] = {}

    def verify(self, root: Operation, only: dict[int, Operation] | None, suspects: list[Operation]) -> None:
        """Check the uses in ``root``'s tree, or only those of the ops in ``only`` (by id)
        (in the same order, so the first failure is the one a full check finds).

        Only ``suspects`` (see ``climb``) can fail: the others' operands plainly
        dominate them. Only if one of them fails is the tree walked in order, to
        report the failure a full check reports first.
        """
        for op in suspects:
            try:
                self._check_operands(op)
            except DiagnosticError:
                break
        else:
            return
        # Sets of ops hold their ids: an op's own __hash__ is Python code.
        needed: set[int] = set()  # the ops around those of `only`: where to look
        only_ids = None
        if only is not None:
            only_ids = only.keys()
            for op in only.values():
                parent = op.parent_op()
                while parent is not None and id(parent) not in needed:
                    needed.add(id(parent))
                    parent = parent.parent_op()
        self._verify_in_order(root, only_ids, needed)

    def _verify_in_order(self, root: Operation, only_ids, needed: set[int]) -> None:
        """MLIR's walk (``verifyDominanceOfContainedRegions``): the uses of each
        block in order, then the regions of the block's ops, innermost last op first."""
        stack = [root]
        while stack:
            op = stack.pop()
            for region in op.regions:
                for block in region.blocks:
                    reachable = self._reachable(block)
                    # Most operands are results of earlier ops of the same block
                    # or arguments of the block: those are checked against the
                    # ops seen so far, the rest through the general queries.
                    seen: set[int] = set()
                    inner = first_op(block)
                    while inner is not None:
                        key = id(inner)
                        if reachable and (only_ids is None or key in only_ids):
                            for value in operand_tuple(inner):
                                if type(value) is BlockArgument:
                                    if value.block is block:
                                        continue
                                elif isinstance(value, OpResult) and id(value.op) in seen:
                                    continue
                                self._check_operands(inner)
                                break
                        seen.add(key)
                        if inner.regions and (only_ids is None or key in needed):
                            stack.append(inner)
                        inner = next_op(inner)

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
        positions = self.positions.get(id(block))
        if positions is None:
            positions = {id(o): i for i, o in enumerate(block.ops)}
            self.positions[id(block)] = positions
        return positions[id(op)]

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
        error = op_diagnostics(op, f"operand #{index} does not dominate this use", self.fallback)
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
        raise DiagnosticError(*error, note)


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


