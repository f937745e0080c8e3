// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding | filecheck %s
// RUN: mini-iree-opt %s --split-input-file -p 'iree-codegen-materialize-device-encoding{gpu-era=3.13}' | filecheck %s --check-prefix=ERA313

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_lhs_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  %src = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>
  %enc = iree_encoding.set_encoding %src : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %enc, %b1, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @set_encoding_lhs_x86_64_avx2()
// CHECK-DAG:     %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[OUT_D0:.+]] = affine.apply #[[$CEIL8:.+]]()[%[[D0:.+]]]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>{%[[OUT_D0]], %[[D1:.+]]}
// CHECK:         %[[SRC:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %[[D1]]) : tensor<?x?x8x1xf32>
// CHECK:         %[[PACK:.+]] = linalg.pack %[[SRC]] padding_value(%[[CST]] : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 1] into %[[EMPTY]] : tensor<?x?xf32> -> tensor<?x?x8x1xf32>
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[PACK]], %[[OUT]], offsets = [0, 0, 0, 0], sizes = [%[[OUT_D0]], %[[D1]], 8, 1], strides = [1, 1, 1, 1]
// CHECK-NOT:     iree_encoding

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_rhs_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  %src = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>
  %enc = iree_encoding.set_encoding %src : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %enc, %b1, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @set_encoding_rhs_x86_64_avx2()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x1xf32>>
// CHECK:         linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [8, 1] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x8x1xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [256, 128, 512]>
func.func @set_encoding_lhs_static_x86_64_avx512() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x512xf32>>
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256x512xf32, #encoding>>
  %src = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [256, 512], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x512xf32>> -> tensor<256x512xf32>
  %enc = iree_encoding.set_encoding %src : tensor<256x512xf32> -> tensor<256x512xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %enc, %b1, offsets = [0, 0], sizes = [256, 512], strides = [1, 1] : tensor<256x512xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<256x512xf32, #encoding>>
  return
}
// Full static tiles: no padding value.
// CHECK-LABEL: func.func @set_encoding_lhs_static_x86_64_avx512()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x512x16x1xf32>>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<16x512x16x1xf32>
// CHECK:         linalg.pack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %[[EMPTY]] : tensor<256x512xf32> -> tensor<16x512x16x1xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
// CHECK-DAG:   #[[$CEIL8:.+]] = affine_map<()[s0] -> (s0 ceildiv 8)>
// CHECK-LABEL: func.func @matmul_x86_64_avx2()
// CHECK:         %[[LHS_D0:.+]] = affine.apply #[[$CEIL8]]()[%[[M:.+]]]
// CHECK:         %[[LHS_B:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x1xf32>>{%[[LHS_D0]], %[[K:.+]]}
// CHECK:         %[[RHS_D0:.+]] = affine.apply #[[$CEIL8]]()[%[[N:.+]]]
// CHECK:         %[[RHS_B:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x1xf32>>{%[[RHS_D0]], %[[K]]}
// CHECK:         %[[LHS:.+]] = iree_tensor_ext.dispatch.tensor.load %[[LHS_B]], offsets = [0, 0, 0, 0], sizes = [%[[LHS_D0]], %[[K]], 8, 1], strides = [1, 1, 1, 1]
// CHECK:         %[[RHS:.+]] = iree_tensor_ext.dispatch.tensor.load %[[RHS_B]]
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x8x8xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[LHS]], %[[RHS]] : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%[[FILL]] : tensor<?x?x8x8xf32>) -> tensor<?x?x8x8xf32>
// CHECK:         %[[DEST:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         %[[UNPACK:.+]] = linalg.unpack %[[MMT4D]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %[[DEST]] : tensor<?x?x8x8xf32> -> tensor<?x?xf32>
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[UNPACK]]

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_x86_64_avx512() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @matmul_x86_64_avx512()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x16x1xf32>, tensor<?x?x16x1xf32>) outs(%{{.+}} : tensor<?x?x16x16xf32>)
// CHECK:         linalg.unpack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 16]

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [2, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [2, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [2, ?, ?]>
func.func @matmul_narrow_m_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?xf32, #encoding0>>{%d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d1, %d0}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x?xf32>>{%d0}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x?xf32, #encoding0>>{%d1} -> tensor<2x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d1, %d0], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d1, %d0} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0) : tensor<2x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x?xf32, #encoding2>) -> tensor<2x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<2x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<2x?xf32, #encoding2>) -> tensor<2x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<2x?xf32, #encoding2> -> tensor<2x?xf32>{%d0}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [2, %d0], strides = [1, 1] : tensor<2x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x?xf32>>{%d0}
  return
}
// Static M = 2: the resolver's narrow-M tile 2x8x1.
// CHECK-LABEL: func.func @matmul_narrow_m_x86_64_avx2()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x?x2x1xf32>>
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<1x?x2x1xf32>, tensor<?x?x8x1xf32>) outs(%{{.+}} : tensor<1x?x2x8xf32>)
// CHECK:         linalg.unpack %{{.+}} inner_tiles = [2, 8] {{.+}} : tensor<1x?x2x8xf32> -> tensor<2x?xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [32, 513, 8]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [32, 513, 8]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [32, 513, 8]>
func.func @matmul_static_32x513x8_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x8xf32, #encoding0>>
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x513xf32, #encoding1>>
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x513xf32>>
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [32, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<32x8xf32, #encoding0>> -> tensor<32x8xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [8, 513], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x513xf32, #encoding1>> -> tensor<8x513xf32, #encoding1>
  %empty = tensor.empty() : tensor<32x513xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x513xf32, #encoding2>) -> tensor<32x513xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<32x8xf32, #encoding0>, tensor<8x513xf32, #encoding1>) outs(%fill : tensor<32x513xf32, #encoding2>) -> tensor<32x513xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<32x513xf32, #encoding2> -> tensor<32x513xf32>
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [32, 513], strides = [1, 1] : tensor<32x513xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<32x513xf32>>
  return
}
// CHECK-LABEL: func.func @matmul_static_32x513x8_x86_64_avx2()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<4x8x8x1xf32>, tensor<65x8x8x1xf32>) outs(%{{.+}} : tensor<4x65x8x8xf32>)
// CHECK:         linalg.unpack %{{.+}} : tensor<4x65x8x8xf32> -> tensor<32x513xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, 4, 256]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, 4, 256]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, 4, 256]>
func.func @matmul_narrow_n_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x256xf32, #encoding0>>{%d0}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x4xf32, #encoding1>>
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%d0}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, 256], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x256xf32, #encoding0>>{%d0} -> tensor<?x256xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [256, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<256x4xf32, #encoding1>> -> tensor<256x4xf32, #encoding1>
  %empty = tensor.empty(%d0) : tensor<?x4xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x4xf32, #encoding2>) -> tensor<?x4xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x256xf32, #encoding0>, tensor<256x4xf32, #encoding1>) outs(%fill : tensor<?x4xf32, #encoding2>) -> tensor<?x4xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x4xf32, #encoding2> -> tensor<?x4xf32>{%d0}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%d0}
  return
}
// Static N = 4 < dynamic M: the result is stored transposed and the mmt4d
// computes C^T = B^T A^T (RHS first).
// CHECK-LABEL: func.func @matmul_narrow_n_x86_64_avx2()
// CHECK:         %[[LHS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x256x8x1xf32>
// CHECK:         %[[RHS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<1x256x4x1xf32>
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[RHS]], %[[LHS]] : tensor<1x256x4x1xf32>, tensor<?x256x8x1xf32>) outs(%{{.+}} : tensor<1x?x4x8xf32>)
// CHECK:         linalg.unpack %[[MMT4D]] outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [4, 8] into %{{.+}} : tensor<1x?x4x8xf32> -> tensor<?x4xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [?, ?]>
func.func @matvec_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #encoding1>>{%d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%d0}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d1} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0], sizes = [%d1], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #encoding1>>{%d1} -> tensor<?xf32, #encoding1>
  %empty = tensor.empty(%d0) : tensor<?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?xf32, #encoding2>) -> tensor<?xf32, #encoding2>
  %res = linalg.matvec ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?xf32, #encoding1>) outs(%fill : tensor<?xf32, #encoding2>) -> tensor<?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?xf32, #encoding2> -> tensor<?xf32>{%d0}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0], sizes = [%d0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%d0}
  return
}
// Matvec: N = 1 is narrow, so the vector goes first, expanded to unit dims. The init is
// filled as the 4-D tile mmt4d reads (the expand_shape folded into the fill and the empty).
// CHECK-LABEL: func.func @matvec_x86_64_avx2()
// CHECK:         %[[MAT:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x?x8x1xf32>
// CHECK:         %[[VEC:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x1xf32>
// CHECK:         %[[VEC4D:.+]] = tensor.expand_shape %[[VEC]] {{\[}}[0, 1], [2, 3]] output_shape [1, %{{.+}}, 1, 1] : tensor<?x1xf32> into tensor<1x?x1x1xf32>
// CHECK:         %[[EMPTY4D:.+]] = tensor.empty(%{{.+}}) : tensor<1x?x1x8xf32>
// CHECK:         %[[ACC4D:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY4D]] : tensor<1x?x1x8xf32>)
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[VEC4D]], %[[MAT]] : tensor<1x?x1x1xf32>, tensor<?x?x8x1xf32>) outs(%[[ACC4D]] : tensor<1x?x1x8xf32>)
// CHECK:         %[[RES:.+]] = tensor.collapse_shape %[[MMT4D]] {{\[}}[0, 1], [2, 3]] : tensor<1x?x1x8xf32> into tensor<?x8xf32>
// CHECK:         linalg.unpack %[[RES]] outer_dims_perm = [0] inner_dims_pos = [0] inner_tiles = [8] into %{{.+}} : tensor<?x8xf32> -> tensor<?xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [?, ?]>
func.func @vecmat_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #encoding0>>{%d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d1, %d0}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%d0}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0], sizes = [%d1], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #encoding0>>{%d1} -> tensor<?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d1, %d0], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d1, %d0} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0) : tensor<?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?xf32, #encoding2>) -> tensor<?xf32, #encoding2>
  %res = linalg.vecmat ins(%lhs, %rhs : tensor<?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?xf32, #encoding2>) -> tensor<?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?xf32, #encoding2> -> tensor<?xf32>{%d0}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0], sizes = [%d0], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%d0}
  return
}
// CHECK-LABEL: func.func @vecmat_x86_64_avx2()
// CHECK:         %[[VEC4D:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2, 3]] {{.+}} : tensor<?x1xf32> into tensor<1x?x1x1xf32>
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[VEC4D]], %{{.+}} : tensor<1x?x1x1xf32>, tensor<?x?x8x1xf32>) outs(%{{.+}} : tensor<1x?x1x8xf32>)
// CHECK:         tensor.collapse_shape %[[MMT4D]] {{\[}}[0, 1], [2, 3]] : tensor<1x?x1x8xf32> into tensor<?x8xf32>

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iteration_sizes = [?, ?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iteration_sizes = [?, ?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iteration_sizes = [?, ?, ?, ?]>
func.func @batch_matmul_x86_64_avx512() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %i3 = hal.interface.constant.load layout(#pipeline_layout) ordinal(3) : i32
  %d3 = arith.index_castui %i3 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x?xf32, #encoding0>>{%d0, %d1, %d3}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x?xf32, #encoding1>>{%d0, %d3, %d2}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x?xf32>>{%d0, %d1, %d2}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0, 0], sizes = [%d0, %d1, %d3], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x?xf32, #encoding0>>{%d0, %d1, %d3} -> tensor<?x?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0, 0], sizes = [%d0, %d3, %d2], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x?xf32, #encoding1>>{%d0, %d3, %d2} -> tensor<?x?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1, %d2) : tensor<?x?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?x?xf32, #encoding2>) -> tensor<?x?x?xf32, #encoding2>
  %res = linalg.batch_matmul ins(%lhs, %rhs : tensor<?x?x?xf32, #encoding0>, tensor<?x?x?xf32, #encoding1>) outs(%fill : tensor<?x?x?xf32, #encoding2>) -> tensor<?x?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?x?xf32, #encoding2> -> tensor<?x?x?xf32>{%d0, %d1, %d2}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0, 0], sizes = [%d0, %d1, %d2], strides = [1, 1, 1] : tensor<?x?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x?xf32>>{%d0, %d1, %d2}
  return
}
// CHECK-LABEL: func.func @batch_matmul_x86_64_avx512()
// CHECK:         linalg.batch_mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x?x16x1xf32>, tensor<?x?x?x16x1xf32>) outs(%{{.+}} : tensor<?x?x?x16x16xf32>)
// CHECK:         linalg.unpack %{{.+}} outer_dims_perm = [0, 1, 2] inner_dims_pos = [1, 2] inner_tiles = [16, 16]

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_f16_x86_64_avx512() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16, #encoding0>>{%d0, %d2} -> tensor<?x?xf16, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf16, #encoding1>>{%d2, %d1} -> tensor<?x?xf16, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf16, #encoding0>, tensor<?x?xf16, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @matmul_f16_x86_64_avx512()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x16x1xf16>, tensor<?x?x16x1xf16>) outs(%{{.+}} : tensor<?x?x16x16xf32>)

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_i8_x86_64_avx2() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xi32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding0>>{%d0, %d2} -> tensor<?x?xi8, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding1>>{%d2, %d1} -> tensor<?x?xi8, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xi32, #encoding2>
  %zero = arith.constant 0 : i32
  %fill = linalg.fill ins(%zero : i32) outs(%empty : tensor<?x?xi32, #encoding2>) -> tensor<?x?xi32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xi8, #encoding0>, tensor<?x?xi8, #encoding1>) outs(%fill : tensor<?x?xi32, #encoding2>) -> tensor<?x?xi32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xi32, #encoding2> -> tensor<?x?xi32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xi32>>{%d0, %d1}
  return
}
// i8 x i8 -> i32: 8x8x2 tiles; mmt4d sign-extends as the matmul did.
// CHECK-LABEL: func.func @matmul_i8_x86_64_avx2()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x8x2xi8>, tensor<?x?x8x2xi8>) outs(%{{.+}} : tensor<?x?x8x8xi32>)

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_aarch64() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "aarch64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @matmul_aarch64()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%{{.+}} : tensor<?x?x8x8xf32>)

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_i8_aarch64_no_dotprod_drops_encodings() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "aarch64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xi32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding0>>{%d0, %d2} -> tensor<?x?xi8, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8, #encoding1>>{%d2, %d1} -> tensor<?x?xi8, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xi32, #encoding2>
  %zero = arith.constant 0 : i32
  %fill = linalg.fill ins(%zero : i32) outs(%empty : tensor<?x?xi32, #encoding2>) -> tensor<?x?xi32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xi8, #encoding0>, tensor<?x?xi8, #encoding1>) outs(%fill : tensor<?x?xi32, #encoding2>) -> tensor<?x?xi32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xi32, #encoding2> -> tensor<?x?xi32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xi32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xi32>>{%d0, %d1}
  return
}
// No i8 tile without +dotprod/+i8mm: identity layouts, the encodings are dropped.
// CHECK-LABEL: func.func @matmul_i8_aarch64_no_dotprod_drops_encodings()
// CHECK:         hal.interface.binding.subspan {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xi8>>
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<?x?xi8>, tensor<?x?xi8>) outs(%{{.+}} : tensor<?x?xi32>) -> tensor<?x?xi32>
// CHECK-NOT:     iree_encoding
// CHECK-NOT:     linalg.unpack

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_riscv64() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+v", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "riscv64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @matmul_riscv64()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x7x1xf32>, tensor<?x?x16x1xf32>) outs(%{{.+}} : tensor<?x?x7x16xf32>)

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_vmvx() attributes {hal.executable.target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @matmul_vmvx()
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x8x4xf32>, tensor<?x?x8x4xf32>) outs(%{{.+}} : tensor<?x?x8x8xf32>)

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_lhs_gfx942() attributes {hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  %src = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>
  %enc = iree_encoding.set_encoding %src : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %enc, %b1, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  return
}
// The walkthrough's swizzled LHS (dump 19).
// CHECK-LABEL: func.func @set_encoding_lhs_gfx942()
// CHECK:         %[[D0:.+]] = affine.apply #{{.+}}()[%{{.+}}]
// CHECK:         %[[D1:.+]] = affine.apply #{{.+}}()[%{{.+}}]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x8x4x4x4x4xf32>>{%[[D0]], %[[D1]]}
// CHECK:         %[[PACK:.+]] = linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 16] into %{{.+}} : tensor<?x?xf32> -> tensor<?x?x128x16xf32>
// CHECK:         %[[EXPANDED:.+]] = tensor.expand_shape %[[PACK]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] output_shape [%{{.+}}, %{{.+}}, 4, 8, 4, 4, 4] : tensor<?x?x128x16xf32> into tensor<?x?x4x8x4x4x4xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[EXPANDED]] : tensor<?x?x4x8x4x4x4xf32>) outs(%{{.+}} : tensor<?x?x8x4x4x4x4xf32>) permutation = [0, 1, 3, 6, 2, 4, 5]
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[T]], %[[OUT]], offsets = [0, 0, 0, 0, 0, 0, 0], sizes = [%[[D0]], %[[D1]], 8, 4, 4, 4, 4]

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_rhs_gfx942() attributes {hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  %src = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%d0, %d1} -> tensor<?x?xf32>
  %enc = iree_encoding.set_encoding %src : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %enc, %b1, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%d0, %d1}
  return
}
// CHECK-LABEL: func.func @set_encoding_rhs_gfx942()
// CHECK:         linalg.pack %{{.+}} outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [128, 16]
// CHECK:         tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3, 4], [5, 6]] output_shape [%{{.+}}, %{{.+}}, 4, 16, 2, 4, 4]
// CHECK:         linalg.transpose ins(%{{.+}} : tensor<?x?x4x16x2x4x4xf32>) outs(%{{.+}} : tensor<?x?x4x2x4x16x4xf32>) permutation = [0, 1, 2, 4, 6, 3, 5]

// -----

#pipeline_layout = #hal.pipeline.layout<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @matmul_gfx942() attributes {hal.executable.target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %d1 = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %d2 = arith.index_castui %i2 : i32 to index
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2}
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1}
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [%d0, %d2], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding0>>{%d0, %d2} -> tensor<?x?xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0, 0], sizes = [%d2, %d1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%d2, %d1} -> tensor<?x?xf32, #encoding1>
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding2>
  %zero = arith.constant 0.000000e+00 : f32
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %res = linalg.matmul ins(%lhs, %rhs : tensor<?x?xf32, #encoding0>, tensor<?x?xf32, #encoding1>) outs(%fill : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
  %out = iree_encoding.unset_encoding %res : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%d0, %d1}
  iree_tensor_ext.dispatch.tensor.store %out, %b2, offsets = [0, 0], sizes = [%d0, %d1], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%d0, %d1}
  return
}

// The walkthrough's GEMM (dump 18): inner_tiled on swizzled tiles, the result un-swizzled and unpacked.
// CHECK-LABEL: func.func @matmul_gfx942()
// CHECK:         %[[LHS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x?x8x4x4x4x4xf32>
// CHECK:         %[[RHS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x?x4x2x4x16x4xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x?x4x8x2x4x16x4xf32>)
// CHECK:         %[[MMA:.+]] = iree_codegen.inner_tiled ins(%[[LHS]], %[[RHS]]) outs(%[[FILL]]) {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>} : tensor<?x?x8x4x4x4x4xf32>, tensor<?x?x4x2x4x16x4xf32> into tensor<?x?x4x8x2x4x16x4xf32>
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[MMA]] : tensor<?x?x4x8x2x4x16x4xf32>) outs(%{{.+}} : tensor<?x?x4x8x4x4x16x2xf32>) permutation = [0, 1, 5, 3, 7, 2, 6, 4]
// CHECK:         %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[}}[0], [1], [2, 3, 4], [5, 6, 7]] : tensor<?x?x4x8x4x4x16x2xf32> into tensor<?x?x128x128xf32>
// CHECK:         linalg.unpack %[[C]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [128, 128] into %{{.+}} : tensor<?x?x128x128xf32> -> tensor<?x?xf32>
// With IREE 3.13's heuristics (gpu-era=3.13), as in its gfx942 dump:
// ERA313-LABEL: func.func @matmul_gfx942()
// ERA313:         iree_codegen.inner_tiled ins(%{{.+}}, %{{.+}}) outs(%{{.+}}) <{{.+}} kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x2x4x4x16x4xf32>, tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x2x4x4x4x16x4xf32>
// ERA313:         linalg.transpose ins(%{{.+}} : tensor<?x?x2x2x4x4x4x16x4xf32>) outs(%{{.+}} : tensor<?x?x2x4x4x4x2x4x16xf32>) permutation = [0, 1, 2, 4, 6, 8, 3, 5, 7]

// -----

// Elementwise consumer of the matmul, fused in its dispatch: the bias (encoded
// through a broadcast map chain) is packed ?x8 and the generic runs on the
// result's 8x8 tiles (IREE 3.13's matmul_ew_both_dispatch_1).

#pipeline_layout = #hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#bias = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #bcast]], iteration_sizes = [?, ?, ?]>
func.func @elementwise_generic_on_packed_tiles() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %m = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %n = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %k = arith.index_castui %i2 : i32 to index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs>>{%k, %n}
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #bias>>{%n}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k} -> tensor<?x?xf32, #lhs>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%k, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs>>{%k, %n} -> tensor<?x?xf32, #rhs>
  %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #bias>>{%n} -> tensor<?xf32, #bias>
  %7 = tensor.empty(%m, %n) : tensor<?x?xf32, #out>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %9 = linalg.matmul ins(%4, %5 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%8 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %10 = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<?x?xf32, #out>, tensor<?xf32, #bias>) outs(%7 : tensor<?x?xf32, #out>) {
  ^bb0(%in: f32, %in_0: f32, %o: f32):
    %12 = arith.addf %in, %in_0 : f32
    %13 = arith.maximumf %12, %cst : f32
    linalg.yield %13 : f32
  } -> tensor<?x?xf32, #out>
  %11 = iree_encoding.unset_encoding %10 : tensor<?x?xf32, #out> -> tensor<?x?xf32>{%m, %n}
  iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  return
}
// CHECK-DAG:   #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[$BIAS4:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-LABEL: func.func @elementwise_generic_on_packed_tiles()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(2) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x8xf32>>
// CHECK:         %[[BIAS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x8xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x8x8xf32>
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d
// CHECK:         %[[EW:.+]] = linalg.generic {indexing_maps = [#[[$ID4]], #[[$BIAS4]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[MMT4D]], %[[BIAS]] : tensor<?x?x8x8xf32>, tensor<?x8xf32>) outs(%[[EMPTY]] : tensor<?x?x8x8xf32>)
// CHECK:         linalg.unpack %[[EW]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8]

// -----

// The same consumer on gfx942 (the data-tiling walkthrough's heuristics): the
// generic runs on the result's swizzled tiles, ?x?x4x8x2x4x16x4 (outer M, N,
// then the permuted pieces N:4 M:8 N:2 M:4 N:16 M:4), and the bias, whose
// layout is the result's with the M pieces dropped (?x4x2x16), reads the outer
// N loop and the loops of its three N pieces: d1, d2, d4, d6. IREE's
// lowerGenericOpWithEncoding builds the same maps.

#pipeline_layout = #hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#bias = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #bcast]], iteration_sizes = [?, ?, ?]>
func.func @elementwise_generic_on_swizzled_tiles_gfx942() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %m = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %n = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %k = arith.index_castui %i2 : i32 to index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs>>{%k, %n}
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #bias>>{%n}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k} -> tensor<?x?xf32, #lhs>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%k, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs>>{%k, %n} -> tensor<?x?xf32, #rhs>
  %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%n], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #bias>>{%n} -> tensor<?xf32, #bias>
  %7 = tensor.empty(%m, %n) : tensor<?x?xf32, #out>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %9 = linalg.matmul ins(%4, %5 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%8 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %10 = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<?x?xf32, #out>, tensor<?xf32, #bias>) outs(%7 : tensor<?x?xf32, #out>) {
  ^bb0(%in: f32, %in_0: f32, %o: f32):
    %12 = arith.addf %in, %in_0 : f32
    %13 = arith.maximumf %12, %cst : f32
    linalg.yield %13 : f32
  } -> tensor<?x?xf32, #out>
  %11 = iree_encoding.unset_encoding %10 : tensor<?x?xf32, #out> -> tensor<?x?xf32>{%m, %n}
  iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  return
}
// CHECK-DAG:   #[[$ID8:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6, d7)>
// CHECK-DAG:   #[[$BIAS8:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d4, d6)>
// CHECK-LABEL: func.func @elementwise_generic_on_swizzled_tiles_gfx942()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(2) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4x2x16xf32>>
// CHECK:         %[[BIAS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<?x4x2x16xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x4x8x2x4x16x4xf32>
// CHECK:         %[[MMA:.+]] = iree_codegen.inner_tiled
// CHECK:         %[[EW:.+]] = linalg.generic {indexing_maps = [#[[$ID8]], #[[$BIAS8]], #[[$ID8]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[MMA]], %[[BIAS]] : tensor<?x?x4x8x2x4x16x4xf32>, tensor<?x4x2x16xf32>) outs(%[[EMPTY]] : tensor<?x?x4x8x2x4x16x4xf32>)
// CHECK:           arith.addf
// CHECK:           arith.maximumf
// CHECK:         %[[T:.+]] = linalg.transpose ins(%[[EW]] : tensor<?x?x4x8x2x4x16x4xf32>)
// CHECK:         linalg.unpack
// With IREE 3.13's heuristics the tiles split differently; the bias still reads only N's loops.
// ERA313-DAG:   #[[$BIAS9:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d1, d3, d5, d7)>
// ERA313-LABEL: func.func @elementwise_generic_on_swizzled_tiles_gfx942()
// ERA313:         linalg.generic {indexing_maps = [#{{.+}}, #[[$BIAS9]], #{{.+}}], {{.+}} ins(%{{.+}}, %{{.+}} : tensor<?x?x2x2x4x4x4x16x4xf32>, tensor<?x2x4x16xf32>)

// -----

// A per-row operand (broadcast along N) keeps the result's M pieces instead:
// ?x8x4x4 (outer M, then M:8 M:4 M:4), read through d0, d3, d5, d7.

#pipeline_layout = #hal.pipeline.layout<constants = 3, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bcast = affine_map<(d0, d1) -> (d0)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#bias = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #bcast]], iteration_sizes = [?, ?, ?]>
func.func @elementwise_row_bias_on_swizzled_tiles_gfx942() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %m = arith.index_castui %i0 : i32 to index
  %i1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %n = arith.index_castui %i1 : i32 to index
  %i2 = hal.interface.constant.load layout(#pipeline_layout) ordinal(2) : i32
  %k = arith.index_castui %i2 : i32 to index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs>>{%k, %n}
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #bias>>{%m}
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k} -> tensor<?x?xf32, #lhs>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%k, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs>>{%k, %n} -> tensor<?x?xf32, #rhs>
  %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0], sizes = [%m], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32, #bias>>{%m} -> tensor<?xf32, #bias>
  %7 = tensor.empty(%m, %n) : tensor<?x?xf32, #out>
  %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %9 = linalg.matmul ins(%4, %5 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%8 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
  %10 = linalg.generic {indexing_maps = [#id, #bcast, #id], iterator_types = ["parallel", "parallel"]} ins(%9, %6 : tensor<?x?xf32, #out>, tensor<?xf32, #bias>) outs(%7 : tensor<?x?xf32, #out>) {
  ^bb0(%in: f32, %in_0: f32, %o: f32):
    %12 = arith.mulf %in, %in_0 : f32
    %13 = arith.subf %12, %in_0 : f32
    linalg.yield %13 : f32
  } -> tensor<?x?xf32, #out>
  %11 = iree_encoding.unset_encoding %10 : tensor<?x?xf32, #out> -> tensor<?x?xf32>{%m, %n}
  iree_tensor_ext.dispatch.tensor.store %11, %3, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  return
}
// CHECK-DAG:   #[[$ROW8:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d3, d5, d7)>
// CHECK-LABEL: func.func @elementwise_row_bias_on_swizzled_tiles_gfx942()
// CHECK:         hal.interface.binding.subspan {{.+}} binding(2) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x8x4x4xf32>>
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[$ROW8]], #{{.+}}], {{.+}} ins(%{{.+}}, %{{.+}} : tensor<?x?x4x8x2x4x16x4xf32>, tensor<?x8x4x4xf32>)

// -----

// IREE's materialize_encoding_gfx942.mlir @dequantization: an elementwise
// generic whose operands are all encoded, a batch-matmul LHS and two scales
// broadcast over M (encoded through a map chain), stored still encoded. The
// LHS is 2x1x4x8x4x4x4x4 (batch, M, K outer, then M:8 K:4 M:4 M:4 K:4); the
// scales keep batch, K outer and the two K pieces: d0, d2, d4, d7, as IREE's
// CHECK lines at the walkthrough's commit (76efc5896b) say.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]>
#encoding_bcast = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [[affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2) -> (d0, d2)>], affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]>
func.func @dequantization_gfx942() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x128x64xi8, #encoding>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x64xf32, #encoding_bcast>>
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x64xf32, #encoding_bcast>>
  %3 = hal.interface.binding.subspan layout(#pipeline_layout) binding(3) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x128x64xf32, #encoding>>
  %4 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0, 0], sizes = [2, 128, 64], strides = [1, 1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x128x64xi8, #encoding>> -> tensor<2x128x64xi8, #encoding>
  %5 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [2, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x64xf32, #encoding_bcast>> -> tensor<2x64xf32, #encoding_bcast>
  %6 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [2, 64], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x64xf32, #encoding_bcast>> -> tensor<2x64xf32, #encoding_bcast>
  %7 = tensor.empty() : tensor<2x128x64xf32, #encoding>
  %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4, %5, %6 : tensor<2x128x64xi8, #encoding>, tensor<2x64xf32, #encoding_bcast>, tensor<2x64xf32, #encoding_bcast>) outs(%7 : tensor<2x128x64xf32, #encoding>) {
  ^bb0(%in: i8, %in_0: f32, %in_1: f32, %out: f32):
    %9 = arith.extui %in : i8 to i32
    %10 = arith.uitofp %9 : i32 to f32
    %11 = arith.subf %10, %in_1 : f32
    %12 = arith.mulf %11, %in_0 : f32
    linalg.yield %12 : f32
  } -> tensor<2x128x64xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %8, %3, offsets = [0, 0, 0], sizes = [2, 128, 64], strides = [1, 1, 1] : tensor<2x128x64xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x128x64xf32, #encoding>>
  return
}
// CHECK-DAG:   #[[$MAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6, d7)>
// CHECK-DAG:   #[[$MAP1:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d4, d7)>
// CHECK-LABEL: func.func @dequantization_gfx942()
// CHECK-DAG:     hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x1x4x8x4x4x4x4xi8>>
// CHECK-DAG:     hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4x4x4xf32>>
// CHECK-DAG:     hal.interface.binding.subspan {{.+}} binding(2) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4x4x4xf32>>
// CHECK-DAG:     %[[RESULT_BINDING:.+]] = hal.interface.binding.subspan {{.+}} binding(3) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x1x4x8x4x4x4x4xf32>>
// CHECK-DAG:     %[[EMPTY:.+]] = tensor.empty() : tensor<2x1x4x8x4x4x4x4xf32>
// CHECK:         %[[DEQUANT:.+]] = linalg.generic {indexing_maps = [#[[$MAP]], #[[$MAP1]], #[[$MAP1]], #[[$MAP]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<2x1x4x8x4x4x4x4xi8>, tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>) outs(%[[EMPTY]] : tensor<2x1x4x8x4x4x4x4xf32>)
// CHECK:           arith.extui
// CHECK:           arith.uitofp
// CHECK:           arith.subf
// CHECK:           arith.mulf
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[DEQUANT]], %[[RESULT_BINDING]], offsets = [0, 0, 0, 0, 0, 0, 0, 0], sizes = [2, 1, 4, 8, 4, 4, 4, 4], strides = [1, 1, 1, 1, 1, 1, 1, 1] : tensor<2x1x4x8x4x4x4x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x1x4x8x4x4x4x4xf32>>
// IREE 3.13's heuristics give the LHS tile other pieces; the scales then read
// d0, d2, d5, d7, as IREE's current materialize_encoding_gfx942.mlir checks.
// ERA313-DAG:   #[[$DQ:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d2, d5, d7)>
// ERA313-LABEL: func.func @dequantization_gfx942()
// ERA313:         linalg.generic {indexing_maps = [#{{.+}}, #[[$DQ]], #[[$DQ]], #{{.+}}], {{.+}} ins(%{{.+}}, %{{.+}}, %{{.+}} : tensor<2x1x4x2x4x4x16x4xi8>, tensor<2x4x4x4xf32>, tensor<2x4x4x4xf32>) outs(%{{.+}} : tensor<2x1x4x2x4x4x16x4xf32>)

// -----

// `#iree_encoding.identity` (and any identity layout) is dropped: no pack.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#identity = #iree_encoding.identity
func.func @identity_encoding_dropped() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %d0 = arith.index_castui %i0 : i32 to index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%d0}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32, #identity>>{%d0}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%d0, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%d0} -> tensor<?x4xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<?x4xf32> -> tensor<?x4xf32, #identity>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [%d0, 4], strides = [1, 1] : tensor<?x4xf32, #identity> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32, #identity>>{%d0}
  return
}
// CHECK-LABEL: func.func @identity_encoding_dropped()
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%[[D0:.+]]}
// CHECK:         %[[SRC:.+]] = iree_tensor_ext.dispatch.tensor.load
// CHECK-NEXT:    iree_tensor_ext.dispatch.tensor.store %[[SRC]], %[[OUT]], offsets = [0, 0], sizes = [%[[D0]], 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%[[D0]]}
// CHECK-NOT:     linalg.pack

// -----

// Nothing encoded: the function is left as it is.

#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
func.func @no_encoding_left_alone() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x4xf32>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>> -> tensor<8x4xf32>
  iree_tensor_ext.dispatch.tensor.store %2, %1, offsets = [0, 0], sizes = [8, 4], strides = [1, 1] : tensor<8x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x4xf32>>
  return
}
// CHECK-LABEL: func.func @no_encoding_left_alone()
// CHECK-NEXT:    %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[IN:.+]] = hal.interface.binding.subspan {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<8x4xf32>>
// CHECK-NEXT:    %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x4xf32>>
// CHECK-NEXT:    %[[V:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]]
// CHECK-NEXT:    iree_tensor_ext.dispatch.tensor.store %[[V]], %[[OUT]]
// CHECK-NEXT:    return

// -----

// The target of a hal.executable.variant, as after interfaces are materialized.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
hal.executable private @executable {
  hal.executable.variant public @embedded_elf_x86_64 target(#target) {
    hal.executable.export public @set_encoding_in_variant ordinal(0) layout(#pipeline_layout)
    builtin.module {
      func.func @set_encoding_in_variant() {
        %c0 = arith.constant 0 : index
        %i0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
        %d0 = arith.index_castui %i0 : i32 to index
        %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x32xf32>>{%d0}
        %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32xf32, #encoding>>{%d0}
        %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%d0, 32], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x32xf32>>{%d0} -> tensor<?x32xf32>
        %3 = iree_encoding.set_encoding %2 : tensor<?x32xf32> -> tensor<?x32xf32, #encoding>
        iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [%d0, 32], strides = [1, 1] : tensor<?x32xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32xf32, #encoding>>{%d0}
        return
      }
    }
  }
}
// CHECK-LABEL: hal.executable.variant public @embedded_elf_x86_64
// CHECK:         func.func @set_encoding_in_variant()
// CHECK:           hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x32x16x1xf32>>
// CHECK:           linalg.pack %{{.+}} padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1] into %{{.+}} : tensor<?x32xf32> -> tensor<?x32x16x1xf32>

// -----

// Before interfaces are materialized: a stream.executable's function takes
// !stream.binding arguments; its target is the module's device whose resolver
// serialized the binding layouts.

#target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#device = #hal.device.target<"local", [#target]> : !hal.device
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs_layout = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
#rhs_layout = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
module {
  util.global private @__device_0 = #device
  stream.executable private @dispatch {
    stream.executable.export public @matmul_in_stream_executable workgroups(%arg0: index, %arg1: index, %arg2: index) -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0, %arg1, %arg2)
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @matmul_in_stream_executable(%arg0: !stream.binding, %arg1: !stream.binding, %arg2: index, %arg3: index, %arg4: index, %arg5: !stream.binding) {
        %c0 = arith.constant 0 : index
        %cst = arith.constant 0.000000e+00 : f32
        %m = iree_tensor_ext.dispatch.workload.ordinal %arg2, 0 : index
        %n = iree_tensor_ext.dispatch.workload.ordinal %arg3, 1 : index
        %k = iree_tensor_ext.dispatch.workload.ordinal %arg4, 2 : index
        %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs_layout>>{%m, %k}
        %1 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs_layout>>{%k, %n}
        %2 = stream.binding.subspan %arg5[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
        %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs_layout>>{%m, %k} -> tensor<?x?xf32, #lhs>
        %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [%k, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #rhs_layout>>{%k, %n} -> tensor<?x?xf32, #rhs>
        %5 = tensor.empty(%m, %n) : tensor<?x?xf32, #out>
        %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
        %7 = linalg.matmul ins(%3, %4 : tensor<?x?xf32, #lhs>, tensor<?x?xf32, #rhs>) outs(%6 : tensor<?x?xf32, #out>) -> tensor<?x?xf32, #out>
        %8 = iree_encoding.unset_encoding %7 : tensor<?x?xf32, #out> -> tensor<?x?xf32>{%m, %n}
        iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
        return
      }
    }
  }
}
// CHECK-LABEL: func.func @matmul_in_stream_executable(
// CHECK:         stream.binding.subspan %arg0[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x1xf32>>
// CHECK:         stream.binding.subspan %arg1[%{{.+}}] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x8x1xf32>>
// CHECK:         linalg.mmt4d ins(%{{.+}}, %{{.+}} : tensor<?x?x8x1xf32>, tensor<?x?x8x1xf32>) outs(%{{.+}} : tensor<?x?x8x8xf32>)
// CHECK:         linalg.unpack %{{.+}} outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [8, 8]

// -----

// A static matvec on whole bindings: the reshapes to and from mmt4d's 4-D operands fold into
// the bindings (IREE's reshape-to-interface patterns), which are then read and written 4-D.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding0 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [20, 9]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [20, 9]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iteration_sizes = [20, 9]>
func.func @matvec_static_bindings() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f32
  %b0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<20x9xf32, #encoding0>>
  %b1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<9xf32, #encoding1>>
  %b2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<20xf32, #encoding2>>
  %lhs = iree_tensor_ext.dispatch.tensor.load %b0, offsets = [0, 0], sizes = [20, 9], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<20x9xf32, #encoding0>> -> tensor<20x9xf32, #encoding0>
  %rhs = iree_tensor_ext.dispatch.tensor.load %b1, offsets = [0], sizes = [9], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<9xf32, #encoding1>> -> tensor<9xf32, #encoding1>
  %empty = tensor.empty() : tensor<20xf32, #encoding2>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<20xf32, #encoding2>) -> tensor<20xf32, #encoding2>
  %res = linalg.matvec ins(%lhs, %rhs : tensor<20x9xf32, #encoding0>, tensor<9xf32, #encoding1>) outs(%fill : tensor<20xf32, #encoding2>) -> tensor<20xf32, #encoding2>
  iree_tensor_ext.dispatch.tensor.store %res, %b2, offsets = [0], sizes = [20], strides = [1] : tensor<20xf32, #encoding2> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<20xf32, #encoding2>>
  return
}
// CHECK-LABEL: func.func @matvec_static_bindings()
// CHECK-NOT:     tensor.expand_shape
// CHECK:         %[[MAT_B:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<3x9x8x1xf32>>
// CHECK:         %[[VEC_B:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<1x9x1x1xf32>>
// CHECK:         %[[OUT_B:.+]] = hal.interface.binding.subspan {{.+}} binding(2) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<1x3x1x8xf32>>
// CHECK:         %[[MAT:.+]] = iree_tensor_ext.dispatch.tensor.load %[[MAT_B]]
// CHECK:         %[[VEC:.+]] = iree_tensor_ext.dispatch.tensor.load %[[VEC_B]], offsets = [0, 0, 0, 0], sizes = [1, 9, 1, 1]
// CHECK:         %[[INIT:.+]] = tensor.empty() : tensor<1x3x1x8xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[INIT]] : tensor<1x3x1x8xf32>)
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[VEC]], %[[MAT]] : tensor<1x9x1x1xf32>, tensor<3x9x8x1xf32>) outs(%[[FILL]] : tensor<1x3x1x8xf32>)
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[MMT4D]], %[[OUT_B]], offsets = [0, 0, 0, 0], sizes = [1, 3, 1, 8]
// CHECK-NOT:     tensor.collapse_shape
