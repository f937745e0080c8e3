"""The ops that materialize a packed layout, as plain data.

IREE's `iree-codegen-materialize-device-encoding` turns `set_encoding` into

    linalg.pack (pad + tile)  ->  tensor.expand_shape (swizzle groups)  ->  linalg.transpose

and `unset_encoding` into the inverse chain

    linalg.transpose (inverse)  ->  tensor.collapse_shape  ->  linalg.unpack

The records below carry exactly the attributes those ops print, so a pass can
build the IR from them and the interpreter can check them against the layout's
own index arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from .steps import Shape


@dataclass(frozen=True)
class PackOp:
    """`linalg.pack %src padding_value(0) outer_dims_perm = .. inner_dims_pos = .. inner_tiles = ..`"""

    inner_dims_pos: tuple[int, ...]
    inner_tiles: tuple[int | None, ...]
    outer_dims_perm: tuple[int, ...]
    result_shape: Shape


@dataclass(frozen=True)
class UnPackOp:
    """`linalg.unpack`, the inverse of a `PackOp` with the same attributes."""

    inner_dims_pos: tuple[int, ...]
    inner_tiles: tuple[int | None, ...]
    outer_dims_perm: tuple[int, ...]
    result_shape: Shape


@dataclass(frozen=True)
class ExpandShapeOp:
    """`tensor.expand_shape %src [[0], [1], [2, 3, 4], ...] output_shape [...]`"""

    reassociation: tuple[tuple[int, ...], ...]
    result_shape: Shape


@dataclass(frozen=True)
class CollapseShapeOp:
    """`tensor.collapse_shape %src [[0], [1], [2, 3, 4], ...]`"""

    reassociation: tuple[tuple[int, ...], ...]
    result_shape: Shape


@dataclass(frozen=True)
class TransposeOp:
    """`linalg.transpose ... permutation = [...]` (result dim j = source dim permutation[j])."""

    permutation: tuple[int, ...]
    result_shape: Shape


MaterializationOp = PackOp | UnPackOp | ExpandShapeOp | CollapseShapeOp | TransposeOp


def _tensor(shape: Shape, element_type: str) -> str:
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{element_type}>"


def _ints(values) -> str:
    return "[" + ", ".join("?" if v is None else str(v) for v in values) + "]"


def format_ops(ops: list[MaterializationOp], source: Shape, element_type: str) -> list[str]:
    """One MLIR-like line per op, with the tensor types it maps between."""
    lines = []
    for op in ops:
        types = f"{_tensor(source, element_type)} -> {_tensor(op.result_shape, element_type)}"
        if isinstance(op, (PackOp, UnPackOp)):
            name = "linalg.pack" if isinstance(op, PackOp) else "linalg.unpack"
            padding = " padding_value(0)" if isinstance(op, PackOp) else ""
            lines.append(
                f"{name}{padding} outer_dims_perm = {_ints(op.outer_dims_perm)} inner_dims_pos = "
                f"{_ints(op.inner_dims_pos)} inner_tiles = {_ints(op.inner_tiles)} : {types}"
            )
        elif isinstance(op, (ExpandShapeOp, CollapseShapeOp)):
            name = "tensor.expand_shape" if isinstance(op, ExpandShapeOp) else "tensor.collapse_shape"
            groups = "[" + ", ".join(_ints(g) for g in op.reassociation) + "]"
            lines.append(f"{name} {groups} : {types.replace(' -> ', ' into ')}")
        else:
            lines.append(f"linalg.transpose permutation = {_ints(op.permutation)} : {types}")
        source = op.result_shape
    return lines
