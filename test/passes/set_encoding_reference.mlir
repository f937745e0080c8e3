// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/01-annotate-data-tiling-hints.after.mlir -p iree-dispatch-creation-set-encoding | filecheck %s --check-prefix=WALK
// RUN: mini-iree-opt %shared/reference/iree-3.13/dynamic-matmul/03_input_before_AnnotateDataTilingHints.mlir -p iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding | filecheck %s --check-prefix=DYN
// RUN: mini-iree-opt %shared/reference/iree-3.13/dynamic-matmul/03_input_before_AnnotateDataTilingHints.mlir -p 'iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding{encoding-dims=true}' | filecheck %s --check-prefix=DYN313
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/03_input_before_AnnotateDataTilingHints.mlir -p iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding | filecheck %s --check-prefix=CONST
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/03_input_before_AnnotateDataTilingHints.mlir -p 'iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding{encoding-dims=true}' | filecheck %s --check-prefix=CONST313
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/03_input_before_AnnotateDataTilingHints.mlir -p iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding | filecheck %s --check-prefix=EW
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/03_input_before_AnnotateDataTilingHints.mlir -p 'iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding{encoding-dims=true}' | filecheck %s --check-prefix=EW313
// RUN: mini-iree-opt %shared/reference/iree-3.13/gfx942-dynamic-matmul/03_input_before_AnnotateDataTilingHints.mlir -p iree-dispatch-creation-annotate-data-tiling-hints,iree-dispatch-creation-set-encoding | filecheck %s --check-prefix=DYN

// The reference dumps in ../shared through the pass: the cases of set_encoding.mlir that need
// ../shared/reference, skipped (UNSUPPORTED) where it is absent.

// Walkthrough dump 01 -> 02, op for op.
// WALK:      #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// WALK-NEXT: #map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
// WALK-NEXT: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// WALK-NEXT: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// WALK-NEXT: #encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// WALK-NEXT: #encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// WALK-LABEL: util.func public @matmul_f32f32f32(
// WALK:         %[[LHS:.+]] = hal.tensor.import %arg0
// WALK:         %[[N:.+]] = hal.buffer_view.dim<%arg1 : !hal.buffer_view>[1] : index
// WALK-NEXT:    %[[RHS:.+]] = hal.tensor.import %arg1
// WALK-NEXT:    flow.dispatch.region -> (tensor<?x?xf32>{%[[M:.+]], %[[N]]}) {
// WALK-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// WALK-NEXT:      %[[A:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// WALK-NEXT:      %[[B:.+]] = iree_encoding.set_encoding %[[RHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// WALK-NEXT:      %[[E:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32, #encoding2>
// WALK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// WALK-NEXT:      %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%[[F]] : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// WALK-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%[[M]], %[[N]]}
// WALK-NEXT:      flow.return %[[U]] : tensor<?x?xf32>

// IREE 3.13 dynamic-matmul (and gfx942-dynamic-matmul): the ops of dump 05, walkthrough form.
// DYN-LABEL: util.func public @matmul_f32f32f32(
// DYN:         %[[LHS:.+]] = iree_tensor_ext.compute_barrier.start %2
// DYN:         %[[RHS:.+]] = iree_tensor_ext.compute_barrier.start %6
// DYN-NEXT:    flow.dispatch.region -> (tensor<?x?xf32>{%0, %5}) {
// DYN-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// DYN-NEXT:      %[[A:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// DYN-NEXT:      %[[B:.+]] = iree_encoding.set_encoding %[[RHS]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// DYN-NEXT:      %[[E:.+]] = tensor.empty(%0, %5) : tensor<?x?xf32, #encoding2>
// DYN-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x?xf32, #encoding2>)
// DYN-NEXT:      %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%[[F]] : tensor<?x?xf32, #encoding2>)
// DYN-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%0, %5}
// DYN-NEXT:      flow.return %[[U]] : tensor<?x?xf32>

// IREE 3.13's form: dynamic loop sizes as encoding_dims{M, N, K}, read with tensor.dim
// through the compute barriers (which do not state their sizes), in operand order.
// DYN313-LABEL: util.func public @matmul_f32f32f32(
// DYN313:         flow.dispatch.region -> (tensor<?x?xf32>{%0, %5}) {
// DYN313-NEXT:      %cst = arith.constant 0.000000e+00 : f32
// DYN313-NEXT:      %c0 = arith.constant 0 : index
// DYN313-NEXT:      %dim = tensor.dim %3, %c0 : tensor<?x?xf32>
// DYN313-NEXT:      %c1 = arith.constant 1 : index
// DYN313-NEXT:      %dim_0 = tensor.dim %3, %c1 : tensor<?x?xf32>
// DYN313-NEXT:      %c1_1 = arith.constant 1 : index
// DYN313-NEXT:      %dim_2 = tensor.dim %7, %c1_1 : tensor<?x?xf32>
// DYN313-NEXT:      %11 = iree_encoding.set_encoding %3 encoding_dims{%dim, %dim_2, %dim_0} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// DYN313-NEXT:      %12 = iree_encoding.set_encoding %7 encoding_dims{%dim, %dim_2, %dim_0} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// DYN313-NEXT:      %13 = tensor.empty(%0, %5) : tensor<?x?xf32, #encoding2>
// DYN313-NEXT:      %14 = linalg.fill ins(%cst : f32) outs(%13 : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// DYN313-NEXT:      %15 = linalg.matmul ins(%11, %12 : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%14 : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
// DYN313-NEXT:      %16 = iree_encoding.unset_encoding %15 encoding_dims{%dim, %dim_2, %dim_0} : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%0, %5}
// DYN313-NEXT:      flow.return %16 : tensor<?x?xf32>

// IREE 3.13 const-weight-matmul: a constant RHS and a static N and K.
// CONST:      #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 512, 256]>
// CONST-LABEL: util.func public @matmul_const(
// CONST:         %[[W:.+]] = arith.constant dense_resource<__elided__> : tensor<256x512xf32>
// CONST:         %[[LHS:.+]] = iree_tensor_ext.compute_barrier.start
// CONST-NEXT:    flow.dispatch.region -> (tensor<?x512xf32>{%0}) {
// CONST-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CONST-NEXT:      %[[A:.+]] = iree_encoding.set_encoding %[[LHS]] : tensor<?x256xf32> -> tensor<?x256xf32, #encoding>
// CONST-NEXT:      %[[B:.+]] = iree_encoding.set_encoding %[[W]] : tensor<256x512xf32> -> tensor<256x512xf32, #encoding1>
// CONST-NEXT:      %[[E:.+]] = tensor.empty(%0) : tensor<?x512xf32, #encoding2>
// CONST-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x512xf32, #encoding2>)
// CONST-NEXT:      %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<?x256xf32, #encoding>, tensor<256x512xf32, #encoding1>) outs(%[[F]] : tensor<?x512xf32, #encoding2>)
// CONST-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<?x512xf32, #encoding2> -> tensor<?x512xf32>{%0}
// CONST-NEXT:      flow.return %[[U]] : tensor<?x512xf32>

// CONST313-LABEL: util.func public @matmul_const(
// CONST313:         %cst_0 = arith.constant 0.000000e+00 : f32
// CONST313-NEXT:    %c0 = arith.constant 0 : index
// CONST313-NEXT:    %dim = tensor.dim %2, %c0 : tensor<?x256xf32>
// CONST313-NEXT:    %6 = iree_encoding.set_encoding %2 encoding_dims{%dim} : tensor<?x256xf32> -> tensor<?x256xf32, #encoding>
// CONST313-NEXT:    %7 = iree_encoding.set_encoding %cst encoding_dims{%dim} : tensor<256x512xf32> -> tensor<256x512xf32, #encoding1>
// CONST313-NEXT:    %8 = tensor.empty(%0) : tensor<?x512xf32, #encoding2>
// CONST313:         %11 = iree_encoding.unset_encoding %10 encoding_dims{%dim} : tensor<?x512xf32, #encoding2> -> tensor<?x512xf32>{%0}

// IREE 3.13 elementwise-producer-consumer: only the matmul is encoded; the consumer's
// tensor.empty stays where it was, and the LHS is the producer dispatch.
// EW-LABEL: util.func public @matmul_ew_both(
// EW:         %[[P:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%0, %1}) {
// EW-NOT:       iree_encoding
// EW:         flow.dispatch.region -> (tensor<?x?xf32>{%0, %8}) {
// EW-NEXT:      %[[EMPTY:.+]] = tensor.empty(%0, %8) : tensor<?x?xf32>
// EW-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// EW-NEXT:      %[[A:.+]] = iree_encoding.set_encoding %[[P]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// EW-NEXT:      %[[B:.+]] = iree_encoding.set_encoding %10 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// EW-NEXT:      %[[E:.+]] = tensor.empty(%0, %8) : tensor<?x?xf32, #encoding2>
// EW-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x?xf32, #encoding2>)
// EW-NEXT:      %[[R:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[F]] : tensor<?x?xf32, #encoding2>)
// EW-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[R]] : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%0, %8}
// EW-NEXT:      linalg.generic {{.*}} ins(%[[U]], %13 : tensor<?x?xf32>, tensor<?xf32>) outs(%[[EMPTY]] : tensor<?x?xf32>)

// The producer dispatch states M and K; only N needs a tensor.dim.
// EW313-LABEL: util.func public @matmul_ew_both(
// EW313:         %c1 = arith.constant 1 : index
// EW313-NEXT:    %dim = tensor.dim %10, %c1 : tensor<?x?xf32>
// EW313-NEXT:    %19 = iree_encoding.set_encoding %14 encoding_dims{%0, %dim, %1} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
