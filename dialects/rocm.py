"""The `rocm` dialect: attributes of IREE's ROCm (HIP) target backend.

Only the reference to the tuning spec shipped with the compiler appears in the
IR data tiling produces, in a ROCm executable target's configuration:

```mlir
iree_codegen.default_tuning_spec = #rocm.builtin.tuning_module<"iree_default_tuning_spec_gfx942.mlir">
```

Upstream: compiler/plugins/target/ROCM/Dialect/ROCM/IR/ROCMAttrs.td in
https://github.com/iree-org/iree
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition(init=False)
class BuiltinTuningModuleAttr(ParametrizedAttribute):
    """Names a tuning spec module embedded in the compiler, by file name.

    ```mlir
    #rocm.builtin.tuning_module<"iree_default_tuning_spec_gfx942.mlir">
    ```
    """

    name = "rocm.builtin.tuning_module"

    builtin_filename: StringAttr

    def __init__(self, builtin_filename: str):
        super().__init__(StringAttr(builtin_filename))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            return [StringAttr(parser.parse_str_literal())]

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string_literal(self.builtin_filename.data)


ROCM = Dialect("rocm", [], [BuiltinTuningModuleAttr])
