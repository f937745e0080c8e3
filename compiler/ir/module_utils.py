"""Questions passes ask about a whole module: its functions, its symbols.

One home for them, so every pass walks a module the same way.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

__all__ = ["function_ops"]


def function_ops(module: ModuleOp) -> list[Operation]:
    """Every ``func.func`` and ``util.func`` of the module (nested modules included)."""
    from mini_iree.dialects import util

    return [op for op in module.walk() if isinstance(op, (func.FuncOp, util.FuncOp))]
