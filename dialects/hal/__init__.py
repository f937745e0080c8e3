"""The `hal` dialect: IREE's hardware abstraction layer, as far as data tiling needs it.

Two halves of HAL appear in the data-tiling pipeline:

* the host side: `!hal.buffer_view` function arguments turned into tensors
  (`hal.tensor.import/export`, `hal.buffer_view.dim/assert`), and the device
  targets (`#hal.device.target`, `#hal.executable.target`) whose configuration
  dictionaries carry the encoding resolver that picks tile sizes;
* the executable side: `hal.executable` with one `hal.executable.variant` per
  executable target, each exporting functions (`hal.executable.export`, with
  their `#hal.pipeline.layout`) from a `builtin.module`; and
  `hal.interface.binding.subspan` / `hal.interface.constant.load`, which a
  dispatch function uses to reach its buffers and push constants through that
  layout.

The ops are grouped by family in this package's modules: `types`, `attrs`,
`tensor_ops`, `buffer_view_ops`, `interface_ops`, `executable_ops` and
`device_ops` (`syntax` holds the helpers they share). Every name is importable
from the package.

Upstream documentation: https://iree.dev/reference/mlir-dialects/HAL/
"""

from xdsl.ir import Dialect

from mini_iree.dialects.hal.attrs import (
    ANY_QUEUE,
    DeviceAffinityAttr,
    DeviceOptimalAttr,
    DevicePromiseAttr,
    DeviceTargetAttr,
    ExecutableTargetAttr,
    PipelineBindingAttr,
    PipelineLayoutAttr,
    parse_layout,
    print_layout,
)
from mini_iree.dialects.hal.buffer_view_ops import (
    BufferViewAssertOp,
    BufferViewDimOp,
    ElementTypeOp,
    EncodingTypeOp,
    is_abi_element_type,
)
from mini_iree.dialects.hal.device_ops import DeviceResolveOp, DevicesGetOp, FenceAwaitOp, FenceCreateOp, FenceSignalOp
from mini_iree.dialects.hal.executable_ops import (
    ExecutableEndOp,
    ExecutableExportOp,
    ExecutableOp,
    ExecutableSourceEndOp,
    ExecutableSourceOp,
    ExecutableVariantEndOp,
    ExecutableVariantOp,
    ReturnOp,
)
from mini_iree.dialects.hal.interface_ops import InterfaceBindingSubspanOp, InterfaceConstantLoadOp
from mini_iree.dialects.hal.syntax import (
    parse_bit_enum,
    parse_optional_affinity,
    print_bit_enum,
    print_optional_affinity,
    sanitize_symbol_name,
    sorted_dict,
    stringify_bit_enum,
)
from mini_iree.dialects.hal.tensor_ops import TensorAliasOp, TensorBarrierOp, TensorExportOp, TensorImportOp
from mini_iree.dialects.hal.types import (
    DESCRIPTOR_FLAG_NAMES,
    PIPELINE_LAYOUT_FLAG_NAMES,
    BufferType,
    BufferViewType,
    DescriptorFlags,
    DescriptorType,
    DescriptorTypeAttr,
    DeviceType,
    FenceType,
    PipelineLayoutFlags,
)

HAL = Dialect(
    "hal",
    [
        TensorImportOp,
        TensorExportOp,
        TensorBarrierOp,
        TensorAliasOp,
        FenceSignalOp,
        FenceCreateOp,
        FenceAwaitOp,
        DevicesGetOp,
        DeviceResolveOp,
        ElementTypeOp,
        EncodingTypeOp,
        BufferViewDimOp,
        BufferViewAssertOp,
        InterfaceConstantLoadOp,
        InterfaceBindingSubspanOp,
        ExecutableOp,
        ExecutableEndOp,
        ExecutableVariantOp,
        ExecutableVariantEndOp,
        ExecutableSourceOp,
        ExecutableSourceEndOp,
        ExecutableExportOp,
        ReturnOp,
    ],
    [
        BufferType,
        BufferViewType,
        DeviceType,
        FenceType,
        DescriptorTypeAttr,
        PipelineBindingAttr,
        PipelineLayoutAttr,
        ExecutableTargetAttr,
        DeviceTargetAttr,
        DeviceAffinityAttr,
        DevicePromiseAttr,
        DeviceOptimalAttr,
    ],
)

__all__ = [
    "ANY_QUEUE",
    "BufferType",
    "BufferViewAssertOp",
    "BufferViewDimOp",
    "BufferViewType",
    "DESCRIPTOR_FLAG_NAMES",
    "DescriptorFlags",
    "DescriptorType",
    "DescriptorTypeAttr",
    "DeviceAffinityAttr",
    "DeviceOptimalAttr",
    "DevicePromiseAttr",
    "DeviceResolveOp",
    "DeviceTargetAttr",
    "DeviceType",
    "DevicesGetOp",
    "ElementTypeOp",
    "EncodingTypeOp",
    "ExecutableEndOp",
    "ExecutableExportOp",
    "ExecutableOp",
    "ExecutableSourceEndOp",
    "ExecutableSourceOp",
    "ExecutableTargetAttr",
    "ExecutableVariantEndOp",
    "ExecutableVariantOp",
    "FenceAwaitOp",
    "FenceCreateOp",
    "FenceSignalOp",
    "FenceType",
    "HAL",
    "InterfaceBindingSubspanOp",
    "InterfaceConstantLoadOp",
    "PIPELINE_LAYOUT_FLAG_NAMES",
    "PipelineBindingAttr",
    "PipelineLayoutAttr",
    "PipelineLayoutFlags",
    "ReturnOp",
    "TensorAliasOp",
    "TensorBarrierOp",
    "TensorExportOp",
    "TensorImportOp",
    "is_abi_element_type",
    "parse_bit_enum",
    "parse_layout",
    "parse_optional_affinity",
    "print_bit_enum",
    "print_layout",
    "print_optional_affinity",
    "sanitize_symbol_name",
    "sorted_dict",
    "stringify_bit_enum",
]
