"""Encoding materialization: the conversion patterns and what they need.

    layouts.py   which target a dispatch function is compiled for, and the packed
                 layout (`MaterializeEncodingInfo`) of every encoded tensor type in it
    builders.py  IR for packed tensors: their sizes (the algebra's size expressions,
                 `affine.apply ceildiv`), the
                 pack / expand_shape / transpose chain and its inverse, all read off
                 the layout algebra (`compiler/layout/iree_encoding.py`)
    patterns.py  the conversion patterns (one per op kind on encoded tensors) and
                 `materialize_function`, which runs them on one function; the passes
                 `iree-codegen-materialize-device-encoding` and
                 `iree-codegen-materialize-encoding-into-nop` populate them with their layouts
    contraction.py  contractions on packed operands: `linalg.mmt4d` / `batch_mmt4d`
                 (CPU, VMVX) or `iree_codegen.inner_tiled` (GPU)
    generic.py   all-parallel `linalg.generic` (several results, permuted outputs) on
                 the packed tiles of its first output (IREE's lowerGenericOpWithResolvedLayouts)
"""
