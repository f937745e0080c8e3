// REQUIRES: shared
// IREE 3.13's MaterializeEncodings output (stream.executables with serialized
// binding layouts, op-level encodings resolved for the module's device target)
// materializes into the shapes of IREE 3.13's MaterializeDeviceEncoding dumps,
// and the walkthrough's dump 17 (gfx942) into those of dumps 18 and 19.

// RUN: mini-iree-opt %shared/reference/iree-3.13/dynamic-matmul/13_MaterializeEncodingsPass.mlir -p iree-codegen-materialize-device-encoding | filecheck %s --check-prefix=DYN
// RUN: mini-iree-opt %shared/reference/iree-3.13/elementwise-producer-consumer/14_MaterializeEncodingsPass.mlir -p iree-codegen-materialize-device-encoding | filecheck %s --check-prefix=EW
// RUN: mini-iree-opt %shared/reference/iree-3.13/const-weight-matmul/14_MaterializeEncodingsPass.mlir -p iree-codegen-materialize-device-encoding | filecheck %s --check-prefix=CONST
// RUN: mini-iree-opt %shared/reference/iree-3.13/gfx942-dynamic-matmul/13_MaterializeEncodingsPass.mlir -p iree-codegen-materialize-device-encoding | filecheck %s --check-prefix=GFX313
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/17-materialize-encodings.after.mlir -p iree-codegen-materialize-device-encoding | filecheck %s --check-prefix=SEED
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/12-specialize-encodings.binding.example.mlir -p iree-codegen-materialize-device-encoding | filecheck %s --check-prefix=BINDING

// 14_MaterializeDeviceEncodingPass_matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32.mlir (x86_64 avx2)
// DYN-LABEL: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32(
// DYN:         %[[LHS_B:.+]] = stream.binding.subspan %arg0[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x1xf32>>
// DYN:         %[[RHS_B:.+]] = stream.binding.subspan %arg1[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x1xf32>>
// DYN:         %[[LHS:.+]] = iree_tensor_ext.dispatch.tensor.load %[[LHS_B]], offsets = [0, 0, 0, 0]
// DYN:         %[[RHS:.+]] = iree_tensor_ext.dispatch.tensor.load %[[RHS_B]], offsets = [0, 0, 0, 0]
// DYN:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x8x8xf32>
// DYN:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x?x8x8xf32>)
// DYN:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[LHS]], %[[RHS]] : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%[[FILL]] : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
// DYN:         linalg.unpack %[[MMT4D]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %{{.+}} : tensor<?x?x8x8xf32> -> tensor<?x?xf32>
// DYN-NOT:     iree_encoding
// 18_MaterializeDeviceEncodingPass__encoding_0_encode_DxDxf32_to_DxDxf32.mlir
// DYN-LABEL: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(
// DYN:         stream.binding.subspan %arg5[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>
// DYN:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
// 22_MaterializeDeviceEncodingPass__encoding_1_encode_DxDxf32_to_DxDxf32.mlir
// DYN-LABEL: func.func @_encoding_1_encode_DxDxf32_to_DxDxf32(
// DYN:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x8x1xf32>

// 15_..._dispatch_0_elementwise_DxD_f32: the producer packs its result for the matmul.
// EW-DAG:    #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// EW-DAG:    #[[$BIAS:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// EW-LABEL: func.func @matmul_ew_both_dispatch_0_elementwise_DxD_f32(
// EW:         linalg.generic {{.+}} ins(%{{.+}}, %{{.+}} : tensor<?x?xf32>, tensor<?xf32>) outs(%{{.+}} : tensor<?x?xf32>)
// EW:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
// 18_..._dispatch_1_matmul_DxDxD_f32: the bias is read packed (?x8) and the consumer runs on the 8x8 tiles.
// EW-LABEL: func.func @matmul_ew_both_dispatch_1_matmul_DxDxD_f32(
// EW:         stream.binding.subspan %arg2[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x8xf32>>
// EW:         %[[BIAS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x8xf32>
// EW:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x8x8xf32>
// EW:         %[[MMT4D:.+]] = linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%{{.+}} : tensor<?x?x8x8xf32>)
// EW:         %[[EW:.+]] = linalg.generic {indexing_maps = [#[[$ID4]], #[[$BIAS]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[MMT4D]], %[[BIAS]] : tensor<?x?x8x8xf32>, tensor<?x8xf32>) outs(%[[EMPTY]] : tensor<?x?x8x8xf32>)
// EW:           arith.addf
// EW:           arith.maximumf
// EW:         linalg.unpack %[[EW]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8]
// 26_..._encode_Dxf32_to_Dxf32: the bias vector.
// EW-LABEL: func.func @_encoding_1_encode_Dxf32_to_Dxf32(
// EW:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0] inner_dims_pos = [0] inner_tiles = [8] into %{{.+}} : tensor<?xf32> -> tensor<?x8xf32>

// 15_..._encode_256x512xf32_to_256x512xf32: a static full-tile pack has no padding value.
// CONST-LABEL: func.func @_encoding_0_encode_256x512xf32_to_256x512xf32(
// CONST:         %[[EMPTY:.+]] = tensor.empty() : tensor<64x256x8x1xf32>
// CONST:         linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %[[EMPTY]] : tensor<256x512xf32> -> tensor<64x256x8x1xf32>
// 19_..._matmul_Dx512x256_f32: narrow N (512 static, M dynamic): transposed mmt4d and unpack.
// CONST-LABEL: func.func @matmul_const_dispatch_0_matmul_Dx512x256_f32(
// CONST:         %[[W:.+]] = stream.binding.subspan %arg1[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<64x256x8x1xf32>>
// CONST:         %[[X:.+]] = stream.binding.subspan %arg0[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x256x8x1xf32>>
// CONST:         %[[XV:.+]] = iree_tensor_ext.dispatch.tensor.load %[[X]]
// CONST:         %[[WV:.+]] = iree_tensor_ext.dispatch.tensor.load %[[W]]
// CONST:         tensor.empty(%{{.+}}) : tensor<64x?x8x8xf32>
// CONST:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[WV]], %[[XV]] : tensor<64x256x8x1xf32>, tensor<?x256x8x1xf32>) outs(%{{.+}} : tensor<64x?x8x8xf32>) -> tensor<64x?x8x8xf32>
// CONST:         linalg.unpack %[[MMT4D]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 8] into %{{.+}} : tensor<64x?x8x8xf32> -> tensor<?x512xf32>
// 23_..._encode_Dx256xf32_to_Dx256xf32
// CONST-LABEL: func.func @_encoding_1_encode_Dx256xf32_to_Dx256xf32(
// CONST:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %{{.+}} : tensor<?x256xf32> -> tensor<?x256x8x1xf32>

// gfx942, IREE 3.13's heuristics (the binding layouts say so): 14_ and 20_.
// GFX313-LABEL: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32(
// GFX313:         %[[MMA:.+]] = iree_codegen.inner_tiled ins(%{{.+}}, %{{.+}}) outs(%{{.+}}) <indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x2x4x4x16x4xf32>, tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x2x4x4x4x16x4xf32>
// GFX313:         %[[T:.+]] = linalg.transpose ins(%[[MMA]] : tensor<?x?x2x2x4x4x4x16x4xf32>) outs(%{{.+}} : tensor<?x?x2x4x4x4x2x4x16xf32>) permutation = [0, 1, 2, 4, 6, 8, 3, 5, 7]
// GFX313:         %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1], [2, 3, 4, 5], [6, 7, 8]] : tensor<?x?x2x4x4x4x2x4x16xf32> into tensor<?x?x128x128xf32>
// GFX313:         linalg.unpack %[[C]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128]
// GFX313-LABEL: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(
// GFX313:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
// GFX313:         tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4], [5, 6]] output_shape [%{{.+}}, %{{.+}}, 2, 4, 16, 4, 4] : tensor<?x?x128x16xf32> into tensor<?x?x2x4x16x4x4xf32>
// GFX313:         linalg.transpose ins(%{{.+}} : tensor<?x?x2x4x16x4x4xf32>) outs(%{{.+}} : tensor<?x?x2x4x4x16x4xf32>) permutation = [0, 1, 2, 3, 6, 4, 5]

// The walkthrough: dump 18 (GEMM) and dump 19 (relayout).
// SEED-LABEL: func.func @matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32(
// SEED:         stream.binding.subspan %arg0[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x4x4x4x4xf32>>
// SEED:         stream.binding.subspan %arg1[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x4x2x4x16x4xf32>>
// SEED:         %[[LHS:.+]] = iree_tensor_ext.dispatch.tensor.load %{{.+}}, offsets = [0, 0, 0, 0, 0, 0, 0], sizes = [%{{.+}}, %{{.+}}, 8, 4, 4, 4, 4], strides = [1, 1, 1, 1, 1, 1, 1]
// SEED:         %[[RHS:.+]] = iree_tensor_ext.dispatch.tensor.load %{{.+}}, offsets = [0, 0, 0, 0, 0, 0, 0], sizes = [%{{.+}}, %{{.+}}, 4, 2, 4, 16, 4], strides = [1, 1, 1, 1, 1, 1, 1]
// SEED:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x4x8x2x4x16x4xf32>
// SEED:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x?x4x8x2x4x16x4xf32>)
// SEED:         %[[MMA:.+]] = iree_codegen.inner_tiled ins(%[[LHS]], %[[RHS]]) outs(%[[FILL]]) {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>} : tensor<?x?x8x4x4x4x4xf32>, tensor<?x?x4x2x4x16x4xf32> into tensor<?x?x4x8x2x4x16x4xf32>
// SEED:         %[[T:.+]] = linalg.transpose ins(%[[MMA]] : tensor<?x?x4x8x2x4x16x4xf32>) outs(%{{.+}} : tensor<?x?x4x8x4x4x16x2xf32>) permutation = [0, 1, 5, 3, 7, 2, 6, 4]
// SEED:         %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1], [2, 3, 4], [5, 6, 7]] : tensor<?x?x4x8x4x4x16x2xf32> into tensor<?x?x128x128xf32>
// SEED:         linalg.unpack %[[C]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %{{.+}} : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
// SEED-LABEL: func.func @_encoding_0_encode_DxDxf32_to_DxDxf32(
// SEED:         stream.binding.subspan %arg5[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x4x4x4x4xf32>>
// SEED:         %[[PACK:.+]] = linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
// SEED:         %[[E:.+]] = tensor.expand_shape %[[PACK]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] output_shape [%{{.+}}, %{{.+}}, 4, 8, 4, 4, 4] : tensor<?x?x128x16xf32> into tensor<?x?x4x8x4x4x4xf32>
// SEED:         linalg.transpose ins(%[[E]] : tensor<?x?x4x8x4x4x4xf32>) outs(%{{.+}} : tensor<?x?x8x4x4x4x4xf32>) permutation = [0, 1, 3, 6, 2, 4, 5]
// SEED-LABEL: func.func @_encoding_1_encode_DxDxf32_to_DxDxf32(
// SEED:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [128, 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
// SEED:         linalg.transpose ins(%{{.+}} : tensor<?x?x4x16x2x4x4xf32>) outs(%{{.+}} : tensor<?x?x4x2x4x16x4xf32>) permutation = [0, 1, 2, 4, 6, 3, 5]

// The walkthrough's dump 12: a function with a hal.executable.target attribute,
// its binding carrying the older `#iree_encoding.encoding<..., layouts = [...]>`
// (avx512f, static M = 1: a 1x1 tile), flow.dispatch.tensor ops.
// BINDING-LABEL: func.func @set_encoding_LHS_with_layout()
// BINDING:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !flow.dispatch.tensor<writeonly:tensor<1x256x1x1xf32>>
// BINDING:         %[[EMPTY:.+]] = tensor.empty() : tensor<1x256x1x1xf32>
// BINDING:         %[[PACK:.+]] = linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [1, 1] into %[[EMPTY]] : tensor<1x256xf32> -> tensor<1x256x1x1xf32>
// BINDING:         flow.dispatch.tensor.store %[[PACK]], %[[OUT]], offsets = [0, 0, 0, 0], sizes = [1, 256, 1, 1], strides = [1, 1, 1, 1]
