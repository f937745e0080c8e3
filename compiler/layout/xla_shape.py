"""XLA array shapes with layouts, as HLO text spells them: the `xla` dialect's grammar.

`#xla.layout<"...">` parses, canonicalizes and validates its string with this
grammar when it is built, so the grammar is defined with the dialect
(`mini_iree/dialects/xla_shape.py`); the layout algebra imports it from here.
"""

from mini_iree.dialects.xla_shape import (
    COMBINE_DIMENSION,
    ELEMENT_TYPES,
    XlaLayout,
    XlaLayoutError,
    XlaShape,
    canonical,
    parse_layout,
    parse_shape,
    parse_shape_unvalidated,
    validate_shape,
    xla_element_type,
)

__all__ = [
    "COMBINE_DIMENSION",
    "ELEMENT_TYPES",
    "XlaLayout",
    "XlaLayoutError",
    "XlaShape",
    "canonical",
    "parse_layout",
    "parse_shape",
    "parse_shape_unvalidated",
    "validate_shape",
    "xla_element_type",
]
