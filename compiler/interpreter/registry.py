"""Which modules hold the interpreter's op implementations.

Each module defines one or more ``InterpreterFunctions`` classes (xDSL's
interpreter framework, decorated with ``@register_impls``) and lists them in a
module-level ``FUNCTIONS`` tuple. The interpreter registers them all; a module
that does not exist yet is skipped, so implementations can be added one file at
a time.
"""

IMPLEMENTATION_MODULES: tuple[str, ...] = (
    # upstream dialects
    "mini_iree.compiler.interpreter.builtin_ops",
    "mini_iree.compiler.interpreter.arith_ops",
    "mini_iree.compiler.interpreter.func_ops",
    "mini_iree.compiler.interpreter.tensor_ops",
    "mini_iree.compiler.interpreter.linalg_ops",
    "mini_iree.compiler.interpreter.scf_ops",
    "mini_iree.compiler.interpreter.affine_ops",
    "mini_iree.compiler.interpreter.memref_ops",
    # IREE dialects
    "mini_iree.compiler.interpreter.util_ops",
    "mini_iree.compiler.interpreter.hal_ops",
    "mini_iree.compiler.interpreter.flow_ops",
    "mini_iree.compiler.interpreter.stream_ops",
    "mini_iree.compiler.interpreter.encoding_ops",
    "mini_iree.compiler.interpreter.codegen_ops",
)
