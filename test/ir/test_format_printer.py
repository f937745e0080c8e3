"""Ops of a declarative format print the same text through ``format_printer`` as
through xDSL's own directives.

Every module is printed twice, once with ``fast_formats`` (the default) and once
calling each op's ``print``; the texts must be equal. The modules are every
chunk of the dialects' ``ops.mlir`` tests (most op formats of the project) and
the example matmul through the whole data-tiling pipeline for a GPU and a CPU
(flow, stream, hal and codegen ops as passes build them).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import DenseArrayBase, TensorType, f32, i32
from xdsl.irdl import OptionalDef, VariadicDef
from xdsl.dialects import test as xdsl_test

from mini_iree.compiler.ir.diagnostics import DiagnosticError
from mini_iree.compiler.ir.format_printer import format_printer, operand_groups
from mini_iree.compiler.ir.parsing import parse_mlir
from mini_iree.compiler.ir.printer import MLIRPrinter
from mini_iree.compiler.tools.opt_main import MiniIREEOptMain
from mini_iree.dialects.flow import TensorEncodeOp

from conftest import REPO

OPS_FILES = sorted((REPO / "test" / "dialects").glob("*/ops.mlir"))
_SPLIT = re.compile(r"^// -----[ \t]*$", re.MULTILINE)


def _print(module, fast: bool, **options) -> str:
    stream = io.StringIO()
    MLIRPrinter(stream=stream, fast_formats=fast, **options).print_module(module)
    return stream.getvalue()


def _assert_same(module) -> None:
    assert _print(module, True) == _print(module, False)
    assert _print(module, True, local_scope=True) == _print(module, False, local_scope=True)
    _assert_groups_are_the_accessors(module)


def _assert_groups_are_the_accessors(module) -> None:
    """``operand_groups`` gives each group as the op's accessor for it does."""
    for op in module.walk():
        groups = operand_groups(op)
        if groups is None:
            continue
        for (name, definition), group in zip(op.get_irdl_definition().operands, groups, strict=True):
            value = getattr(op, name)
            if isinstance(definition, OptionalDef):
                assert ((value,) if value is not None else ()) == tuple(group)
            elif isinstance(definition, VariadicDef):
                assert tuple(value) == tuple(group)
            else:
                assert (value,) == tuple(group)


@pytest.mark.parametrize("path", OPS_FILES, ids=lambda p: p.parent.name)
def test_dialect_ops_print_the_same(path: Path):
    ctx = MiniIREEOptMain([]).ctx
    printed = 0
    for chunk in _SPLIT.split(path.read_text()):
        try:
            module = parse_mlir(ctx, chunk, str(path))
        except DiagnosticError:
            continue  # a chunk meant for another RUN line (custom flags)
        _assert_same(module)
        printed += 1
    assert printed


@pytest.mark.parametrize("target", ["gfx942", "x86_64:+avx,+avx2,+fma"])
def test_pipeline_output_prints_the_same(target: str):
    main = MiniIREEOptMain([str(REPO / "examples" / "matmul.mlir"), "-p", f"data-tiling{{target={target}}}"])
    module = parse_mlir(main.ctx, (REPO / "examples" / "matmul.mlir").read_bytes(), "matmul.mlir")
    for pass_ in main.passes:
        pass_.apply(main.ctx, module)
        _assert_same(module)


def test_format_ops_take_the_fast_path():
    # The formats the data-tiling pipeline prints most are understood...
    assert format_printer(TensorEncodeOp) is not None
    # ...and ops with a `print` of their own keep it.
    from mini_iree.dialects.flow import DispatchRegionOp

    assert format_printer(DispatchRegionOp) is None


def test_segment_sizes_that_do_not_add_up_print_as_xdsl_does():
    source = xdsl_test.TestOp(result_types=[TensorType(f32, [-1])]).res[0]
    dim = xdsl_test.TestOp(result_types=[source.type.get_element_type()]).res[0]
    op = TensorEncodeOp(source, TensorType(f32, [-1]), [dim], [dim])
    good = format_printer(TensorEncodeOp)
    assert good is not None and good.operands.groups(op, op.operands) is not None
    op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(i32, [1, 2, 2])
    assert good.operands.groups(op, op.operands) is None
