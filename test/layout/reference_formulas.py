"""Independent index formulas the layout algebra is checked against.

These follow the documents directly, on index tuples, without the
pad/reshape/transpose steps of compiler/layout: XLA's `linear_index_with_tile`
(docs/tiled_layout.md) applied once per tile with `*` combining dims, and
`linalg.pack` followed by IREE's swizzle expand + permutation. Every function
works on numpy arrays of indices (one per dim), so whole grids go in one call.
"""

from __future__ import annotations

import numpy as np

STAR = -(2**63)


def ravel(index, shape):
    linear = np.zeros_like(np.asarray(index[0] if index else 0), dtype=np.int64)
    for e, d in zip(index, shape):
        linear = linear * d + e
    return linear


def xla_linear_index(index, dims, minor_to_major, tiles):
    """The document's formula: every tile applies to the previous result."""
    order = list(reversed(minor_to_major))
    e = [np.asarray(index[i], dtype=np.int64) for i in order]
    d = [dims[i] for i in order]
    for tile in tiles:
        tile = list(tile)
        if len(tile) > len(d):
            extra = len(tile) - len(d)
            e = [np.zeros_like(np.asarray(e[0] if e else 0))] * extra + e
            d = [1] * extra + d
        prefix = len(d) - len(tile)
        # '*' merges dim i into dim i+1 (the next more minor one).
        i = prefix
        while i < len(d):
            if tile[i - prefix] == STAR:
                e[i + 1] = e[i] * d[i + 1] + e[i + 1]
                d[i + 1] = d[i] * d[i + 1]
                del e[i], d[i], tile[i - prefix]
            else:
                i += 1
        k = len(tile)
        prefix = len(d) - k
        e = e[:prefix] + [e[prefix + j] // tile[j] for j in range(k)] + [e[prefix + j] % tile[j] for j in range(k)]
        d = d[:prefix] + [-(-d[prefix + j] // tile[j]) for j in range(k)] + tile
    return ravel(e, d), int(np.prod(d, dtype=np.int64))


def iree_linear_index(index, dims, inner_dims_pos, inner_tiles, outer_dims_perm, swizzle_groups=None, permutation=None):
    """linalg.pack's element mapping, then the swizzle's expand + transpose."""
    rank = len(dims)
    outer_dims_perm = outer_dims_perm or list(range(rank))
    tile_of = dict(zip(inner_dims_pos, inner_tiles))
    outer = [index[d] // tile_of[d] if d in tile_of else np.asarray(index[d]) for d in range(rank)]
    outer_sizes = [-(-dims[d] // tile_of[d]) if d in tile_of else dims[d] for d in range(rank)]
    e = [outer[p] for p in outer_dims_perm]
    s = [outer_sizes[p] for p in outer_dims_perm]
    inner = [index[d] % tile_of[d] for d in inner_dims_pos]
    if swizzle_groups is None:
        return ravel(e + inner, s + list(inner_tiles))
    digits, sizes = [], []
    for value, group in zip(inner, swizzle_groups):
        rest = value
        group_digits = []
        for size in reversed(group):
            group_digits.append(rest % size)
            rest = rest // size
        digits += group_digits[::-1]
        sizes += list(group)
    return ravel(e + [digits[p] for p in permutation], s + [sizes[p] for p in permutation])
