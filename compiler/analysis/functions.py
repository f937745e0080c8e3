"""The functions of a module: the one query passes, tools and the interpreter list them with.

IREE's passes iterate ``module.getOps<FunctionOpInterface>()`` (the module's
own functions), ``getOps<IREE::Util::FuncOp>()`` and the like, or walk for
functions nested in executables. Here every such listing is :func:`functions`,
with keywords for what the listings differ in:

* ``kinds``: the op names counted as functions. :data:`FUNCTIONS` is
  ``func.func`` and ``util.func``; :data:`FUNCTION_LIKE` adds
  ``util.initializer`` (what IREE's ``FunctionLikeNest`` visits);
* ``public``: ``True`` keeps the public ones (no ``sym_visibility``, or
  ``"public"``: MLIR's ``SymbolOpInterface::isPublic``), ``False`` the others;
* ``defined``: only functions with a body (not declarations);
* ``nested``: also the functions of nested modules (executables' inner
  modules), in ``op.walk()`` order; otherwise the top-level ones, in order.

Kinds are op names rather than classes so that listing functions imports no
dialect: the interpreter lists a program's functions before it knows which
dialects the program uses.
"""

from __future__ import annotations

from collections.abc import Collection

from xdsl.ir import Operation

from mini_iree.compiler.ir.queries import nested_ops

__all__ = ["FUNCTIONS", "FUNCTION_LIKE", "functions", "is_public"]

FUNCTIONS: tuple[str, ...] = ("func.func", "util.func")
FUNCTION_LIKE: tuple[str, ...] = ("func.func", "util.func", "util.initializer")


def is_public(op: Operation) -> bool:
    """Whether a symbol op is public: no ``sym_visibility``, or ``"public"`` (not ``private``/``nested``)."""
    visibility = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    return visibility is None or getattr(visibility, "data", None) == "public"


def functions(
    op: Operation,
    *,
    kinds: Collection[str] = FUNCTIONS,
    public: bool | None = None,
    defined: bool = False,
    nested: bool = False,
) -> list[Operation]:
    """The functions of module ``op`` of the given ``kinds``, in order (see the module doc for the keywords)."""
    if nested:
        candidates = nested_ops(op)
    else:
        candidates = op.regions[0].blocks.first.ops if op.regions and op.regions[0].blocks else ()
    return [
        candidate
        for candidate in candidates
        if candidate.name in kinds
        and (public is None or is_public(candidate) == public)
        and (not defined or (candidate.regions and candidate.regions[0].blocks))
    ]
