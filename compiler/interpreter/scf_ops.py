"""``scf`` control flow: loops run their body once per iteration on whole-array values.

``scf.forall`` runs its iterations in order (any order is valid for a correct
program) and applies each ``tensor.parallel_insert_slice`` of its
``scf.in_parallel`` terminator to the shared outputs.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from xdsl.dialects import scf as xdsl_scf
from xdsl.interpreter import Interpreter, InterpreterFunctions, impl, register_impls
from xdsl.ir import Operation

from mini_iree.compiler.interpreter.core import InterpreterError, mixed_ints, run_block
from mini_iree.compiler.interpreter.tensor_ops import insert_into
from mini_iree.dialects import scf
from mini_iree.dialects.tensor import ParallelInsertSliceOp


def _condition(op: Operation, value: Any) -> bool:
    if np.ndim(value) != 0:
        raise InterpreterError(op, "the condition must be a scalar (this region cannot run vectorized)")
    return bool(value)


@register_impls
class ScfFunctions(InterpreterFunctions):
    @impl(xdsl_scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: xdsl_scf.ForOp, args: tuple[Any, ...]):
        lb, ub, step, *values = args
        if np.ndim(lb) or np.ndim(ub) or np.ndim(step):
            raise InterpreterError(op, "loop bounds must be scalars (this loop cannot run vectorized)")
        if step <= 0:
            raise InterpreterError(op, f"the step must be positive, got {step}")
        block = op.body.block
        for iv in range(int(lb), int(ub), int(step)):
            iv_value = iv if isinstance(lb, int) else type(lb)(iv)
            values = list(run_block(interpreter, block, [iv_value, *values]))
        return tuple(values)

    @impl(xdsl_scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: xdsl_scf.IfOp, args: tuple[Any, ...]):
        if _condition(op, args[0]):
            return run_block(interpreter, op.true_region.block, [])
        if op.false_region.blocks:
            return run_block(interpreter, op.false_region.block, [])
        return ()

    @impl(xdsl_scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: xdsl_scf.WhileOp, args: tuple[Any, ...]):
        values = list(args)
        while True:
            condition, *forwarded = run_block(interpreter, op.before_region.block, values)
            if not _condition(op, condition):
                return tuple(forwarded)
            values = list(run_block(interpreter, op.after_region.block, forwarded))

    @impl(xdsl_scf.ExecuteRegionOp)
    def run_execute_region(self, interpreter: Interpreter, op: xdsl_scf.ExecuteRegionOp, args: tuple[Any, ...]):
        if len(op.region.blocks) != 1:
            raise InterpreterError(op, "only single-block regions are supported")
        return run_block(interpreter, op.region.block, [])

    @impl(xdsl_scf.IndexSwitchOp)
    def run_index_switch(self, interpreter: Interpreter, op: xdsl_scf.IndexSwitchOp, args: tuple[Any, ...]):
        cases = list(op.cases.get_values())
        value = int(args[0])
        region = op.case_regions[cases.index(value)] if value in cases else op.default_region
        return run_block(interpreter, region.block, [])

    @impl(scf.ForallOp)
    def run_forall(self, interpreter: Interpreter, op: scf.ForallOp, args: tuple[Any, ...]):
        lower = mixed_ints(interpreter, op.staticLowerBound.get_values(), op.dynamicLowerBound)
        upper = mixed_ints(interpreter, op.staticUpperBound.get_values(), op.dynamicUpperBound)
        steps = mixed_ints(interpreter, op.staticStep.get_values(), op.dynamicStep)
        if any(s <= 0 for s in steps):
            raise InterpreterError(op, f"steps must be positive, got {steps}")
        outputs = [np.array(v, copy=True) for v in interpreter.get_values(op.outputs)]
        block = op.region.block
        num_ivs = len(lower)
        shared_args = list(block.args[num_ivs:])

        def apply_inserts(terminator: Operation) -> tuple[Any, ...]:
            # The scf.in_parallel body: each parallel_insert_slice writes one tile into a shared output.
            for insert in terminator.regions[0].block.ops if terminator.regions else ():
                if not isinstance(insert, ParallelInsertSliceOp):
                    raise InterpreterError(insert, "only tensor.parallel_insert_slice may appear in scf.in_parallel")
                if insert.dest not in shared_args:
                    raise InterpreterError(insert, "the destination must be a shared output of the enclosing scf.forall")
                k = shared_args.index(insert.dest)
                (source,) = interpreter.get_values([insert.source])
                insert_into(interpreter, insert, np.asarray(source), outputs[k], in_place=True)
            return ()

        ranges = [range(lo, hi, st) for lo, hi, st in zip(lower, upper, steps)]
        for ivs in itertools.product(*ranges):
            run_block(interpreter, block, [*ivs, *outputs], at_terminator=apply_inserts)
        return tuple(outputs)


FUNCTIONS = (ScfFunctions,)
