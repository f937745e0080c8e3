"""IR infrastructure every pass and tool builds on.

Parsing (MLIR's generic and custom forms), the printer, the verifier,
diagnostics with ``file:line:col``, and the small questions passes ask of IR:
a module's functions, a tensor's dynamic dims, whether an op is a bit extend.
"""
