// RUN: mini-iree-opt %s -p iree-codegen-combine-layout-transformation --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-codegen-combine-result-layout-transformation{scope=dispatch}' --split-input-file | filecheck %s --check-prefix=MAPSTORE
// RUN: mini-iree-opt %s -p 'iree-codegen-combine-result-layout-transformation{scope=dispatch-reshape}' --split-input-file | filecheck %s --check-prefix=RESHAPE

// A CPU pack (no swizzle): one linearize/delinearize pair; the padded rows are written
// by a loop nest after the store. A unit tile pads nothing.
func.func @pack_without_swizzle(%src: tensor<?x?xf32>, %buf: memref<?x?x8x1xf32>, %d0: index, %d1: index) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%d0, %d1) : tensor<?x?x8x1xf32>
  %pack = linalg.pack %src padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %0 : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
  iree_codegen.store_to_buffer %pack, %buf : tensor<?x?x8x1xf32> into memref<?x?x8x1xf32>
  return
}
// CHECK-DAG:   #[[$PADDED:.+]] = affine_map<()[s0, s1, s2] -> (s0 * 8 - s1 + s2)>
// CHECK-DAG:   #[[$MIN1:.+]] = affine_map<(d0)[s0] -> (d0 + 1, s0)>
// CHECK-DAG:   #[[$MIN64:.+]] = affine_map<(d0)[s0] -> (d0 + 64, s0)>
// CHECK-LABEL: func.func @pack_without_swizzle
// CHECK-SAME:    (%[[SRC:.+]]: tensor<?x?xf32>, %[[BUF:.+]]: memref<?x?x8x1xf32>, %[[D0:.+]]: index, %[[D1:.+]]: index)
// CHECK:         %[[TRUE:.+]] = arith.constant true
// CHECK:         %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[M:.+]] = tensor.dim %[[SRC]], %c0
// CHECK:         %[[PAD0:.+]] = affine.apply #[[$PADDED]]()[%[[D0]], %[[M]], %[[M]]]
// CHECK:         %[[OUTER:.+]] = arith.divsi %[[PAD0]], %c8 : index
// CHECK:         %[[PAD0_1:.+]] = affine.apply #[[$PADDED]]()
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[OUTER]], %{{.+}}) : tensor<?x?x8x1xf32>
// CHECK:         %[[MS:.+]] = iree_linalg_ext.map_scatter %[[SRC]] into %[[EMPTY]] {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[L:.+]] = affine.linearize_index disjoint [%[[I]], %[[J]]] by (%[[PAD0_1]], %{{.+}}) : index
// CHECK-NEXT:      %[[D:.+]]:4 = affine.delinearize_index %[[L]] into (%[[OUTER]], 8, %{{.+}}, 1) : index, index, index, index
// CHECK-NEXT:      iree_linalg_ext.yield %[[D]]#0, %[[D]]#2, %[[D]]#1, %[[D]]#3, %[[TRUE]] : index, index, index, index, i1
// CHECK-NEXT:    } : tensor<?x?xf32> into tensor<?x?x8x1xf32> -> tensor<?x?x8x1xf32>
// CHECK-NEXT:    iree_codegen.store_to_buffer %[[MS]], %[[BUF]]
// CHECK:         %[[UB0:.+]] = affine.apply #[[$PADDED]]()
// CHECK:         %[[M2:.+]] = tensor.dim %[[SRC]], %c0
// CHECK:         scf.forall (%[[A0:.+]], %[[A1:.+]]) = (%[[M2]], 0) to (%[[UB0]], %{{.+}}) step (1, 64) {
// CHECK:           affine.min #[[$MIN1]](%[[A0]])[%[[UB0]]]
// CHECK:           affine.min #[[$MIN64]](%[[A1]])
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               affine.linearize_index
// CHECK:               affine.delinearize_index
// CHECK:               scf.if %[[TRUE]] {
// CHECK-NEXT:            memref.store %[[CST]], %[[BUF]][
// CHECK:         } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
// CHECK-NOT:     scf.forall
// CHECK-NOT:     linalg.pack
// CHECK:         return

// MAPSTORE-LABEL: func.func @pack_without_swizzle
// MAPSTORE:         iree_linalg_ext.map_store
// MAPSTORE-NOT:     iree_linalg_ext.map_scatter

// -----

// The walkthrough's relayout chain in small: pack, then expand_shape + transpose (the swizzle).
func.func @pack_expand_transpose(%src: tensor<5x7xf32>, %buf: memref<2x4x2x2x2xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x4x4x2xf32>
  %pack = linalg.pack %src padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %0 : tensor<5x7xf32> -> tensor<2x4x4x2xf32>
  %expanded = tensor.expand_shape %pack [[0], [1], [2, 3], [4]] output_shape [2, 4, 2, 2, 2] : tensor<2x4x4x2xf32> into tensor<2x4x2x2x2xf32>
  %1 = tensor.empty() : tensor<2x4x2x2x2xf32>
  %transposed = linalg.transpose ins(%expanded : tensor<2x4x2x2x2xf32>) outs(%1 : tensor<2x4x2x2x2xf32>) permutation = [0, 1, 3, 4, 2]
  iree_codegen.store_to_buffer %transposed, %buf : tensor<2x4x2x2x2xf32> into memref<2x4x2x2x2xf32>
  return
}
// CHECK-LABEL: func.func @pack_expand_transpose
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<2x4x2x2x2xf32>
// CHECK:         %[[MS:.+]] = iree_linalg_ext.map_scatter %{{.+}} into %[[EMPTY]] {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[L0:.+]] = affine.linearize_index disjoint [%[[I]], %[[J]]] by (8, 8) : index
// CHECK-NEXT:      %[[D0:.+]]:4 = affine.delinearize_index %[[L0]] into (2, 4, 4, 2)
// CHECK-NEXT:      %[[L1:.+]] = affine.linearize_index disjoint [%[[D0]]#0, %[[D0]]#2, %[[D0]]#1, %[[D0]]#3] by (2, 4, 4, 2) : index
// CHECK-NEXT:      %[[D1:.+]]:5 = affine.delinearize_index %[[L1]] into (2, 4, 2, 2, 2)
// CHECK-NEXT:      iree_linalg_ext.yield %[[D1]]#0, %[[D1]]#1, %[[D1]]#3, %[[D1]]#4, %[[D1]]#2, %{{.+}} : index, index, index, index, index, i1
// CHECK:         iree_codegen.store_to_buffer %[[MS]]
// Static pads: rows 5..8 of all columns, then columns 7..8 of all rows.
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (5, 0) to (8, 8) step (1, 64)
// CHECK:           memref.store
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 7) to (8, 8) step (1, 64)
// CHECK:           memref.store
// CHECK-NOT:     linalg.transpose
// CHECK:         return

// -----

// An unpack chain (inverse swizzle transpose, collapse, unpack, copy): the tail the
// unpack drops becomes the mask.
func.func @unpack_chain_with_mask(%src: tensor<2x2x2x2x8xf32>, %buf: memref<3x20xf32>) {
  %0 = tensor.empty() : tensor<2x2x2x8x2xf32>
  %transposed = linalg.transpose ins(%src : tensor<2x2x2x2x8xf32>) outs(%0 : tensor<2x2x2x8x2xf32>) permutation = [0, 1, 2, 4, 3]
  %collapsed = tensor.collapse_shape %transposed [[0], [1], [2], [3, 4]] : tensor<2x2x2x8x2xf32> into tensor<2x2x2x16xf32>
  %1 = tensor.empty() : tensor<3x20xf32>
  %unpack = linalg.unpack %collapsed outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [2, 16] into %1 : tensor<2x2x2x16xf32> -> tensor<3x20xf32>
  %2 = tensor.empty() : tensor<3x20xf32>
  %copy = linalg.copy ins(%unpack : tensor<3x20xf32>) outs(%2 : tensor<3x20xf32>) -> tensor<3x20xf32>
  iree_codegen.store_to_buffer %copy, %buf : tensor<3x20xf32> into memref<3x20xf32>
  return
}
// CHECK-LABEL: func.func @unpack_chain_with_mask
// CHECK-DAG:     %[[C20:.+]] = arith.constant 20 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         iree_linalg_ext.map_scatter %{{.+}} into %{{.+}} {
// CHECK-NEXT:    ^bb0(%[[A0:.+]]: index, %[[A1:.+]]: index, %[[A2:.+]]: index, %[[A3:.+]]: index, %[[A4:.+]]: index):
// CHECK-NEXT:      %[[L0:.+]] = affine.linearize_index disjoint [%[[A0]], %[[A1]], %[[A2]], %[[A4]], %[[A3]]] by (2, 2, 2, 8, 2) : index
// CHECK-NEXT:      %[[D0:.+]]:4 = affine.delinearize_index %[[L0]] into (2, 2, 2, 16)
// CHECK-NEXT:      %[[L1:.+]] = affine.linearize_index disjoint [%[[D0]]#0, %[[D0]]#2, %[[D0]]#1, %[[D0]]#3] by (2, 2, 2, 16) : index
// CHECK-NEXT:      %[[D1:.+]]:2 = affine.delinearize_index %[[L1]] into (4, 32)
// CHECK-NEXT:      %[[B0:.+]] = arith.cmpi ult, %[[D1]]#0, %[[C3]] : index
// CHECK-NEXT:      %[[B1:.+]] = arith.cmpi ult, %[[D1]]#1, %[[C20]] : index
// CHECK-NEXT:      %[[MASK:.+]] = arith.andi %[[B0]], %[[B1]] : i1
// CHECK-NEXT:      iree_linalg_ext.yield %[[D1]]#0, %[[D1]]#1, %[[MASK]] : index, index, i1
// CHECK-NEXT:    } : tensor<2x2x2x2x8xf32> into tensor<3x20xf32> -> tensor<3x20xf32>
// CHECK-NOT:     linalg.unpack
// CHECK-NOT:     linalg.copy
// CHECK-NOT:     scf.forall

// -----

// The CPU accumulator: unpack of an mmt4d result, dynamic sizes from tensor.dim.
func.func @unpack_mmt4d_result(%src: tensor<?x?x8x8xf32>, %buf: memref<?x?xf32>, %m: index, %n: index) {
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %unpack = linalg.unpack %src outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %0 : tensor<?x?x8x8xf32> -> tensor<?x?xf32>
  iree_codegen.store_to_buffer %unpack, %buf : tensor<?x?xf32> into memref<?x?xf32>
  return
}
// CHECK-DAG:   #[[$TIMES8:.+]] = affine_map<()[s0] -> (s0 * 8)>
// CHECK-LABEL: func.func @unpack_mmt4d_result
// CHECK-SAME:    (%[[SRC:.+]]: tensor<?x?x8x8xf32>, %[[BUF:.+]]: memref<?x?xf32>, %[[M:.+]]: index, %[[N:.+]]: index)
// CHECK:         %[[DIM:.+]] = tensor.dim %[[SRC]], %c0
// CHECK:         %[[DIM0:.+]] = tensor.dim %[[SRC]], %c1
// CHECK:         %[[DIM1:.+]] = tensor.dim %[[SRC]], %c0
// CHECK:         %[[PM:.+]] = affine.apply #[[$TIMES8]]()[%[[DIM1]]]
// CHECK:         %[[DIM2:.+]] = tensor.dim %[[SRC]], %c1
// CHECK:         %[[PN:.+]] = affine.apply #[[$TIMES8]]()[%[[DIM2]]]
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         iree_linalg_ext.map_scatter %[[SRC]] into %[[EMPTY]] {
// CHECK-NEXT:    ^bb0(%[[A0:.+]]: index, %[[A1:.+]]: index, %[[A2:.+]]: index, %[[A3:.+]]: index):
// CHECK-NEXT:      %[[L:.+]] = affine.linearize_index disjoint [%[[A0]], %[[A2]], %[[A1]], %[[A3]]] by (%[[DIM]], 8, %[[DIM0]], 8) : index
// CHECK-NEXT:      %[[D:.+]]:2 = affine.delinearize_index %[[L]] into (%[[PM]], %[[PN]]) : index, index
// CHECK-NEXT:      arith.cmpi ult, %[[D]]#0, %[[M]] : index
// CHECK-NEXT:      arith.cmpi ult, %[[D]]#1, %[[N]] : index
// CHECK-NEXT:      arith.andi

// -----

// A transpose alone: the region only reorders the indices.
func.func @transpose_only(%src: tensor<4x6xf32>, %buf: memref<6x4xf32>) {
  %0 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%src : tensor<4x6xf32>) outs(%0 : tensor<6x4xf32>) permutation = [1, 0]
  iree_codegen.store_to_buffer %t, %buf : tensor<6x4xf32> into memref<6x4xf32>
  return
}
// CHECK-LABEL: func.func @transpose_only
// IREE 3.13's dispatch-reshape scope only takes chains with a reshape in them.
// RESHAPE-LABEL: func.func @transpose_only
// RESHAPE:         linalg.transpose
// RESHAPE-NOT:     iree_linalg_ext.map_store
// CHECK:         %[[TRUE:.+]] = arith.constant true
// CHECK:         iree_linalg_ext.map_scatter %{{.+}} into %{{.+}} {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      iree_linalg_ext.yield %[[J]], %[[I]], %[[TRUE]] : index, index, i1
// CHECK-NEXT:    } : tensor<4x6xf32> into tensor<6x4xf32> -> tensor<6x4xf32>

// -----

// A transpose written as a linalg.generic is recognized too.
#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose_like_generic(%src: tensor<4x6xf32>, %buf: memref<6x4xf32>) {
  %0 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%src : tensor<4x6xf32>) outs(%0 : tensor<6x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<6x4xf32>
  iree_codegen.store_to_buffer %t, %buf : tensor<6x4xf32> into memref<6x4xf32>
  return
}
// CHECK-LABEL: func.func @transpose_like_generic
// CHECK:         ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      iree_linalg_ext.yield %[[J]], %[[I]], %{{.+}} : index, index, i1
// CHECK-NOT:     linalg.generic

// -----

// collapse then expand: two reshapes, and the one-element delinearize/linearize between them fold away.
func.func @collapse_expand(%src: tensor<4x6xf32>, %buf: memref<3x8xf32>) {
  %c = tensor.collapse_shape %src [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
  iree_codegen.store_to_buffer %e, %buf : tensor<3x8xf32> into memref<3x8xf32>
  return
}
// CHECK-LABEL: func.func @collapse_expand
// RESHAPE-LABEL: func.func @collapse_expand
// RESHAPE:         iree_linalg_ext.map_store
// CHECK:         ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[L:.+]] = affine.linearize_index disjoint [%[[I]], %[[J]]] by (4, 6) : index
// CHECK-NEXT:      %[[D:.+]]:2 = affine.delinearize_index %[[L]] into (3, 8) : index, index
// CHECK-NEXT:      iree_linalg_ext.yield %[[D]]#0, %[[D]]#1, %{{.+}} : index, index, i1
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape

// -----

// A chain that does not end in a store_to_buffer is left alone, and so is one whose
// result has another use.
func.func @chain_not_ending_at_store_left_alone(%src: tensor<4x6xf32>, %buf: memref<6x4xf32>) -> (tensor<6x4xf32>, tensor<6x4xf32>) {
  %0 = tensor.empty() : tensor<6x4xf32>
  %t = linalg.transpose ins(%src : tensor<4x6xf32>) outs(%0 : tensor<6x4xf32>) permutation = [1, 0]
  %1 = tensor.empty() : tensor<6x4xf32>
  %u = linalg.transpose ins(%src : tensor<4x6xf32>) outs(%1 : tensor<6x4xf32>) permutation = [1, 0]
  iree_codegen.store_to_buffer %u, %buf : tensor<6x4xf32> into memref<6x4xf32>
  return %t, %u : tensor<6x4xf32>, tensor<6x4xf32>
}
// CHECK-LABEL: func.func @chain_not_ending_at_store_left_alone
// CHECK-COUNT-2: linalg.transpose
// CHECK-NOT:     iree_linalg_ext.map_scatter
// CHECK:         return

// -----

// A slice at a non-zero offset is not an unpack's tail: left alone.
func.func @offset_slice_left_alone(%src: tensor<8x8xf32>, %buf: memref<4x4xf32>) {
  %s = tensor.extract_slice %src[2, 0] [4, 4] [1, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  iree_codegen.store_to_buffer %s, %buf : tensor<4x4xf32> into memref<4x4xf32>
  return
}
// CHECK-LABEL: func.func @offset_slice_left_alone
// CHECK:         tensor.extract_slice
// CHECK-NOT:     iree_linalg_ext.map_scatter

// MAPSTORE-LABEL: func.func @unpack_mmt4d_result
// MAPSTORE:         iree_linalg_ext.map_store %{{.+}} into %{{.+}} {
// MAPSTORE:           iree_linalg_ext.yield
// MAPSTORE:         } : tensor<?x?x8x8xf32> into tensor<?x?xf32> -> tensor<?x?xf32>

// -----

// A statically empty tensor has no index space to map (a 0 in a linearize basis is
// invalid IR): the chain is left alone.
func.func @zero_size_pack_left_alone(%src: tensor<?x0xf32>, %buf: memref<?x0x8x4xf32>, %d0: index) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%d0) : tensor<?x0x8x4xf32>
  %pack = linalg.pack %src padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 4] into %0 : tensor<?x0xf32> -> tensor<?x0x8x4xf32>
  iree_codegen.store_to_buffer %pack, %buf : tensor<?x0x8x4xf32> into memref<?x0x8x4xf32>
  return
}
// CHECK-LABEL: func.func @zero_size_pack_left_alone
// CHECK-NOT:     map_scatter
// CHECK:         %[[PACK:.+]] = linalg.pack
// CHECK-NEXT:    iree_codegen.store_to_buffer %[[PACK]]

// -----

// An index constant placed after the chain is the one reused for the tensor.dim ops of the
// unpack source: it moves to the top of the function, before its first use.
func.func @late_constant(%src: tensor<?x?x8x8xi32>, %buf: memref<?x?xi32>, %d0: index, %d1: index) {
  %0 = tensor.empty(%d0, %d1) : tensor<?x?xi32>
  %unpack = linalg.unpack %src outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %0 : tensor<?x?x8x8xi32> -> tensor<?x?xi32>
  %c1 = arith.constant 1 : index
  iree_codegen.store_to_buffer %unpack, %buf : tensor<?x?xi32> into memref<?x?xi32>
  return
}
// CHECK-LABEL: func.func @late_constant
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK:         tensor.dim %{{.+}}, %[[C1]]
// CHECK:         iree_linalg_ext.map_scatter
// CHECK-NOT:     arith.constant
// CHECK:         iree_codegen.store_to_buffer

// -----

// An unpack whose slice drops padding, then a pack that pads again (a chain of data-tiled
// matmuls): one map_scatter cannot both slice and pad, so the folding stops where IREE's
// op-by-op folding would: the pack is folded, the unpack stays.
func.func @unpack_then_pack(%m: index, %n: index, %src: memref<?x?x8x8xf32>, %dst: memref<?x?x8x1xf32>) {
  %cst = arith.constant 0.0 : f32
  %0 = iree_codegen.load_from_buffer %src : memref<?x?x8x8xf32> -> tensor<?x?x8x8xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %unpack = linalg.unpack %0 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %e : tensor<?x?x8x8xf32> -> tensor<?x?xf32>
  %mt = affine.apply affine_map<()[s0] -> (s0 ceildiv 8)>()[%m]
  %e2 = tensor.empty(%mt, %n) : tensor<?x?x8x1xf32>
  %pack = linalg.pack %unpack padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %e2 : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
  iree_codegen.store_to_buffer %pack, %dst : tensor<?x?x8x1xf32> into memref<?x?x8x1xf32>
  return
}
// CHECK-LABEL: func.func @unpack_then_pack(
// CHECK:         %[[UNPACK:.+]] = linalg.unpack
// CHECK-NOT:     linalg.pack
// CHECK:         %[[SCATTER:.+]] = iree_linalg_ext.map_scatter %[[UNPACK]] into
// CHECK:         iree_codegen.store_to_buffer %[[SCATTER]]
