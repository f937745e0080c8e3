"""What `iree-codegen-materialize-device-encoding` needs besides its patterns.

    layouts.py   which target a dispatch function is compiled for, and the packed
                 layout (`MaterializeEncodingInfo`) of every encoded tensor type in it
    builders.py  IR for packed tensors: their sizes (the algebra's size expressions,
                 `affine.apply ceildiv`), the
                 pack / expand_shape / transpose chain and its inverse, all read off
                 the layout algebra (`compiler/layout/iree_encoding.py`)
    contraction.py  contractions on packed operands: `linalg.mmt4d` / `batch_mmt4d`
                 (CPU, VMVX) or `iree_codegen.inner_tiled` (GPU); elementwise
                 `linalg.generic` on packed tiles
"""
