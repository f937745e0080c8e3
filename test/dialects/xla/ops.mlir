// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// An XLA tiled layout as a tensor encoding; the string prints in XLA's
// canonical form (no spaces, attributes in XLA's order, defaults dropped).

// CHECK-LABEL: func.func @tpu_f32_tile
// CHECK-SAME: tensor<8x128xf32, #xla.layout<"{1,0:T(8,128)}">>
func.func @tpu_f32_tile(%arg0: tensor<8x128xf32, #xla.layout<"{1, 0 : T(8, 128)}">>) -> tensor<8x128xf32, #xla.layout<"{1,0:T(8,128)}">> {
  return %arg0 : tensor<8x128xf32, #xla.layout<"{1,0:T(8,128)}">>
}

// -----

// Repeated tiling, memory space, and a dynamic dimension.
// CHECK-LABEL: func.func @bf16_packing
// CHECK-SAME: tensor<?x8xbf16, #xla.layout<"{1,0:T(2,4)(2,1)S(1)}">>
func.func @bf16_packing(%arg0: tensor<?x8xbf16, #xla.layout<"{1,0:T(2,4)(2,1)L(1)S(1)}">>) {
  return
}

// -----

// Combined dimensions and column-major order.
// CHECK-LABEL: func.func @combine_dims
// CHECK-SAME: #xla.layout<"{4,3,2,1,0:T(*,*,2,*,3)}">
// CHECK-SAME: #xla.layout<"{0,1:T(8,1)}">
func.func @combine_dims(%arg0: tensor<2x7x8x11x10xf32, #xla.layout<"{4,3,2,1,0:T(*,*,2,*,3)}">>, %arg1: tensor<7x10xf32, #xla.layout<"{0,1:T(8,1)}">>) {
  return
}

// -----

// Rank 0 with a tile, and sub-byte elements packed with E(4).
// CHECK-LABEL: func.func @scalar_and_int4
// CHECK-SAME: tensor<ui32, #xla.layout<"{:T(128)}">>
// CHECK-SAME: tensor<64x128xi4, #xla.layout<"{1,0:T(64,128)(8,1)E(4)}">>
func.func @scalar_and_int4(%arg0: tensor<ui32, #xla.layout<"{:T(128)}">>, %arg1: tensor<64x128xi4, #xla.layout<"{1,0:T(64,128)(8,1)E(4)}">>) {
  return
}
