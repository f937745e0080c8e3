"""Verify a module op by op, reporting the failing op at its own location.

xDSL's ``Operation.verify`` raises the verifier's message with the whole module
attached but without saying which op failed. MLIR reports
``file:line:col: error: 'linalg.pack' op invalid inner_dims_pos vector`` at the
failing op; this walk does the same. As in MLIR, an op is verified before the ops
nested in it, and verification stops at the first failure.
"""

from __future__ import annotations

from xdsl.ir import Operation

from mini_iree.compiler.diagnostics import Diagnostic, DiagnosticError, SourceLoc, op_location

_XDSL_PREFIX = "Operation does not verify: "


def _message(op: Operation, err: Exception) -> str:
    text = str(err).split("\n\n", 1)[0].strip()
    if text.startswith(_XDSL_PREFIX):
        text = text[len(_XDSL_PREFIX) :]
    text = text.splitlines()[0] if text else type(err).__name__
    return f"'{op.name}' op {text}"


def _verify_encodings(op: Operation) -> None:
    """Check tensor encodings against the tensors carrying them.

    MLIR verifies a tensor type's encoding when the type is built
    (``VerifiableTensorEncoding``); xDSL has no such hook, so encodings that
    define ``verify_encoding(shape, element_type)`` are checked here, for every
    type an op defines.
    """
    types = [r.type for r in op.results]
    types += [a.type for region in op.regions for block in region.blocks for a in block.args]
    for ty in types:
        encoding = getattr(ty, "encoding", None)
        check = getattr(encoding, "verify_encoding", None)
        if check is not None:
            check(ty.get_shape(), ty.get_element_type())  # type: ignore[attr-defined]


def verify_op_tree(op: Operation, fallback: SourceLoc) -> None:
    """Raise ``DiagnosticError`` at the first op of ``op``'s tree that does not verify."""
    try:
        op.verify(verify_nested_ops=False)
        _verify_encodings(op)
    except Exception as err:  # noqa: BLE001
        # Verifiers should only raise VerifyException, but some of xDSL's raise
        # plain exceptions; either way the op is invalid and gets its diagnostic.
        raise DiagnosticError(Diagnostic(op_location(op, fallback), _message(op, err))) from None
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                verify_op_tree(inner, fallback)
