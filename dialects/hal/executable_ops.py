"""Executables: `hal.executable`, `hal.executable.variant`, `hal.executable.source`,
`hal.executable.export`, their implicit end ops, and `hal.return`."""

from __future__ import annotations

from abc import ABC
from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerAttr, StringAttr, UnitAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    SingleBlockImplicitTerminator,
    SymbolOpInterface,
    SymbolTable,
    ensure_terminator,
)
from xdsl.utils.exceptions import VerifyException

from mini_iree.dialects.hal.attrs import ExecutableTargetAttr, PipelineLayoutAttr
from mini_iree.dialects.hal.types import DeviceType

# ---------------------------------------------------------------------------
# Executables
# ---------------------------------------------------------------------------


def _parse_body_with_implicit_end(parser: Parser, end_op: type[IRDLOperation]) -> Region:
    """A single-block body whose `end_op` terminator may be left out, as IREE prints it."""
    body = parser.parse_region()
    if not body.blocks:
        body.add_block(Block())
    block = body.blocks.first
    assert block is not None
    if not isinstance(block.last_op, end_op):
        block.add_op(end_op())
    return body


def _insert_before_end(body: Region, op: Operation) -> Operation:
    """Append `op` to a body with an implicit terminator (before the terminator)."""
    block = body.block
    if (last := block.last_op) is not None and last.has_trait(IsTerminator):
        block.insert_op_before(op, last)
    else:
        block.add_op(op)
    return op


class _ParentOneOf(HasParent):
    """`HasParent` with several parents, reported in MLIR's `ParentOneOf` words
    (one quoted list), not xDSL's (each name quoted)."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or isinstance(parent, self.op_types):
            return
        names = ", ".join(p.name for p in self.op_types)
        raise VerifyException(f"expects parent op to be one of '{names}'")


@irdl_op_definition
class ExecutableEndOp(IRDLOperation):
    """Terminator pseudo-op of `hal.executable`; never printed in custom form.

    https://iree.dev/reference/mlir-dialects/HAL/#halexecutable_end-halexecutableendop
    """

    name = "hal.executable_end"

    traits = lazy_traits_def(lambda: (HasParent(ExecutableOp), IsTerminator()))

    assembly_format = "attr-dict"


@irdl_op_definition
class ExecutableVariantEndOp(IRDLOperation):
    """Terminator pseudo-op of `hal.executable.variant`; never printed in custom form.

    https://iree.dev/reference/mlir-dialects/HAL/#halexecutablevariant_end-halexecutablevariantendop
    """

    name = "hal.executable.variant_end"

    traits = lazy_traits_def(lambda: (HasParent(ExecutableVariantOp), IsTerminator()))

    assembly_format = "attr-dict"


class _ExecutableBodyOp(IRDLOperation, ABC):
    """`hal.executable` and `hal.executable.variant`: symbols whose single-block body
    ends in an implicit end op, which IREE leaves out when printing."""

    def add_op(self, op: Operation) -> Operation:
        """Append `op` to the body, before the implicit terminator."""
        return _insert_before_end(self.body, op)  # type: ignore[attr-defined]

    def print_attributes_and_body(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_block_terminators=False)  # type: ignore[attr-defined]


class _DeviceCode:
    """`hal.executable.variant` and `hal.executable.source`: the exports and device code of one executable."""

    @property
    def export_ops(self) -> list[ExecutableExportOp]:
        return [op for op in self.body.block.ops if isinstance(op, ExecutableExportOp)]  # type: ignore[attr-defined]

    @property
    def inner_module(self) -> Operation | None:
        """The `builtin.module` holding the device code, or None for an external one."""
        return next((op for op in self.body.block.ops if op.name == "builtin.module"), None)  # type: ignore[attr-defined]


class _ExecutableSymbolOp(_ExecutableBodyOp):
    """`hal.executable` and `hal.executable.source`: a symbol table named with an optional
    visibility, printed as IREE's `custom<SymbolVisibility>($sym_visibility) $sym_name
    attr-dict-with-keyword $body`, its body ending in an implicit end op of its own."""

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(StringAttr)
    body = region_def("single_block")

    @classmethod
    def end_op(cls) -> type[IRDLOperation]:
        """The implicit terminator of the body."""
        raise NotImplementedError

    def __init__(self, sym_name: str, sym_visibility: str | None = None, body: Region | None = None):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "sym_visibility": None if sym_visibility is None else StringAttr(sym_visibility),
            },
            regions=[body if body is not None else Region(Block())],
        )
        ensure_terminator(self, SingleBlockImplicitTerminator(self.end_op()))

    @classmethod
    def parse(cls, parser: Parser) -> _ExecutableSymbolOp:
        from mini_iree.dialects.flow import parse_symbol_visibility

        visibility = parse_symbol_visibility(parser)
        # `lazy` only where the op has the property (hal.executable).
        lazy = "lazy" in cls.get_irdl_definition().properties and parser.parse_optional_keyword("lazy") is not None
        sym_name = parser.parse_symbol_name()
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = _parse_body_with_implicit_end(parser, cls.end_op())
        op = cls(sym_name.data, visibility.data if visibility is not None else None, body)
        if lazy:
            op.properties["lazy"] = UnitAttr()
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        from mini_iree.dialects.flow import print_symbol_visibility

        print_symbol_visibility(printer, self.sym_visibility)
        if self.properties.get("lazy") is not None:
            printer.print_string(" lazy")
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        self.print_attributes_and_body(printer)

@irdl_op_definition
class ExecutableOp(_ExecutableSymbolOp):
    """A target-specific executable: one `hal.executable.variant` per executable target.

    ```mlir
    hal.executable private @ex {
      hal.executable.variant public @rocm_hsaco_fb target(#executable_target_rocm_hsaco_fb) {
        hal.executable.export public @entry ordinal(0) layout(#pipeline_layout) count(...) -> (index, index, index) {...}
        builtin.module {
          func.func @entry() {...}
        }
      }
    }
    ```

    The body ends in an implicit `hal.executable_end`.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutable-halexecutableop
    """

    name = "hal.executable"

    lazy = opt_prop_def(UnitAttr)

    traits = lazy_traits_def(
        lambda: (
            IsolatedFromAbove(),
            SingleBlockImplicitTerminator(ExecutableEndOp),
            SymbolOpInterface(),
            SymbolTable(),
        )
    )

    @classmethod
    def end_op(cls) -> type[IRDLOperation]:
        return ExecutableEndOp

    @property
    def variant_ops(self) -> list[ExecutableVariantOp]:
        return [op for op in self.body.block.ops if isinstance(op, ExecutableVariantOp)]


@irdl_op_definition
class ExecutableVariantOp(_DeviceCode, _ExecutableBodyOp):
    """The executable compiled for one target: its exports and a `builtin.module` of device code.

    ```mlir
    hal.executable.variant public @embedded_elf_x86_64 target(#executable_target_embedded_elf_x86_64) {
      hal.executable.export public @entry ordinal(0) layout(#pipeline_layout)
      builtin.module {...}
    }
    ```

    IREE names a variant after its target's format (`symbol_name_fragment`).
    The body ends in an implicit `hal.executable.variant_end`.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutablevariant-halexecutablevariantop
    """

    name = "hal.executable.variant"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(StringAttr)
    target = prop_def(ExecutableTargetAttr)
    body = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (
            IsolatedFromAbove(),
            HasParent(ExecutableOp),
            SingleBlockImplicitTerminator(ExecutableVariantEndOp),
            SymbolOpInterface(),
            SymbolTable(),
        )
    )

    def __init__(
        self,
        sym_name: str,
        target: ExecutableTargetAttr,
        sym_visibility: str | None = None,
        body: Region | None = None,
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "target": target,
                "sym_visibility": None if sym_visibility is None else StringAttr(sym_visibility),
            },
            regions=[body if body is not None else Region(Block())],
        )
        ensure_terminator(self, SingleBlockImplicitTerminator(ExecutableVariantEndOp))


    @classmethod
    def parse(cls, parser: Parser) -> ExecutableVariantOp:
        from mini_iree.dialects.flow import parse_symbol_visibility

        visibility = parse_symbol_visibility(parser)
        sym_name = parser.parse_symbol_name()
        parser.parse_keyword("target")
        with parser.in_parens():
            pos = parser.pos
            target = parser.parse_attribute()
            if not isinstance(target, ExecutableTargetAttr):
                parser.raise_error(f"expected #hal.executable.target, got {target}", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        body = _parse_body_with_implicit_end(parser, ExecutableVariantEndOp)
        op = cls(sym_name.data, target, visibility.data if visibility is not None else None, body)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        from mini_iree.dialects.flow import print_symbol_visibility

        print_symbol_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string(" target(")
        printer.print_attribute(self.target)
        printer.print_string(")")
        self.print_attributes_and_body(printer)


@irdl_op_definition
class ExecutableSourceEndOp(IRDLOperation):
    """Terminator pseudo-op of `hal.executable.source`; never printed in custom form.

    https://iree.dev/reference/mlir-dialects/HAL/#halexecutablesource_end-halexecutablesourceendop
    """

    name = "hal.executable.source_end"

    traits = lazy_traits_def(lambda: (HasParent(ExecutableSourceOp), IsTerminator()))

    assembly_format = "attr-dict"


@irdl_op_definition
class ExecutableSourceOp(_DeviceCode, _ExecutableSymbolOp):
    """An executable not yet compiled for any target: its exports and, unless external,
    a `builtin.module` of device code; written by hand before devices are assigned.

    ```mlir
    hal.executable.source public @ex {
      hal.executable.export public @entry ordinal(0) layout(#pipeline_layout)
    }
    ```

    Printed as IREE's `custom<SymbolVisibility>($sym_visibility) $sym_name
    attr-dict-with-keyword $body`; the body ends in an implicit
    `hal.executable.source_end`.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutablesource-halexecutablesourceop
    """

    name = "hal.executable.source"

    traits = lazy_traits_def(
        lambda: (
            IsolatedFromAbove(),
            SingleBlockImplicitTerminator(ExecutableSourceEndOp),
            SymbolOpInterface(),
            SymbolTable(),
        )
    )

    @classmethod
    def end_op(cls) -> type[IRDLOperation]:
        return ExecutableSourceEndOp


@irdl_op_definition
class ExecutableExportOp(IRDLOperation):
    """An entry point of an executable variant, with the pipeline layout its function uses.

    ```mlir
    hal.executable.export public @entry ordinal(0) layout(#hal.pipeline.layout<constants = 2, bindings = [
        #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">,
        #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>)
        count(%arg0: !hal.device, %arg1: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg1)
      hal.return %x, %y, %z : index, index, index
    }
    ```

    The export names the function of the variant's module it runs (same name).
    The optional `count` region computes the XYZ workgroup count from the
    device and the workload a dispatch captures.
    https://iree.dev/reference/mlir-dialects/HAL/#halexecutableexport-halexecutableexportop
    """

    name = "hal.executable.export"

    sym_visibility = opt_prop_def(StringAttr)
    sym_name = prop_def(StringAttr)
    ordinal = opt_prop_def(IntegerAttr[IndexType])
    layout = prop_def(PipelineLayoutAttr)
    workgroup_count = region_def()

    traits = lazy_traits_def(
        lambda: (_ParentOneOf(ExecutableSourceOp, ExecutableVariantOp), IsolatedFromAbove(), SymbolOpInterface())
    )

    def __init__(
        self,
        sym_name: str,
        layout: PipelineLayoutAttr,
        ordinal: int | None = None,
        workgroup_count: Region | None = None,
        sym_visibility: str | None = "public",
    ):
        super().__init__(
            properties={
                "sym_name": StringAttr(sym_name),
                "layout": layout,
                "ordinal": None if ordinal is None else IntegerAttr(ordinal, IndexType()),
                "sym_visibility": None if sym_visibility is None else StringAttr(sym_visibility),
            },
            regions=[workgroup_count if workgroup_count is not None else Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecutableExportOp:
        from mini_iree.dialects.flow import (
            parse_symbol_visibility,
            parse_workgroup_count_region,
        )

        visibility = parse_symbol_visibility(parser)
        sym_name = parser.parse_symbol_name()
        ordinal = None
        if parser.parse_optional_keyword("ordinal") is not None:
            with parser.in_parens():
                ordinal = parser.parse_integer(allow_boolean=False, allow_negative=False)
        parser.parse_keyword("layout")
        with parser.in_parens():
            pos = parser.pos
            layout = parser.parse_attribute()
            if not isinstance(layout, PipelineLayoutAttr):
                parser.raise_error(f"expected #hal.pipeline.layout, got {layout}", pos, parser.pos)
        count = Region()
        if parser.parse_optional_keyword("count") is not None:
            count = parse_workgroup_count_region(parser, ReturnOp.name)
        attrs = parser.parse_optional_attr_dict_with_keyword()
        op = cls(sym_name.data, layout, ordinal, count, visibility.data if visibility is not None else None)
        if attrs is not None:
            op.attributes |= attrs.data
        return op

    def print(self, printer: Printer) -> None:
        from mini_iree.dialects.flow import (
            print_symbol_visibility,
            print_workgroup_count_region,
        )

        print_symbol_visibility(printer, self.sym_visibility)
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.ordinal is not None:
            printer.print_string(f" ordinal({self.ordinal.value.data})")
        printer.print_string(" layout(")
        printer.print_attribute(self.layout)
        printer.print_string(")")
        if self.workgroup_count.blocks:
            printer.print_string(" count")
            print_workgroup_count_region(printer, self.workgroup_count)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        region = self.workgroup_count
        if not region.blocks:
            return
        if len(region.blocks) != 1:
            raise VerifyException("expected a single region block for the workgroup count")
        arg_types = region.block.arg_types
        if not arg_types or not isinstance(arg_types[0], DeviceType) or not all(
            isinstance(t, IndexType) for t in arg_types[1:]
        ):
            raise VerifyException(
                "expected workgroup_count to take (%device: !hal.device, %workload_0: index, %workload_1: index, ..."
            )
        for op in region.walk():
            if isinstance(op, ReturnOp) and (
                len(op.operands) != 3 or not all(isinstance(t, IndexType) for t in op.operand_types)
            ):
                raise VerifyException("workgroup count region must return the XYZ dimension counts as `index` types")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Returns values from a `hal.*` region, e.g. the workgroup count of an export.

    ```mlir
    hal.return %x, %y, %z : index, index, index
    ```
    https://iree.dev/reference/mlir-dialects/HAL/#halreturn-halreturnop
    """

    name = "hal.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator())

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue | Operation] = ()):
        super().__init__(operands=[values])

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or not parent.has_trait(CallableOpInterface):
            return
        expected = parent.get_trait(CallableOpInterface).get_result_types(parent)  # type: ignore[union-attr]
        if len(self.values) != len(expected):
            raise VerifyException(
                "return must have the same number of operands as the parent result signature "
                f"(have {len(self.values)}, expected {len(expected)})"
            )


