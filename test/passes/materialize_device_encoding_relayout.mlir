// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding --verify-diagnostics | filecheck %s

// Layout transfers: a whole-tensor load or store whose tensor materializes to another layout
// than its binding's becomes a load/store of the binding's layout plus a relayout (IREE's
// DecomposeMismatchEncodingTensorLoadOp/StoreOp: unset_encoding then set_encoding, lowered to
// linalg.unpack / linalg.pack). On x86_64 with AVX-512 an f32 LHS of a dynamic matmul is tiled
// 16x1, one whose M is 1 is tiled 1x1, and a dynamic result is tiled 16x16.

#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @load_plain_as_encoded() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %m = arith.index_castui %0 : i32 to index
  %k = arith.index_castui %1 : i32 to index
  %in = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%m, %k}
  %out = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #lhs>>{%m, %k}
  %2 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%m, %k} -> tensor<?x?xf32, #lhs>
  iree_tensor_ext.dispatch.tensor.store %2, %out, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : tensor<?x?xf32, #lhs> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #lhs>>{%m, %k}
  return
}
// CHECK-LABEL: func.func @load_plain_as_encoded()
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x16x1xf32>>
// CHECK:         %[[LD:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], {{.+}} -> tensor<?x?xf32>
// CHECK:         %[[PACK:.+]] = linalg.pack %[[LD]] padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1]
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[PACK]], %[[OUT]]
// CHECK-NOT:     iree_encoding

// -----

#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @store_encoded_as_plain() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %1 = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : i32
  %m = arith.index_castui %0 : i32 to index
  %k = arith.index_castui %1 : i32 to index
  %in = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k}
  %out = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %k}
  %2 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #lhs>>{%m, %k} -> tensor<?x?xf32, #lhs>
  iree_tensor_ext.dispatch.tensor.store %2, %out, offsets = [0, 0], sizes = [%m, %k], strides = [1, 1] : tensor<?x?xf32, #lhs> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %k}
  return
}
// CHECK-LABEL: func.func @store_encoded_as_plain()
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x16x1xf32>>
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>
// CHECK:         %[[LD:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], {{.+}} -> tensor<?x?x16x1xf32>
// CHECK:         %[[UNPACK:.+]] = linalg.unpack %[[LD]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1]
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[UNPACK]], %[[OUT]]
// CHECK-NOT:     iree_encoding

// -----

#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#pipeline_layout = #hal.pipeline.layout<constants = 1, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs_m1 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [1, ?, ?]>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @load_and_store_with_layout_transfers() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : i32
  %k = arith.index_castui %0 : i32 to index
  %in = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<24x?xf32, #lhs_m1>>{%k}
  %out = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(Indirect) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x?xf32, #lhs_m1>>{%k}
  %1 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [24, %k], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<24x?xf32, #lhs_m1>>{%k} -> tensor<24x?xf32, #lhs>
  iree_tensor_ext.dispatch.tensor.store %1, %out, offsets = [0, 0], sizes = [24, %k], strides = [1, 1] : tensor<24x?xf32, #lhs> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x?xf32, #lhs_m1>>{%k}
  return
}
// CHECK-LABEL: func.func @load_and_store_with_layout_transfers()
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<24x?x1x1xf32>>
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<24x?x1x1xf32>>
// CHECK:         %[[LD:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], {{.+}} -> tensor<24x?x1x1xf32>
// CHECK:         %[[UNPACK:.+]] = linalg.unpack %[[LD]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [1, 1]
// CHECK:         %[[PACK:.+]] = linalg.pack %[[UNPACK]] padding_value(%{{.+}} : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1]
// CHECK:         %[[UNPACK2:.+]] = linalg.unpack %[[PACK]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [16, 1]
// CHECK:         %[[PACK2:.+]] = linalg.pack %[[UNPACK2]] {{.*}}inner_tiles = [1, 1]
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[PACK2]], %[[OUT]]

// -----

// A partial slice keeps its mismatch (IREE: "unhandled partial loads"): no relayout is built.
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">], flags = Indirect>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @partial_load_with_mismatch() -> tensor<8x8xf32, #lhs> attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %in = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>>
  // expected-error @+1 {{'iree_tensor_ext.dispatch.tensor.load' op loads a tensor whose layout differs from its binding's; relayout is not materialized}}
  %1 = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [8, 8], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>> -> tensor<8x8xf32, #lhs>
  return %1 : tensor<8x8xf32, #lhs>
}
