// REQUIRES: shared
// The walkthrough's dispatches after MaterializeDeviceEncoding (dumps 18/19) give the
// subspans, loads and stores of dumps 20/21. (Dump 20 also shows the accumulator's
// linalg.transpose as a linalg.generic: that is iree-codegen-gpu-generalize-named-ops,
// which IREE's GPU pipeline runs before this pass, not this pass.)
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/18-materialize-device-encoding.gemm.after.mlir -p iree-codegen-bufferize-dispatch-tensor-load-store | filecheck %s --check-prefix=GEMM
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/19-materialize-device-encoding.relayout.after.mlir -p iree-codegen-bufferize-dispatch-tensor-load-store | filecheck %s --check-prefix=RELAYOUT

// GEMM-LABEL: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32()
// GEMM:         %[[D40:.+]] = affine.apply #map()[%[[M:.+]]]
// GEMM-NEXT:    %[[D41:.+]] = affine.apply #map1()[%{{.+}}]
// GEMM-NEXT:    %[[LHS:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>{%[[D40]], %[[D41]]}
// GEMM-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x4x4x4x4xf32>>{%[[D40]], %[[D41]]}
// GEMM-NEXT:    %[[D44:.+]] = affine.apply #map()
// GEMM-NEXT:    %[[D45:.+]] = affine.apply #map1()
// GEMM-NEXT:    %[[RHS:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%[[OFF:.+]]#0) flags("ReadOnly|Indirect") : memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>{%[[D44]], %[[D45]]}
// GEMM-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%[[OFF]]#0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x4x2x4x16x4xf32>>{%[[D44]], %[[D45]]}
// GEMM-NEXT:    %[[OUT:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%[[M]], %[[N:.+]]}
// GEMM-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%[[M]], %[[N]]}
// GEMM-NEXT:    %[[A:.+]] = iree_codegen.load_from_buffer %[[LHS]] : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>> -> tensor<?x?x8x4x4x4x4xf32>
// GEMM-NEXT:    %[[B:.+]] = iree_codegen.load_from_buffer %[[RHS]] : memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<?x?x4x2x4x16x4xf32>
// GEMM:         iree_codegen.inner_tiled ins(%[[A]], %[[B]])
// GEMM:         linalg.transpose
// GEMM:         %[[UNPACK:.+]] = linalg.unpack
// GEMM-NEXT:    iree_codegen.store_to_buffer %[[UNPACK]], %[[OUT]] : tensor<?x?xf32> into memref<?x?xf32, #hal.descriptor_type<storage_buffer>>
// GEMM-NEXT:    return
// GEMM-NOT:     iree_tensor_ext.dispatch.tensor.load
// GEMM-NOT:     iree_tensor_ext.dispatch.tensor.store

// RELAYOUT-LABEL: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32()
// RELAYOUT:         %[[SRC:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x?xf32, #hal.descriptor_type<storage_buffer>>{%[[M:.+]], %[[K:.+]]}
// RELAYOUT-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%[[M]], %[[K]]}
// RELAYOUT-NEXT:    %[[O0:.+]] = affine.apply #map()
// RELAYOUT-NEXT:    %[[O1:.+]] = affine.apply #map1()
// RELAYOUT-NEXT:    %[[DST:.+]] = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>{%[[O0]], %[[O1]]}
// RELAYOUT-NEXT:    hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x4x4x4x4xf32>>{%[[O0]], %[[O1]]}
// RELAYOUT-NEXT:    %[[LOAD:.+]] = iree_codegen.load_from_buffer %[[SRC]] : memref<?x?xf32, #hal.descriptor_type<storage_buffer>> -> tensor<?x?xf32>
// RELAYOUT:         linalg.pack %[[LOAD]]
// RELAYOUT:         %[[T:.+]] = linalg.transpose
// RELAYOUT-NEXT:    iree_codegen.store_to_buffer %[[T]], %[[DST]] : tensor<?x?x8x4x4x4x4xf32> into memref<?x?x8x4x4x4x4xf32, #hal.descriptor_type<storage_buffer>>
