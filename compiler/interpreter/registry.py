"""Which modules hold the interpreter's op implementations, by dialect.

Each module defines one or more ``InterpreterFunctions`` classes (xDSL's
interpreter framework, decorated with ``@register_impls``) and lists them in a
module-level ``FUNCTIONS`` tuple. Importing a module also imports the dialects
it implements, which is most of the cost of starting the interpreter, so an
interpreter imports and registers only the modules for the dialects its program
uses (as xDSL's ``Context`` loads dialects lazily). A module that does not exist
yet is skipped, so implementations can be added one file at a time.
"""

from __future__ import annotations

from collections.abc import Iterable

_PACKAGE = "mini_iree.compiler.interpreter"

# Registration order: a later module's implementation of an op overrides an
# earlier one's.
IMPLEMENTATION_MODULES: tuple[str, ...] = tuple(
    f"{_PACKAGE}.{name}"
    for name in (
        # upstream dialects
        "builtin_ops",
        "arith_ops",
        "math_ops",
        "func_ops",
        "tensor_ops",
        "linalg_ops",
        "scf_ops",
        "affine_ops",
        "memref_ops",
        "vector_ops",
        # IREE dialects
        "util_ops",
        "hal_ops",
        "flow_ops",
        "stream_ops",
        "encoding_ops",
        "codegen_ops",
    )
)

# The dialect (the op name's prefix) -> the module implementing its ops.
DIALECT_MODULES: dict[str, str] = {
    dialect: f"{_PACKAGE}.{name}"
    for dialect, name in (
        ("builtin", "builtin_ops"),
        ("arith", "arith_ops"),
        ("ub", "arith_ops"),
        ("math", "math_ops"),
        ("func", "func_ops"),
        ("tensor", "tensor_ops"),
        ("linalg", "linalg_ops"),
        ("scf", "scf_ops"),
        ("affine", "affine_ops"),
        ("memref", "memref_ops"),
        ("vector", "vector_ops"),
        ("util", "util_ops"),
        ("hal", "hal_ops"),
        ("flow", "flow_ops"),
        ("iree_tensor_ext", "flow_ops"),
        ("stream", "stream_ops"),
        ("iree_encoding", "encoding_ops"),
        ("iree_codegen", "codegen_ops"),
        ("iree_linalg_ext", "codegen_ops"),
    )
}


def modules_for(op_names: Iterable[str]) -> list[str]:
    """The implementation modules for ops with these names, in registration order.

    A dialect without a module contributes none: its ops fail when they run,
    with the interpreter's "has no interpreter implementation" error.
    """
    wanted = {DIALECT_MODULES.get(name.split(".", 1)[0]) for name in op_names}
    return [module for module in IMPLEMENTATION_MODULES if module in wanted]
