// REQUIRES: shared
// The walkthrough's combine-layout-transformation: dump 20 -> dump 22 (the gemm dispatch,
// equal line for line), dump 18 through both codegen passes -> dump 22 as well, and
// dump 21 -> dump 23's map_scatter (dump 23's padding loops are distributed to workgroups
// and then threads by IREE's GPU variant, iree-codegen-gpu-combine-layout-transformation;
// this pass's default distribution is one level over workgroups, as IREE's common pass).
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/20-bufferize-dispatch-tensor-load-store.gemm.after.mlir -p iree-codegen-combine-layout-transformation | filecheck %s --check-prefix=GEMM
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/18-materialize-device-encoding.gemm.after.mlir -p iree-codegen-bufferize-dispatch-tensor-load-store,iree-codegen-combine-layout-transformation | filecheck %s --check-prefix=GEMM
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/21-bufferize-dispatch-tensor-load-store.relayout.after.mlir -p iree-codegen-combine-layout-transformation | filecheck %s --check-prefix=RELAYOUT

// GEMM-LABEL: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32()
// GEMM-NEXT:    %c1 = arith.constant 1 : index
// GEMM-NOT:     iree_tensor_ext.dispatch.tensor
// GEMM: %51 = iree_codegen.inner_tiled ins(%47, %48) outs(%50) {indexing_maps = [#map2, #map3, #map4], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>} : tensor<?x?x8x4x4x4x4xf32>, tensor<?x?x4x2x4x16x4xf32> into tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim = tensor.dim %51, %c0 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim_0 = tensor.dim %51, %c1 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim_1 = tensor.dim %51, %c0 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim_2 = tensor.dim %51, %c1 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim_3 = tensor.dim %51, %c0 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim_4 = tensor.dim %51, %c1 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %dim_5 = tensor.dim %51, %c0 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %52 = affine.apply #map5()[%dim_5]
// GEMM-NEXT: %dim_6 = tensor.dim %51, %c1 : tensor<?x?x4x8x2x4x16x4xf32>
// GEMM-NEXT: %53 = affine.apply #map5()[%dim_6]
// GEMM-NEXT: %54 = tensor.empty(%36, %39) : tensor<?x?xf32>
// GEMM-NEXT: %55 = iree_linalg_ext.map_scatter %51 into %54 {
// GEMM-NEXT: ^bb0(%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index, %arg7: index):
// GEMM-NEXT: %56 = affine.linearize_index disjoint [%arg0, %arg1, %arg5, %arg3, %arg7, %arg2, %arg6, %arg4] by (%dim, %dim_0, 4, 8, 4, 4, 16, 2) : index
// GEMM-NEXT: %57:4 = affine.delinearize_index %56 into (%dim_1, %dim_2, 128, 128) : index, index, index, index
// GEMM-NEXT: %58 = affine.linearize_index disjoint [%57#0, %57#2, %57#1, %57#3] by (%dim_3, 128, %dim_4, 128) : index
// GEMM-NEXT: %59:2 = affine.delinearize_index %58 into (%52, %53) : index, index
// GEMM-NEXT: %60 = arith.cmpi ult, %59#0, %36 : index
// GEMM-NEXT: %61 = arith.cmpi ult, %59#1, %39 : index
// GEMM-NEXT: %62 = arith.andi %60, %61 : i1
// GEMM-NEXT: iree_linalg_ext.yield %59#0, %59#1, %62 : index, index, i1
// GEMM-NEXT: } : tensor<?x?x4x8x2x4x16x4xf32> into tensor<?x?xf32> -> tensor<?x?xf32>
// GEMM-NEXT: iree_codegen.store_to_buffer %55, %46 : tensor<?x?xf32> into memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
// GEMM-NEXT: return
// GEMM-NEXT: }

// RELAYOUT-LABEL: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32()
// RELAYOUT-NEXT:    %c1 = arith.constant 1 : index
// RELAYOUT-NEXT:    %true = arith.constant true
// RELAYOUT-NEXT:    %c16 = arith.constant 16 : index
// RELAYOUT-NEXT:    %c128 = arith.constant 128 : index
// RELAYOUT: %23 = iree_codegen.load_from_buffer %19 : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> -> tensor<?x?xf32>
// RELAYOUT-NEXT: %24 = affine.apply #map()[%15]
// RELAYOUT-NEXT: %25 = affine.apply #map1()[%16]
// RELAYOUT-NEXT: %26 = affine.apply #map2()[%24, %15, %15]
// RELAYOUT-NEXT: %27 = affine.apply #map3()[%25, %16, %16]
// RELAYOUT-NEXT: %28 = arith.divsi %26, %c128 : index
// RELAYOUT-NEXT: %29 = arith.divsi %27, %c16 : index
// RELAYOUT-NEXT: %30 = affine.apply #map2()[%24, %15, %15]
// RELAYOUT-NEXT: %31 = affine.apply #map3()[%25, %16, %16]
// RELAYOUT-NEXT: %32 = tensor.empty(%24, %25) : tensor<?x?x8x4x4x4x4xf32>
// RELAYOUT-NEXT: %33 = iree_linalg_ext.map_scatter %23 into %32 {
// RELAYOUT-NEXT: ^bb0(%arg0: index, %arg1: index):
// RELAYOUT-NEXT: %36 = affine.linearize_index disjoint [%arg0, %arg1] by (%30, %31) : index
// RELAYOUT-NEXT: %37:4 = affine.delinearize_index %36 into (%28, 128, %29, 16) : index, index, index, index
// RELAYOUT-NEXT: %38 = affine.linearize_index disjoint [%37#0, %37#2, %37#1, %37#3] by (%28, %29, 128, 16) : index
// RELAYOUT-NEXT: %39:7 = affine.delinearize_index %38 into (%24, %25, 4, 8, 4, 4, 4) : index, index, index, index, index, index, index
// RELAYOUT-NEXT: iree_linalg_ext.yield %39#0, %39#1, %39#3, %39#6, %39#2, %39#4, %39#5, %true : index, index, index, index, index, index, index, i1
// RELAYOUT-NEXT: } : tensor<?x?xf32> into tensor<?x?x8x4x4x4x4xf32> -> tensor<?x?x8x4x4x4x4xf32>
// RELAYOUT-NEXT: iree_codegen.store_to_buffer %33, %22 : tensor<?x?x8x4x4x4x4xf32> into memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
// RELAYOUT-NEXT: %34 = affine.apply #map2()[%24, %15, %15]
// RELAYOUT-NEXT: %35 = affine.apply #map3()[%25, %16, %16]
// RELAYOUT-NEXT: scf.forall (%arg0, %arg1) = (%15, 0) to (%34, %35) step (1, 64) {
// RELAYOUT-NEXT: %36 = affine.min #map4(%arg0)[%34]
// RELAYOUT-NEXT: %37 = affine.min #map5(%arg1)[%35]
// RELAYOUT-NEXT: scf.for %arg2 = %arg0 to %36 step %c1 {
// RELAYOUT-NEXT: scf.for %arg3 = %arg1 to %37 step %c1 {
// RELAYOUT-NEXT: %38 = affine.linearize_index disjoint [%arg2, %arg3] by (%30, %31) : index
// RELAYOUT-NEXT: %39:4 = affine.delinearize_index %38 into (%28, 128, %29, 16) : index, index, index, index
// RELAYOUT-NEXT: %40 = affine.linearize_index disjoint [%39#0, %39#2, %39#1, %39#3] by (%28, %29, 128, 16) : index
// RELAYOUT-NEXT: %41:7 = affine.delinearize_index %40 into (%24, %25, 4, 8, 4, 4, 4) : index, index, index, index, index, index, index
// RELAYOUT-NEXT: scf.if %true {
// RELAYOUT-NEXT: memref.store %cst, %22[%41#0, %41#1, %41#3, %41#6, %41#2, %41#4, %41#5] : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
// RELAYOUT-NEXT: }
// RELAYOUT-NEXT: }
// RELAYOUT-NEXT: }
// RELAYOUT-NEXT: } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
// RELAYOUT-NEXT: scf.forall (%arg0, %arg1) = (0, %16) to (%34, %35) step (1, 64) {
// RELAYOUT-NEXT: %36 = affine.min #map4(%arg0)[%34]
// RELAYOUT-NEXT: %37 = affine.min #map5(%arg1)[%35]
// RELAYOUT-NEXT: scf.for %arg2 = %arg0 to %36 step %c1 {
// RELAYOUT-NEXT: scf.for %arg3 = %arg1 to %37 step %c1 {
// RELAYOUT-NEXT: %38 = affine.linearize_index disjoint [%arg2, %arg3] by (%30, %31) : index
// RELAYOUT-NEXT: %39:4 = affine.delinearize_index %38 into (%28, 128, %29, 16) : index, index, index, index
// RELAYOUT-NEXT: %40 = affine.linearize_index disjoint [%39#0, %39#2, %39#1, %39#3] by (%28, %29, 128, 16) : index
// RELAYOUT-NEXT: %41:7 = affine.delinearize_index %40 into (%24, %25, 4, 8, 4, 4, 4) : index, index, index, index, index, index, index
// RELAYOUT-NEXT: scf.if %true {
// RELAYOUT-NEXT: memref.store %cst, %22[%41#0, %41#1, %41#3, %41#6, %41#2, %41#4, %41#5] : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
// RELAYOUT-NEXT: }
// RELAYOUT-NEXT: }
// RELAYOUT-NEXT: }
// RELAYOUT-NEXT: } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
// RELAYOUT-NEXT: return
// RELAYOUT-NEXT: }
