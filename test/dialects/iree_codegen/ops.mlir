// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @load_from_buffer(
// CHECK-SAME:    %[[BUF:[a-z0-9]+]]: memref<?x?x8x4x4x4x4xf32>
// CHECK:         %{{.+}} = iree_codegen.load_from_buffer %[[BUF]] : memref<?x?x8x4x4x4x4xf32> -> tensor<?x?x8x4x4x4x4xf32>
func.func @load_from_buffer(%arg0: memref<?x?x8x4x4x4x4xf32>) -> tensor<?x?x8x4x4x4x4xf32> {
  %0 = iree_codegen.load_from_buffer %arg0 : memref<?x?x8x4x4x4x4xf32> -> tensor<?x?x8x4x4x4x4xf32>
  return %0 : tensor<?x?x8x4x4x4x4xf32>
}

// -----

// The buffer may be a strided view; static and dynamic extents only need to be
// compatible.
// CHECK-LABEL: func.func @load_from_strided_buffer(
// CHECK:         iree_codegen.load_from_buffer %{{.+}} : memref<?x?x2x4x4x16x4xf32, strided<[?, 2048, 1024, 256, 64, 4, 1], offset: ?>> -> tensor<4x?x2x4x4x16x4xf32>
func.func @load_from_strided_buffer(%arg0: memref<?x?x2x4x4x16x4xf32, strided<[?, 2048, 1024, 256, 64, 4, 1], offset: ?>>) -> tensor<4x?x2x4x4x16x4xf32> {
  %0 = iree_codegen.load_from_buffer %arg0 : memref<?x?x2x4x4x16x4xf32, strided<[?, 2048, 1024, 256, 64, 4, 1], offset: ?>> -> tensor<4x?x2x4x4x16x4xf32>
  return %0 : tensor<4x?x2x4x4x16x4xf32>
}

// -----

// CHECK-LABEL: func.func @store_to_buffer(
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<?x?xf32>, %[[BUF:[a-z0-9]+]]: memref<?x?xf32>
// CHECK:         iree_codegen.store_to_buffer %[[T]], %[[BUF]] : tensor<?x?xf32> into memref<?x?xf32>
func.func @store_to_buffer(%arg0: tensor<?x?xf32>, %arg1: memref<?x?xf32>) {
  iree_codegen.store_to_buffer %arg0, %arg1 : tensor<?x?xf32> into memref<?x?xf32>
  return
}

// -----

// As in dispatches: buffers are HAL bindings, in the descriptor's memory space.
// CHECK-LABEL: func.func @buffers_of_bindings(
// CHECK:         %[[T:.+]] = iree_codegen.load_from_buffer %{{.+}} : memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<?x?x4x2x4x16x4xf32>
// CHECK:         iree_codegen.store_to_buffer %[[T]], %{{.+}} : tensor<?x?x4x2x4x16x4xf32> into memref<?x?x4x2x4x16x4xf32, #hal.descriptor_type<storage_buffer>>
func.func @buffers_of_bindings(%arg0: memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, %arg1: memref<?x?x4x2x4x16x4xf32, #hal.descriptor_type<storage_buffer>>) {
  %0 = iree_codegen.load_from_buffer %arg0 : memref<?x?x4x2x4x16x4xf32, strided<[?, 2048, 512, 256, 64, 4, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> -> tensor<?x?x4x2x4x16x4xf32>
  iree_codegen.store_to_buffer %0, %arg1 : tensor<?x?x4x2x4x16x4xf32> into memref<?x?x4x2x4x16x4xf32, #hal.descriptor_type<storage_buffer>>
  return
}

// -----

// IREE 3.13: inherent attributes in `<...>`, with `semantics`. The inner tiles
// are the swizzled tiles of the data-tiled MFMA_F32_16x16x4_F32 layout.
// CHECK: #map = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK: #map1 = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK: #map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @inner_tiled_data_tiled_mma(
// CHECK-SAME:    %[[LHS:[a-z0-9]+]]: tensor<?x?x2x4x4x16x4xf32>, %[[RHS:[a-z0-9]+]]: tensor<?x?x2x4x4x16x4xf32>, %[[ACC:[a-z0-9]+]]: tensor<?x?x2x2x4x4x4x16x4xf32>
// CHECK:         %{{.+}} = iree_codegen.inner_tiled ins(%[[LHS]], %[[RHS]]) outs(%[[ACC]]) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x2x4x4x16x4xf32>, tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x2x4x4x4x16x4xf32>
func.func @inner_tiled_data_tiled_mma(%lhs: tensor<?x?x2x4x4x16x4xf32>, %rhs: tensor<?x?x2x4x4x16x4xf32>, %acc: tensor<?x?x2x2x4x4x4x16x4xf32>) -> tensor<?x?x2x2x4x4x4x16x4xf32> {
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>> : tensor<?x?x2x4x4x16x4xf32>, tensor<?x?x2x4x4x16x4xf32> into tensor<?x?x2x2x4x4x4x16x4xf32>
  return %0 : tensor<?x?x2x2x4x4x4x16x4xf32>
}

// -----

// After distribution to lanes each operand holds one thread's share; a
// discardable attribute follows the inherent ones.
// CHECK-LABEL: func.func @inner_tiled_distributed(
// CHECK:         iree_codegen.inner_tiled ins(%{{.+}}, %{{.+}}) outs(%{{.+}}) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = true, opaque = false>> {lowering_config = #iree_gpu.lowering_config<{promote_operands = [0, 1], reduction = [0, 0, 1], workgroup = [1, 1, 0]}>} : tensor<1x1x1x4x1x1x4xf32>, tensor<1x1x1x4x1x1x4xf32> into tensor<1x1x1x1x4x4x1x1x4xf32>
func.func @inner_tiled_distributed(%lhs: tensor<1x1x1x4x1x1x4xf32>, %rhs: tensor<1x1x1x4x1x1x4xf32>, %acc: tensor<1x1x1x1x4x4x1x1x4xf32>) -> tensor<1x1x1x1x4x4x1x1x4xf32> {
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>, semantics = #iree_gpu.mma_semantics<distributed = true, opaque = false>> {lowering_config = #iree_gpu.lowering_config<{promote_operands = [0, 1], reduction = [0, 0, 1], workgroup = [1, 1, 0]}>} : tensor<1x1x1x4x1x1x4xf32>, tensor<1x1x1x4x1x1x4xf32> into tensor<1x1x1x1x4x4x1x1x4xf32>
  return %0 : tensor<1x1x1x1x4x4x1x1x4xf32>
}

// -----

// The data-tiling walkthrough's form, from before `semantics` existed: the
// inherent attributes are spelled in the attribute dictionary and print back
// that way.
// CHECK-LABEL: func.func @inner_tiled_attribute_dictionary(
// CHECK:         iree_codegen.inner_tiled ins(%{{.+}}, %{{.+}}) outs(%{{.+}}) {indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>} : tensor<?x?x8x4x4x4x4xf32>, tensor<?x?x4x2x4x16x4xf32> into tensor<?x?x4x8x2x4x16x4xf32>
func.func @inner_tiled_attribute_dictionary(%lhs: tensor<?x?x8x4x4x4x4xf32>, %rhs: tensor<?x?x4x2x4x16x4xf32>, %acc: tensor<?x?x4x8x2x4x16x4xf32>) -> tensor<?x?x4x8x2x4x16x4xf32> {
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>} : tensor<?x?x8x4x4x4x4xf32>, tensor<?x?x4x2x4x16x4xf32> into tensor<?x?x4x8x2x4x16x4xf32>
  return %0 : tensor<?x?x4x8x2x4x16x4xf32>
}

// -----

// A single intrinsic whose RHS is stored N x K: `permutations` relates each
// operand's inner tile to the intrinsic's canonical (K x N) tile.
// CHECK-LABEL: func.func @inner_tiled_permutations(
// CHECK:         iree_codegen.inner_tiled ins(%{{.+}}, %{{.+}}) outs(%{{.+}}) <indexing_maps = [#map, #map1, #map2], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>, permutations = [array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 0, 1>]> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
func.func @inner_tiled_permutations(%lhs: tensor<?x?x16x4xf32>, %rhs: tensor<?x?x16x4xf32>, %acc: tensor<?x?x16x16xf32>) -> tensor<?x?x16x16xf32> {
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) <indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>], kind = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>, semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>, permutations = [array<i64: 0, 1>, array<i64: 1, 0>, array<i64: 0, 1>]> : tensor<?x?x16x4xf32>, tensor<?x?x16x4xf32> into tensor<?x?x16x16xf32>
  return %0 : tensor<?x?x16x16xf32>
}

// -----

// `z:N` delinearizes the z workgroup id; `z:0` is plain `z`.
// CHECK-LABEL: func.func @workgroup_mapping
// CHECK-SAME:    a = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]
// CHECK-SAME:    b = [#iree_codegen.workgroup_mapping<z:1>, #iree_codegen.workgroup_mapping<z>, #iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]
func.func @workgroup_mapping() attributes {
    a = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>],
    b = [#iree_codegen.workgroup_mapping<z:1>, #iree_codegen.workgroup_mapping<z:0>, #iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]} {
  return
}

// -----

// A translation_info is aliased `#translation`.
// CHECK: #translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>
// CHECK-LABEL: func.func @translation_info
// CHECK-SAME:    attributes {translation_info = #translation}
func.func @translation_info() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [64, 1, 1] subgroup_size = 64>} {
  return
}

// -----

// CHECK: #translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>
// CHECK-LABEL: func.func @translation_info_configuration
func.func @translation_info_configuration() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 64, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  return
}

// -----

// Only the pipeline is required.
// CHECK: #translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute>>
// CHECK-LABEL: func.func @translation_info_pipeline_only
func.func @translation_info_pipeline_only() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute>>} {
  return
}

// -----

// A preset compilation_info (lowering_config + translation_info with a named pipeline).
// CHECK: #config = #iree_codegen.lowering_config<tile_sizes = [[0, 0, 0]]>
// CHECK: #config1 = #iree_codegen.lowering_config<tile_sizes = [[64, 64, 0], [8, [16], 0]]>
// CHECK: #translation = #iree_codegen.translation_info<pipeline = CPUDefault>
// CHECK: #translation1 = #iree_codegen.translation_info<pipeline = CPUDoubleTilingExpert workgroup_size = [4, 1, 1]>
// CHECK: #compilation = #iree_codegen.compilation_info<lowering_config = #config, translation_info = #translation>
// CHECK: #compilation1 = #iree_codegen.compilation_info<lowering_config = #config1, translation_info = #translation1>
// CHECK-LABEL: func.func @preset_compilation_info
// CHECK: linalg.matmul {compilation_info = #compilation} ins(
// CHECK: linalg.matmul {compilation_info = #compilation1} ins(
#compilation0 = #iree_codegen.compilation_info<
    lowering_config = #iree_codegen.lowering_config<tile_sizes = [[0, 0, 0]]>,
    translation_info = #iree_codegen.translation_info<pipeline = CPUDefault>>
#compilation1 = #iree_codegen.compilation_info<
    lowering_config = #iree_codegen.lowering_config<tile_sizes = [[64, 64, 0], [8, [16], 0]]>,
    translation_info = #iree_codegen.translation_info<pipeline = CPUDoubleTilingExpert workgroup_size = [4, 1, 1]>>
func.func @preset_compilation_info(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.matmul {compilation_info = #compilation0} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = linalg.matmul {compilation_info = #compilation1} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @barriers_and_hints
// CHECK: iree_codegen.fusion_barrier %{{.*}} : tensor<6x?xf32>
// CHECK: iree_codegen.index_hint %{{.*}}(#iree_gpu.lane_increment<16, step = 2>) : index
func.func @barriers_and_hints(%t: tensor<6x?xf32>, %i: index) -> (tensor<6x?xf32>, index) {
  %0 = iree_codegen.fusion_barrier %t : tensor<6x?xf32>
  %1 = iree_codegen.index_hint %i(#iree_gpu.lane_increment<16, step = 2>) : index
  return %0, %1 : tensor<6x?xf32>, index
}

// -----

// The workgroup count of a dispatch from its workload; an empty yield may be left out.
// CHECK-LABEL: iree_codegen.dispatch_config @matmul workgroup_size = [64, 16, 1] subgroup_size = 64 workgroup_local_memory = 4096 {
// CHECK-NEXT: ^bb0(%[[W0:.+]]: index, %[[W1:.+]]: index):
// CHECK: iree_codegen.yield %[[W0]], %[[W1]], %{{.+}} : index, index, index
// CHECK: iree_codegen.dispatch_config @static {
// CHECK-NOT: ^bb0
iree_codegen.dispatch_config @matmul workgroup_size = [64, 16, 1] subgroup_size = 64 workgroup_local_memory = 4096 {
^bb0(%w0: index, %w1: index):
  %c1 = arith.constant 1 : index
  iree_codegen.yield %w0, %w1, %c1 : index, index, index
}
iree_codegen.dispatch_config @static {
  %c1 = arith.constant 1 : index
  iree_codegen.yield %c1, %c1, %c1 : index, index, index
}

// -----

// CHECK-LABEL: func.func @ukernel
// CHECK: iree_codegen.ukernel.generic "foo" ins(%{{.*}} : tensor<?x?xf32>) outs(%{{.*}}, %{{.*}} : tensor<?xf32>, memref<?xf32>) (%{{.*}} : i64) fn_def_attrs {hal.import.bitcode = true} strided_dims({{\[}}[0], [], [1]]) -> tensor<?xf32>
func.func @ukernel(%in: tensor<?x?xf32>, %out: tensor<?xf32>, %buf: memref<?xf32>, %n: i64) -> tensor<?xf32> {
  %0 = iree_codegen.ukernel.generic "foo" ins(%in : tensor<?x?xf32>) outs(%out, %buf : tensor<?xf32>, memref<?xf32>)
      (%n : i64) fn_def_attrs {hal.import.bitcode = true} strided_dims([[0], [], [1]]) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A tile query names the encoded tensor type whose tiles the runtime chooses, one index per dim.
// CHECK-LABEL: func.func @query_tile_sizes(
// CHECK:         %[[TILES:.+]]:2 = iree_codegen.query_tile_sizes tensor<?x?xi8, #{{.+}}> -> index, index
// CHECK:         return %[[TILES]]#0, %[[TILES]]#1 : index, index
#encoding = #iree_encoding.encoding<operand_index = 0 : i64, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @query_tile_sizes() -> (index, index) {
  %0:2 = iree_codegen.query_tile_sizes tensor<?x?xi8, #encoding> -> index, index
  return %0#0, %0#1 : index, index
}
