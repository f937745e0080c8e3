// RUN: mini-iree-opt %s -p 'iree-codegen-combine-result-layout-transformation{scope=dispatch}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-codegen-combine-result-layout-transformation{scope=workgroup}' --split-input-file | filecheck %s --check-prefix=WORKGROUP
// RUN: mini-iree-opt --iree-era=3.13 %s -p iree-codegen-gpu-combine-layout-transformation --split-input-file | filecheck %s --check-prefix=GPU

// IREE 3.13 folds a reshape group by group: one linearize for the collapsed pair.
// CHECK-LABEL: func.func @collapse
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<8x16xf32>
// CHECK-NEXT:    %{{.+}} = iree_linalg_ext.map_store %arg0 into %[[E]] {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index, %[[K:.+]]: index):
// CHECK-NEXT:      %[[L:.+]] = affine.linearize_index disjoint [%[[I]], %[[J]]] by (2, 4) : index
// CHECK-NEXT:      iree_linalg_ext.yield %[[L]], %[[K]], %true : index, index, i1
// GPU-LABEL: func.func @collapse
// GPU:         iree_linalg_ext.map_store
// GPU-NEXT:    ^bb0
// GPU-NEXT:      affine.linearize_index disjoint [%{{.+}}, %{{.+}}] by (2, 4) : index
func.func @collapse(%arg0 : tensor<2x4x16xf32>, %arg1 : memref<8x16xf32>) {
  %collapse = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x4x16xf32> into tensor<8x16xf32>
  iree_codegen.store_to_buffer %collapse, %arg1 : tensor<8x16xf32> into memref<8x16xf32>
  return
}

// -----

// An expand is one delinearize of the split index; a transpose after it only reorders.
// CHECK-LABEL: func.func @expand_transpose
// CHECK:         ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[D:.+]]:2 = affine.delinearize_index %[[I]] into (2, 4) : index, index
// CHECK-NEXT:      iree_linalg_ext.yield %[[J]], %[[D]]#0, %[[D]]#1, %true : index, index, index, i1
func.func @expand_transpose(%arg0 : tensor<8x16xf32>, %arg1 : memref<16x2x4xf32>) {
  %expand = tensor.expand_shape %arg0 [[0, 1], [2]] output_shape [2, 4, 16] : tensor<8x16xf32> into tensor<2x4x16xf32>
  %init = tensor.empty() : tensor<16x2x4xf32>
  %t = linalg.transpose ins(%expand : tensor<2x4x16xf32>) outs(%init : tensor<16x2x4xf32>) permutation = [2, 0, 1]
  iree_codegen.store_to_buffer %t, %arg1 : tensor<16x2x4xf32> into memref<16x2x4xf32>
  return
}

// -----

// A lone pad: the source moves by the low padding, and each non-zero low and high pad
// gets a loop nest over workgroups writing the pad value into the stored buffer; a
// dimension with one iteration uses its lower bound.
// CHECK-LABEL: func.func @pad
// CHECK:         iree_linalg_ext.map_store %arg0 into
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[I1:.+]] = arith.addi %[[I]], %c1 : index
// CHECK-NEXT:      %[[J1:.+]] = arith.addi %[[J]], %c2 : index
// CHECK-NEXT:      iree_linalg_ext.yield %[[I1]], %[[J1]], %true
// CHECK:         iree_codegen.store_to_buffer
// CHECK-NEXT:    scf.forall (%{{.+}}, %[[B:.+]]) = (0, 0) to (1, 256) step (1, 64) {
// CHECK-NEXT:      affine.min #{{.+}}(%[[B]])
// CHECK-NEXT:      scf.for %{{.+}} = %c0 to %c1 step %c1 {
// CHECK:         } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
// CHECK-NEXT:    scf.forall (%{{.+}}, %{{.+}}) = (121, 0) to (128, 256) step (1, 64) {
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 0) to (128, 2) step (1, 64) {
// CHECK:         scf.forall (%{{.+}}, %{{.+}}) = (0, 252) to (128, 256) step (1, 64) {
// CHECK-NOT:     scf.forall
// CHECK:         return
// GPU-LABEL: func.func @pad
// GPU:         scf.forall
// GPU:           scf.forall
// GPU:           } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
func.func @pad(%source : tensor<120x250xf32>, %result : memref<128x256xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %padded = tensor.pad %source low[1, 2] high[7, 4] {
  ^bb0(%arg0: index, %arg1: index):
    tensor.yield %cst : f32
  } : tensor<120x250xf32> to tensor<128x256xf32>
  iree_codegen.store_to_buffer %padded, %result : tensor<128x256xf32> into memref<128x256xf32>
  return
}

// -----

// The GPU variant of 3.13 leaves chains without a pack, unpack, reshape or pad.
// GPU-LABEL: func.func @transpose_only
// GPU-NOT:     map_store
// GPU:         linalg.transpose
func.func @transpose_only(%arg0 : tensor<16x8xf32>, %arg1 : memref<8x16xf32>) {
  %empty = tensor.empty() : tensor<8x16xf32>
  %t = linalg.transpose ins(%arg0 : tensor<16x8xf32>) outs(%empty : tensor<8x16xf32>) permutation = [1, 0]
  iree_codegen.store_to_buffer %t, %arg1 : tensor<8x16xf32> into memref<8x16xf32>
  return
}

// -----

// The workgroup scope: each chain a workgroup forall inserts becomes a map_store in
// the loop (a single result type may be written without parentheses).
// WORKGROUP-LABEL: func.func @in_workgroup_forall
// WORKGROUP:         scf.forall (%{{.+}}) = (0) to (32) step (8) shared_outs(%{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) -> (tensor<32xbf16>, tensor<32xbf16>) {
// WORKGROUP-COUNT-2:   iree_linalg_ext.map_store
// WORKGROUP:         } {mapping = [#iree_codegen.workgroup_mapping<x>]}
// CHECK-LABEL: func.func @in_workgroup_forall
// CHECK-NOT:     map_store
func.func @in_workgroup_forall(%2 : tensor<32xbf16>, %3 : tensor<32xbf16>, %9 : tensor<10xbf16>) -> (tensor<32xbf16>, tensor<32xbf16>) {
  %6:2 = scf.forall (%arg0) = (0) to (32) step (8) shared_outs(%arg2 = %2, %arg3 = %3) -> (tensor<32xbf16>, tensor<32xbf16>) {
    %extract = tensor.extract_slice %9 [0] [8] [1] : tensor<10xbf16> to tensor<8xbf16>
    %extract_0 = tensor.extract_slice %9 [0] [7] [1] : tensor<10xbf16> to tensor<7xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extract into %arg2[%arg0] [8] [1] : tensor<8xbf16> into tensor<32xbf16>
      tensor.parallel_insert_slice %extract_0 into %arg3[%arg0] [7] [1] : tensor<7xbf16> into tensor<32xbf16>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<x>]}
  return %6#0, %6#1 : tensor<32xbf16>, tensor<32xbf16>
}

// -----

// WORKGROUP-LABEL: func.func @not_in_thread_forall
// WORKGROUP-NOT:     map_store
func.func @not_in_thread_forall(%2 : tensor<32xbf16>, %9 : tensor<10xbf16>) -> tensor<32xbf16> {
  %6 = scf.forall (%arg0) = (0) to (32) step (8) shared_outs(%arg2 = %2) -> tensor<32xbf16> {
    %extract = tensor.extract_slice %9 [0] [8] [1] : tensor<10xbf16> to tensor<8xbf16>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %extract into %arg2[%arg0] [8] [1] : tensor<8xbf16> into tensor<32xbf16>
    }
  } {mapping = [#gpu.thread<linear_dim_0>]}
  return %6 : tensor<32xbf16>
}

// -----

// Before combining, the collapse (dispatch scope) and the unpack sink below the
// elementwise truncation, which then runs on the packed tensor.
// CHECK-LABEL: func.func @propagate_relayout_ops
// CHECK:         %[[INIT:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x128x128xf16>
// CHECK-NEXT:    %[[COMPUTE:.+]] = linalg.generic {{.+}} ins(%arg0 : tensor<?x?x128x128xf32>) outs(%[[INIT]] : tensor<?x?x128x128xf16>)
// CHECK:         %[[FLAT:.+]] = arith.muli %arg2, %arg3 : index
// CHECK-NEXT:    %[[E:.+]] = tensor.empty(%[[FLAT]]) : tensor<?xf16>
// CHECK-NEXT:    %{{.+}} = iree_linalg_ext.map_store %[[COMPUTE]] into %[[E]] {
// CHECK-NOT:     linalg.unpack
// WORKGROUP-LABEL: func.func @propagate_relayout_ops
// WORKGROUP:         linalg.generic {{.+}} outs(%{{.+}} : tensor<?xf16>)
func.func @propagate_relayout_ops(%arg0 : tensor<?x?x128x128xf32>, %arg1 : memref<?xf16>, %arg2: index, %arg3: index) {
  %dest = tensor.empty(%arg2, %arg3) : tensor<?x?xf32>
  %unpack = linalg.unpack %arg0 outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %dest : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
  %collapse = tensor.collapse_shape %unpack [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %flat_size = arith.muli %arg2, %arg3 : index
  %init = tensor.empty(%flat_size) : tensor<?xf16>
  %compute_op = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
       ins(%collapse : tensor<?xf32>) outs(%init : tensor<?xf16>) {
  ^bb0(%in: f32, %out: f16):
    %trunc = arith.truncf %in : f32 to f16
    linalg.yield %trunc : f16
  } -> tensor<?xf16>
  iree_codegen.store_to_buffer %compute_op, %arg1 : tensor<?xf16> into memref<?xf16>
  return
}

// -----

// A dynamic pack: each packed dim is split by the destination's outer size, and the
// padding loops' affine.min composes the padded size.
// CHECK-LABEL: func.func @pack_dynamic
// CHECK:         %[[D0:.+]] = memref.dim %arg1, %c0
// CHECK:         %[[D1:.+]] = memref.dim %arg1, %c1
// CHECK-NOT:     arith.divsi
// CHECK:         %[[E:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?x128x128xf32>
// CHECK-NEXT:    iree_linalg_ext.map_store %arg0 into %[[E]] {
// CHECK-NEXT:    ^bb0(%[[I:.+]]: index, %[[J:.+]]: index):
// CHECK-NEXT:      %[[A:.+]]:2 = affine.delinearize_index %[[I]] into (%[[D0]], 128) : index, index
// CHECK-NEXT:      %[[B:.+]]:2 = affine.delinearize_index %[[J]] into (%[[D1]], 128) : index, index
// CHECK-NEXT:      iree_linalg_ext.yield %[[A]]#0, %[[B]]#0, %[[A]]#1, %[[B]]#1, %true
// CHECK:         affine.min #{{.+}}(%{{.+}})[%[[D0]], %{{.+}}, %{{.+}}]
func.func @pack_dynamic(%arg0 : tensor<?x?xf32>, %arg1 : memref<?x?x128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.0 : f32
  %d0 = memref.dim %arg1, %c0 : memref<?x?x128x128xf32>
  %d1 = memref.dim %arg1, %c1 : memref<?x?x128x128xf32>
  %dest = tensor.empty(%d0, %d1) : tensor<?x?x128x128xf32>
  %pack = linalg.pack %arg0 padding_value(%cst : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %dest : tensor<?x?xf32> -> tensor<?x?x128x128xf32>
  iree_codegen.store_to_buffer %pack, %arg1 : tensor<?x?x128x128xf32> into memref<?x?x128x128xf32>
  return
}

// -----

// An unpack whose size is assumed a multiple of its tile drops nothing: no mask.
// CHECK-LABEL: func.func @unpack_whole_tiles
// CHECK:         iree_linalg_ext.map_store
// CHECK-NOT:     arith.cmpi
// CHECK:         iree_linalg_ext.yield %{{.+}}, %{{.+}}, %true
func.func @unpack_whole_tiles(%arg0 : index, %arg1 : memref<?x16384xf32>) {
  %assumed = util.assume.int %arg0<umin = 1024, umax = 16384, udiv = 128> : index
  %workload = iree_tensor_ext.dispatch.workload.ordinal %assumed, 0 : index
  %tiled_dim = affine.apply affine_map<()[s0] -> (s0 ceildiv 128)>()[%workload]
  %source = tensor.empty(%tiled_dim) : tensor<?x64x128x256xf32>
  %dest = tensor.empty(%workload) : tensor<?x16384xf32>
  %unpack = linalg.unpack %source outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 256] into %dest : tensor<?x64x128x256xf32> -> tensor<?x16384xf32>
  iree_codegen.store_to_buffer %unpack, %arg1 : tensor<?x16384xf32> into memref<?x16384xf32>
  return
}
