"""The `iree_cpu` dialect: the CPU and VMVX data-tiling layout resolvers.

An executable target names its resolver in its configuration,
`iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>`. When the stream
dialect specializes encodings, the resolver chooses a packed layout for each
encoded tensor and is stored, with that layout in its configuration, inside
`#iree_encoding.layout<[...]>`:

```mlir
#iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {
    innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
```

Upstream: compiler/src/iree/compiler/Codegen/Dialect/CPU/IR/IREECPUAttrs.td in
https://github.com/iree-org/iree
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.irdl import irdl_attr_definition

from mini_iree.dialects.iree_codegen import EncodingResolverAttr


@irdl_attr_definition(init=False)
class CPUEncodingResolverAttr(EncodingResolverAttr):
    """The data-tiling layout resolver of the LLVMCPU backend.

    ```mlir
    #iree_cpu.cpu_encoding_resolver<>
    #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1],
                                    innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>
    ```
    """

    name = "iree_cpu.cpu_encoding_resolver"



@irdl_attr_definition(init=False)
class VMVXEncodingResolverAttr(EncodingResolverAttr):
    """The data-tiling layout resolver of the VMVX backend.

    ```mlir
    #iree_cpu.vmvx_encoding_resolver<>
    ```
    """

    name = "iree_cpu.vmvx_encoding_resolver"



@irdl_attr_definition(init=False)
class CPUEncodingLayoutAttr(EncodingResolverAttr):
    """The CPU resolver under its earlier name (IREE, December 2024).

    The encoding-specialization write-ups of that time show resolved layouts as
    `#iree_cpu.cpu_encoding_layout<configuration = {encoding_info = {...}}>`.
    """

    name = "iree_cpu.cpu_encoding_layout"



IREECPU = Dialect(
    "iree_cpu",
    [],
    [CPUEncodingResolverAttr, VMVXEncodingResolverAttr, CPUEncodingLayoutAttr],
)
