"""The `linalg` dialect: xDSL's structured ops, plus the ones data tiling needs.

xDSL 0.74 ships most of upstream `linalg`, and the ops that already parse and
print like MLIR are reused as they are (`linalg.generic`, `fill`, `copy`,
`yield`, `index`, the elementwise and convolution ops, and
`#linalg.iterator_type`), so xDSL's passes keep matching them.

This module adds or replaces:

* `linalg.pack` / `linalg.unpack`, the relayout ops at the heart of data
  tiling (xDSL has neither), with MLIR's verifier and an `infer_packed_type`
  helper shared by the passes that build them;
* the contractions `linalg.matmul`, `batch_matmul`, `matvec`, `vecmat`,
  `batch_matvec`, `batch_vecmat`, `mmt4d` and `batch_mmt4d`. xDSL's
  `linalg.matmul` builds its hidden region with one element type for all
  operands (so `i8 x i8 -> i32` fails to verify) and crashes on the
  `indexing_maps = [...]` form, and xDSL has none of the others. Every
  contraction derives from `ContractionOp`, which answers `get_indexing_maps()`
  and `get_iterator_types()` whether or not the maps were spelled out;
* `linalg.transpose`, `broadcast` and `reduce`, redefined because xDSL prints
  `ins(%a:tensor<...>)` where MLIR prints `ins(%a : tensor<...>)` and because
  MLIR's verifier messages differ from xDSL's;
* `linalg.map` (xDSL has none), with MLIR's `{ payload.op }` short form.

Named ops carry a hidden region that spells out their scalar computation in
`arith`, exactly as MLIR builds it, so `--mlir-print-op-generic` output
re-parses and `linalg-generalize-named-ops` can turn any of them into a
`linalg.generic`.

The ops are grouped by family in this package's modules, as xDSL's own
`dialects/linalg/` is: `basic_ops` (generic, yield, copy, index), `fill_op`,
`contraction_ops`, `relayout_ops` (pack, unpack), `structured_ops` (transpose,
broadcast, reduce), `map_op` and `conv_ops`; `bodies`, `syntax`, `payload_form` (map's and
reduce's `{ payload.op }` short form) and `verifiers` hold what they share. Every name is importable from the package.

Verifier messages are MLIR's, word for word (types quoted the way MLIR's
diagnostics quote them); the driver adds MLIR's `'linalg.xxx' op` prefix.
"""

from xdsl.dialects.linalg import ops as xdsl_linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Dialect

from mini_iree.dialects.linalg.basic_ops import CopyOp, GenericOp, IndexOp, YieldOp
from mini_iree.dialects.linalg.bodies import (
    build_multiply_accumulate_region,
    build_scalar_cast,
    create_named_op,
    hidden_body,
)
from mini_iree.dialects.linalg.contraction_ops import (
    BatchMatmulOp,
    BatchMatvecOp,
    BatchMmt4DOp,
    BatchVecmatOp,
    ContractionOp,
    MatmulOp,
    MatvecOp,
    Mmt4DOp,
    VecmatOp,
)
from mini_iree.dialects.linalg.conv_ops import (
    Conv1DNwcWcfOp,
    Conv2DNchwFchwOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    Conv2DNhwcFhwcOp,
    Conv2DNhwcHwcfOp,
    Conv2DNhwgcGfhwcOp,
    Conv3DNdhwcDhwcfOp,
    PoolingNchwMaxOp,
)
from mini_iree.dialects.linalg.fill_op import FillOp
from mini_iree.dialects.linalg.map_op import MapOp
from mini_iree.dialects.linalg.relayout_ops import PackOp, UnPackOp, infer_packed_shape, infer_packed_type, packed_shape
from mini_iree.dialects.linalg.structured_ops import BroadcastOp, ReduceOp, TransposeOp
from mini_iree.dialects.linalg.syntax import (
    apply_permutation,
    element_type_or_self,
    invert_permutation,
    is_permutation,
    parse_ins_outs,
    parse_optional_arrow_type_list,
    print_ins_outs,
    print_optional_arrow_type_list,
)
from mini_iree.dialects.linalg.verifiers import verify_destination_style, verify_indexing_maps, verify_structured_op
from mini_iree.dialects.linalg_elementwise import ElementwiseKindAttr, ElementwiseOp

Linalg = Dialect(
    "linalg",
    [
        # Reused from xDSL: they already print like MLIR.
        GenericOp,
        YieldOp,
        IndexOp,
        FillOp,
        CopyOp,
        xdsl_linalg.AddOp,
        xdsl_linalg.SubOp,
        xdsl_linalg.MulOp,
        xdsl_linalg.MaxOp,
        xdsl_linalg.MinOp,
        xdsl_linalg.ExpOp,
        xdsl_linalg.LogOp,
        xdsl_linalg.SqrtOp,
        xdsl_linalg.SelectOp,
        xdsl_linalg.QuantizedMatmulOp,
        PoolingNchwMaxOp,
        # Ours.
        Conv2DNchwFchwOp,
        Conv2DNhwgcGfhwcOp,
        Conv2DNhwcHwcfOp,
        Conv2DNgchwGfchwOp,
        Conv2DNgchwFgchwOp,
        Conv2DNhwcFhwcOp,
        Conv1DNwcWcfOp,
        Conv3DNdhwcDhwcfOp,
        MatmulOp,
        BatchMatmulOp,
        MatvecOp,
        VecmatOp,
        BatchMatvecOp,
        BatchVecmatOp,
        Mmt4DOp,
        BatchMmt4DOp,
        PackOp,
        UnPackOp,
        TransposeOp,
        BroadcastOp,
        ReduceOp,
        MapOp,
        ElementwiseOp,
    ],
    [IteratorTypeAttr, ElementwiseKindAttr],
)

__all__ = [
    "BatchMatmulOp",
    "BatchMatvecOp",
    "BatchMmt4DOp",
    "BatchVecmatOp",
    "BroadcastOp",
    "ContractionOp",
    "Conv2DNchwFchwOp",
    "Conv2DNgchwFgchwOp",
    "Conv2DNgchwGfchwOp",
    "Conv2DNhwcFhwcOp",
    "Conv1DNwcWcfOp",
    "Conv3DNdhwcDhwcfOp",
    "Conv2DNhwcHwcfOp",
    "Conv2DNhwgcGfhwcOp",
    "CopyOp",
    "ElementwiseKindAttr",
    "ElementwiseOp",
    "FillOp",
    "GenericOp",
    "IndexOp",
    "IteratorTypeAttr",
    "Linalg",
    "MapOp",
    "MatmulOp",
    "MatvecOp",
    "Mmt4DOp",
    "PackOp",
    "ReduceOp",
    "TransposeOp",
    "UnPackOp",
    "VecmatOp",
    "YieldOp",
    "apply_permutation",
    "build_multiply_accumulate_region",
    "build_scalar_cast",
    "create_named_op",
    "element_type_or_self",
    "hidden_body",
    "infer_packed_shape",
    "infer_packed_type",
    "invert_permutation",
    "is_permutation",
    "packed_shape",
    "parse_ins_outs",
    "parse_optional_arrow_type_list",
    "print_ins_outs",
    "print_optional_arrow_type_list",
    "verify_destination_style",
    "verify_indexing_maps",
    "verify_structured_op",
]
