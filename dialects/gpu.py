"""gpu: xDSL's gpu dialect plus the mapping and address-space attributes IREE prints.

    scf.forall ... {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
    memref<16x16xf32, #gpu.address_space<workgroup>>

https://mlir.llvm.org/docs/Dialects/GPU/
"""

from enum import auto

from xdsl.dialects.gpu import GPU as _XDSLGPU
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Dialect
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class MappingId(StrEnum):
    """The processor dimension an ``scf.forall`` loop is distributed over."""

    X = "x"
    Y = "y"
    Z = "z"
    LINEAR_DIM_0 = "linear_dim_0"
    LINEAR_DIM_1 = "linear_dim_1"
    LINEAR_DIM_2 = "linear_dim_2"
    LINEAR_DIM_3 = "linear_dim_3"
    LINEAR_DIM_4 = "linear_dim_4"
    LINEAR_DIM_5 = "linear_dim_5"
    LINEAR_DIM_6 = "linear_dim_6"
    LINEAR_DIM_7 = "linear_dim_7"
    LINEAR_DIM_8 = "linear_dim_8"
    LINEAR_DIM_9 = "linear_dim_9"


class AddressSpace(StrEnum):
    GLOBAL = auto()
    WORKGROUP = auto()
    PRIVATE = auto()


class _AngleEnumAttribute:
    """``#gpu.name<keyword>``: an enum parameter between angle brackets."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)  # type: ignore[misc]


@irdl_attr_definition
class ThreadMappingAttr(_AngleEnumAttribute, EnumAttribute[MappingId]):
    """Distribute a loop over threads: ``#gpu.thread<linear_dim_0>``."""

    name = "gpu.thread"


@irdl_attr_definition
class WarpMappingAttr(_AngleEnumAttribute, EnumAttribute[MappingId]):
    """Distribute a loop over warps: ``#gpu.warp<x>``."""

    name = "gpu.warp"


@irdl_attr_definition
class BlockMappingAttr(_AngleEnumAttribute, EnumAttribute[MappingId]):
    """Distribute a loop over blocks: ``#gpu.block<x>``."""

    name = "gpu.block"


@irdl_attr_definition
class AddressSpaceAttr(_AngleEnumAttribute, EnumAttribute[AddressSpace]):
    """A memref memory space: ``#gpu.address_space<workgroup>``."""

    name = "gpu.address_space"


GPU = Dialect(
    "gpu",
    [*_XDSLGPU.operations],
    [*_XDSLGPU.attributes, ThreadMappingAttr, WarpMappingAttr, BlockMappingAttr, AddressSpaceAttr],
)
