"""One layout algebra for XLA tiled layouts and IREE encodings.

A layout stores a logical tensor as pad -> reshape -> transpose steps
(`steps.py`), collected in a `Relayout` (`relayout.py`) that answers every
question about it: packed shape, linear index and its inverse, padded size,
numpy execution, affine index expressions. XLA shapes (`xla_shape.py`,
`xla_tiling.py`, `xla_sizes.py`) and IREE `encoding_info` (`iree_encoding.py`,
`materialization.py`) both build one; `map_scatter.py` turns one into the
index computation of a `map_scatter` body; `storage.py` turns one into the host's
byte-size arithmetic (`stream.tensor.sizeof`); `bridge.py` translates between them and
`drawing.py` draws them.

Names are exported lazily (PEP 562): `from mini_iree.compiler.layout import
parse_shape` loads only the module that defines it, so the `xla` dialect can
read layout strings without pulling numpy onto `mini-iree-opt`'s start-up path.
"""

from importlib import import_module
from typing import TYPE_CHECKING

_EXPORTS: dict[str, str] = {
    "NotExpressible": "bridge",
    "iree_to_xla_layout": "bridge",
    "DYNAMIC": "iree_encoding",
    "EncodingInfoError": "iree_encoding",
    "encoding_relayout": "iree_encoding",
    "format_encoding_info": "iree_encoding",
    "inner_tiles": "iree_encoding",
    "materialization_ops": "iree_encoding",
    "packed_tensor_shape": "iree_encoding",
    "parse_encoding_info": "iree_encoding",
    "unmaterialization_ops": "iree_encoding",
    "verify_encoding_info": "iree_encoding",
    "CollapseShapeOp": "materialization",
    "ExpandShapeOp": "materialization",
    "MaterializationOp": "materialization",
    "PackOp": "materialization",
    "TransposeOp": "materialization",
    "UnPackOp": "materialization",
    "format_ops": "materialization",
    "Relayout": "relayout",
    "InBounds": "map_scatter",
    "LinearizeDelinearize": "map_scatter",
    "MapScatterIndexing": "map_scatter",
    "map_scatter_indexing": "map_scatter",
    "StorageSize": "storage",
    "StorageSizeError": "storage",
    "tensor_storage_size": "storage",
    "Pad": "steps",
    "Reshape": "steps",
    "Shape": "steps",
    "Step": "steps",
    "Transpose": "steps",
    "format_shape": "steps",
    "inverse_permutation": "shapes",
    "COMBINE_DIMENSION": "xla_shape",
    "ELEMENT_TYPES": "xla_shape",
    "XlaLayout": "xla_shape",
    "XlaLayoutError": "xla_shape",
    "XlaShape": "xla_shape",
    "canonical": "xla_shape",
    "parse_shape": "xla_shape",
    "parse_shape_unvalidated": "xla_shape",
    "parse_layout": "xla_shape",
    "validate_shape": "xla_shape",
    "xla_element_type": "xla_shape",
    "array_size": "xla_sizes",
    "bit_offset": "xla_sizes",
    "layout_util_linear_index": "xla_sizes",
    "byte_size_of": "xla_sizes",
    "elements": "xla_sizes",
    "padded_bytes": "xla_sizes",
    "padded_elements": "xla_sizes",
    "xla_relayout": "xla_tiling",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


if TYPE_CHECKING:
    from .bridge import NotExpressible, iree_to_xla_layout
    from .iree_encoding import (
        DYNAMIC,
        EncodingInfoError,
        encoding_relayout,
        format_encoding_info,
        inner_tiles,
        materialization_ops,
        packed_tensor_shape,
        parse_encoding_info,
        unmaterialization_ops,
        verify_encoding_info,
    )
    from .materialization import (
        CollapseShapeOp,
        ExpandShapeOp,
        MaterializationOp,
        PackOp,
        TransposeOp,
        UnPackOp,
        format_ops,
    )
    from .map_scatter import InBounds, LinearizeDelinearize, MapScatterIndexing, map_scatter_indexing
    from .relayout import Relayout
    from .shapes import inverse_permutation
    from .steps import Pad, Reshape, Shape, Step, Transpose, format_shape
    from .storage import StorageSize, StorageSizeError, tensor_storage_size
    from .xla_shape import (
        COMBINE_DIMENSION,
        ELEMENT_TYPES,
        XlaLayout,
        XlaLayoutError,
        XlaShape,
        canonical,
        parse_shape,
        parse_layout,
        parse_shape_unvalidated,
        validate_shape,
        xla_element_type,
    )
    from .xla_sizes import (
        array_size,
        bit_offset,
        byte_size_of,
        elements,
        layout_util_linear_index,
        padded_bytes,
        padded_elements,
    )
    from .xla_tiling import xla_relayout
