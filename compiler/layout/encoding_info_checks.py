"""The checks an `encoding_info` must pass: the dialect's, as the layout algebra uses them.

They check an attribute's own fields against a tensor rank, so they are defined
with the dialects (`mini_iree/dialects/encoding_info_checks.py`); the layout
algebra imports them from here.
"""

from mini_iree.dialects.encoding_info_checks import (
    EncodingInfoError,
    inner_tiles,
    verify_encoding_info,
    verify_resolved_layout,
)

__all__ = ["EncodingInfoError", "inner_tiles", "verify_encoding_info", "verify_resolved_layout"]
