// RUN: mini-iree-opt %s -p 'iree-codegen-combine-source-layout-transformation,canonicalize,cse' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-codegen-combine-source-layout-transformation{test-combine-non-complex-chains=true},canonicalize,cse' --split-input-file | filecheck %s --check-prefix=ALL
// RUN: mini-iree-opt %s -p iree-codegen-combine-source-layout-transformation --split-input-file | filecheck %s --check-prefix=RAW

// Unpacking a loaded tile layout, then flattening it: a chain with a reshape and more than
// reshapes becomes one map_load whose region reads each element's tile and place in it.
func.func @unpack_then_collapse(%buf: memref<2x3x4x2xf32>) -> tensor<48xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<2x3x4x2xf32> -> tensor<2x3x4x2xf32>
  %e = tensor.empty() : tensor<8x6xf32>
  %u = linalg.unpack %src inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %e : tensor<2x3x4x2xf32> -> tensor<8x6xf32>
  %c = tensor.collapse_shape %u [[0, 1]] : tensor<8x6xf32> into tensor<48xf32>
  return %c : tensor<48xf32>
}
// Before the clean-up, the unpack's and the collapse's index maps stand in the region one after
// the other, the identity map_load's poison padding value still inside it.
// RAW-LABEL: func.func @unpack_then_collapse
// RAW-NOT:     linalg.unpack
// RAW:         iree_linalg_ext.map_load
// RAW:           ub.poison : f32
// RAW:         } : tensor<2x3x4x2xf32> into tensor<48xf32> -> tensor<48xf32>
// CHECK-LABEL: func.func @unpack_then_collapse
// CHECK:         %[[SRC:.+]] = iree_codegen.load_from_buffer
// CHECK:         %[[DEST:.+]] = tensor.empty() : tensor<48xf32>
// CHECK-NOT:     linalg.unpack
// CHECK:         %[[ML:.+]] = iree_linalg_ext.map_load %[[SRC]] into %[[DEST]] {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index):
// CHECK-NEXT:      %[[D:.+]]:4 = affine.delinearize_index %[[I]] into (2, 4, 3, 2) : index, index, index, index
// CHECK-NEXT:      iree_linalg_ext.yield %[[D]]#0, %[[D]]#2, %[[D]]#1, %[[D]]#3, %{{.+}} : index, index, index, index, f32
// CHECK:         } : tensor<2x3x4x2xf32> into tensor<48xf32> -> tensor<48xf32>
// CHECK:         return %[[ML]]

// -----

// A lone transpose is not a complex chain: bufferization handles it. Every chain is taken
// under the test option.
func.func @lone_transpose(%buf: memref<4x8xf32>) -> tensor<8x4xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<4x8xf32> -> tensor<4x8xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %t = linalg.transpose ins(%src : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  return %t : tensor<8x4xf32>
}
// CHECK-LABEL: func.func @lone_transpose
// CHECK:         linalg.transpose
// CHECK-NOT:     iree_linalg_ext.map_load
// ALL-LABEL:   func.func @lone_transpose
// ALL-NOT:       linalg.transpose
// ALL:           iree_linalg_ext.map_load
// ALL-NEXT:      ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// ALL-NEXT:        iree_linalg_ext.yield %[[J]], %[[I]], %{{.+}} : index, index, f32

// -----

// A pad's value becomes the map_load's padding value, read where the shifted index leaves the
// source; a second pad cannot replace it and stays.
func.func @pad_expand_pad(%buf: memref<6x4xf32>) -> tensor<2x5x6xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %src = iree_codegen.load_from_buffer %buf : memref<6x4xf32> -> tensor<6x4xf32>
  %p = tensor.pad %src low[1, 0] high[1, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %zero : f32
  } : tensor<6x4xf32> to tensor<8x4xf32>
  %x = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 4, 4] : tensor<8x4xf32> into tensor<2x4x4xf32>
  %q = tensor.pad %x low[0, 1, 1] high[0, 0, 1] {
  ^bb0(%a: index, %b: index, %c: index):
    tensor.yield %one : f32
  } : tensor<2x4x4xf32> to tensor<2x5x6xf32>
  return %q : tensor<2x5x6xf32>
}
// CHECK-LABEL: func.func @pad_expand_pad
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[ML:.+]] = iree_linalg_ext.map_load
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index, %[[K:.+]]: index):
// CHECK-NEXT:      %[[L:.+]] = affine.linearize_index disjoint [%[[I]], %[[J]]] by (2, 4) : index
// CHECK-NEXT:      %[[R:.+]] = arith.subi %[[L]], %[[C1]] overflow<nsw> : index
// CHECK-NEXT:      iree_linalg_ext.yield %[[R]], %[[K]], %[[ZERO]] : index, index, f32
// CHECK:         } : tensor<6x4xf32> into tensor<2x4x4xf32> -> tensor<2x4x4xf32>
// CHECK:         tensor.pad %[[ML]] low[0, 1, 1] high[0, 0, 1]

// -----

// A slice at a run-time offset, of a broadcast (folded since IREE 2026; 3.13 stops at the
// broadcast): the offset is the index read, the broadcast dim is not read at all.
func.func @slice_of_broadcast(%buf: memref<4x8xf32>, %row: index) -> tensor<1x2x8xf32> {
  %src = iree_codegen.load_from_buffer %buf : memref<4x8xf32> -> tensor<4x8xf32>
  %s = tensor.extract_slice %src[%row, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<1x8xf32>
  %e = tensor.empty() : tensor<1x2x8xf32>
  %b = linalg.broadcast ins(%s : tensor<1x8xf32>) outs(%e : tensor<1x2x8xf32>) dimensions = [1]
  %c = tensor.collapse_shape %b [[0, 1], [2]] : tensor<1x2x8xf32> into tensor<2x8xf32>
  %x = tensor.expand_shape %c [[0, 1], [2]] output_shape [1, 2, 8] : tensor<2x8xf32> into tensor<1x2x8xf32>
  return %x : tensor<1x2x8xf32>
}
// CHECK-LABEL: func.func @slice_of_broadcast
// CHECK-SAME:    (%{{.+}}: memref<4x8xf32>, %[[ROW:.+]]: index)
// CHECK:         iree_linalg_ext.map_load
// CHECK-NEXT:    ^bb0(%{{.+}}: index, %{{.+}}: index, %[[K:.+]]: index):
// CHECK-NEXT:      iree_linalg_ext.yield %[[ROW]], %[[K]], %{{.+}} : index, index, f32
