"""``vector.vscale``: the vector-length multiple of scalable vectors.

A program materialized with scalable inner tiles (`--iree-llvmcpu-enable-scalable-vectorization`)
computes its tile sizes as `N0 * vscale`. The interpreter has no vector
hardware to ask: it runs `vector.vscale` as the run's `--iree-experimental-vscale-value`
(the value IREE's host code assumes), 1 when the flag is not given
(`compiler/cpu_options.py`). Running one program with several values checks
that its results do not depend on the vector length.
"""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls

from mini_iree.compiler.cpu_options import user_vscale_value
from mini_iree.dialects import vector


def interpreter_vscale() -> int:
    """The value `vector.vscale` takes in the interpreter: the run's vscale value, else 1."""
    return user_vscale_value() or 1


@register_impls
class VectorFunctions(InterpreterFunctions):
    @impl(vector.VectorScaleOp)
    def run_vscale(self, interpreter: Interpreter, op: vector.VectorScaleOp, args: tuple[Any, ...]):
        return (interpreter_vscale(),)


FUNCTIONS = (VectorFunctions,)
