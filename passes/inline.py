"""``inline``: MLIR's inliner, on ``func.call`` and ``util.call``.

IREE runs it right after wrapping the entry points (the ABI pipeline:
``iree-abi-wrap-entry-points``, ``inline``, canonicalize, cse, symbol-dce), so
that dispatch creation and stream conversion see one flat function per entry
point: a private helper reached by ``func.call`` would otherwise keep tensor
calls that nothing later converts.

Each call to a function of the module with a one-block body is replaced by a
copy of that body, callees first (a helper calling a helper is flattened
completely). Left alone, as MLIR leaves them: calls to declarations, calls
between functions that reach each other (recursion), calls marked ``no_inline``
and callees marked ``no_inline`` (``func.func``) or
``inlining_policy = #util.inline.never`` (``util.func``). A callee with several
blocks is left alone too (mini-iree does not split the caller's block). A
private function whose last call was inlined is erased, as MLIR's inliner
erases dead callables.

Options as MLIR spells them: ``default-pipeline`` (``canonicalize``) is the
simplification the inliner runs, here once on the module after inlining (MLIR
runs it on each function); empty, nothing runs. ``max-iterations`` (4) bounds
MLIR's simplify-and-inline rounds within a recursive group; it is accepted,
and one round inlines every call mini-iree inlines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    DictionaryAttr,
    LocationAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from mini_iree.compiler.analysis.functions import functions
from mini_iree.compiler.ir.queries import instance_test, nested_ops
from mini_iree.dialects import util

_is_call: Callable[[object], bool] = instance_test(func.CallOp, util.CallOp)


def _callee_name(call: Operation) -> str:
    callee = call.properties["callee"]
    assert isinstance(callee, SymbolRefAttr)
    return callee.root_reference.data


def _body_block(function: Operation) -> Block | None:
    """The function's only block; None for a declaration or a body of several blocks."""
    blocks = function.regions[0].blocks if function.regions else ()
    return blocks.first if len(blocks) == 1 else None


def _never_inlined(function: Operation) -> bool:
    policy = function.attributes.get("inlining_policy")
    return (
        "no_inline" in function.attributes
        or "no_inline" in function.properties
        or (policy is not None and "never" in str(policy))
    )


def _is_private(function: Operation) -> bool:
    visibility = function.properties.get("sym_visibility") or function.attributes.get("sym_visibility")
    return isinstance(visibility, StringAttr) and visibility.data == "private"


def _symbol_references(attr: Attribute, into: set[str]) -> None:
    if isinstance(attr, SymbolRefAttr):
        into.add(attr.root_reference.data)
    elif isinstance(attr, ArrayAttr):
        for item in attr.data:
            _symbol_references(item, into)
    elif isinstance(attr, DictionaryAttr):
        for item in attr.data.values():
            _symbol_references(item, into)


def _referenced_symbols(module: ModuleOp) -> set[str]:
    """Every symbol some op of the module names (calls, globals, dispatch targets...)."""
    names: set[str] = set()
    for op in nested_ops(module):
        for mapping in (op.properties, op.attributes):
            for attr in mapping.values():
                _symbol_references(attr, names)
    return names


def _at_call_site(op: Operation, call_location: LocationAttr) -> None:
    """MLIR's inliner locates an inlined op at ``callsite(<its location> at <the call's>)``."""
    if isinstance(call_location, UnknownLoc):
        return
    for inner in op.walk():
        if not isinstance(inner.location, UnknownLoc):
            inner.location = CallSiteLoc(inner.location, call_location)


class _Inliner:
    def __init__(self, module: ModuleOp):
        # The module's symbol table: its top-level functions.
        self.functions: dict[str, Operation] = {}
        for op in functions(module):
            name = op.properties.get("sym_name")
            if isinstance(name, StringAttr):
                self.functions[name.data] = op
        self.callees: dict[str, set[str]] = {
            name: {_callee_name(c) for c in nested_ops(f) if _is_call(c)} for name, f in self.functions.items()
        }
        self.inlined: set[str] = set()
        self._done: set[str] = set()

    def reaches(self, source: str, target: str) -> bool:
        """Whether `source` calls `target`, directly or through other functions."""
        seen: set[str] = set()
        pending = [source]
        while pending:
            name = pending.pop()
            if name == target:
                return True
            if name in seen or name not in self.functions:
                continue
            seen.add(name)
            pending.extend(self.callees[name])
        return False

    def run(self, caller: str, path: set[str]) -> None:
        """Inline into `caller` after its callees (post-order over the call graph)."""
        if caller in self._done or caller in path:
            return
        path.add(caller)
        for name in sorted(self.callees[caller]):
            if name in self.functions:
                self.run(name, path)
        path.discard(caller)
        for call in [op for op in nested_ops(self.functions[caller]) if _is_call(op)]:
            self._inline_call(caller, call)
        self._done.add(caller)

    def _inline_call(self, caller: str, call: Operation) -> None:
        name = _callee_name(call)
        callee = self.functions.get(name)
        if callee is None or "no_inline" in call.attributes or _never_inlined(callee):
            return
        block = _body_block(callee)
        if block is None or self.reaches(name, caller):
            return
        terminator = block.last_op
        if terminator is None or len(terminator.operands) != len(call.results):
            return
        parent = call.parent_block()
        assert parent is not None
        # Block arguments map to the call's operands; clones add their results.
        mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, call.operands))
        for op in block.ops:
            if op is terminator:
                break
            clone = op.clone(value_mapper=mapping)
            _at_call_site(clone, call.location)
            parent.insert_op_before(clone, call)
        for result, value in zip(call.results, terminator.operands):
            result.replace_all_uses_with(mapping.get(value, value))
        call.detach()
        call.erase()
        self.inlined.add(name)


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """Inlines every call to a function of the module with a one-block body (callees first)."""

    name = "inline"

    # The passes of the pipeline (`default-pipeline=canonicalize,cse`); empty (`default-pipeline=`): none.
    default_pipeline: tuple[str, ...] = ("canonicalize",)
    max_iterations: int = 4

    def __post_init__(self) -> None:
        # A one-pass list option arrives as a bare string.
        if isinstance(self.default_pipeline, str):
            object.__setattr__(self, "default_pipeline", (self.default_pipeline,))
        if self.max_iterations < 1:
            raise ValueError(f"max-iterations must be at least 1, not {self.max_iterations}")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if any(_is_call(inner) for inner in nested_ops(op)):
            inliner = _Inliner(op)
            for name in list(inliner.functions):
                inliner.run(name, set())
            referenced = _referenced_symbols(op)
            for name in sorted(inliner.inlined):
                callee = inliner.functions[name]
                if _is_private(callee) and name not in referenced:
                    callee.detach()
                    callee.erase()
        self._simplify(ctx, op)

    def _simplify(self, ctx: Context, op: ModuleOp) -> None:
        pipeline = ",".join(p for p in self.default_pipeline if p.strip())
        if not pipeline:
            return
        from mini_iree.compiler.tools.pipeline import build_passes, parse_pipeline_text
        from mini_iree.passes import get_all_passes, get_all_pipelines

        refs = parse_pipeline_text(pipeline, mlir_syntax=False)
        for pass_ in build_passes(refs, get_all_passes(), get_all_pipelines()):
            pass_.apply(ctx, op)
