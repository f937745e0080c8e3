// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The resolvers as executable targets name them.
// CHECK-LABEL: func.func @resolvers
// CHECK-SAME: a = #iree_cpu.cpu_encoding_resolver<>
// CHECK-SAME: b = #iree_cpu.vmvx_encoding_resolver<>
func.func @resolvers() attributes {
    a = #iree_cpu.cpu_encoding_resolver<>,
    b = #iree_cpu.vmvx_encoding_resolver<>} {
  return
}

// -----

// Resolved layouts: a matmul LHS, RHS (transposed to N x K) and vector result.
// CHECK-LABEL: func.func @resolved_layouts
// CHECK-SAME: a = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>
// CHECK-SAME: b = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>
// CHECK-SAME: c = #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}}>
func.func @resolved_layouts() attributes {
    a = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>,
    b = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>,
    c = #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}}>} {
  return
}

// -----

// While a layout is being chosen the configuration carries the target's
// fields: the configuration is any dictionary.
// CHECK-LABEL: func.func @target_configuration
// CHECK-SAME: a = #iree_cpu.cpu_encoding_resolver<configuration = {cpu_features = "+avx512f", target_triple = "x86_64-xyz-xyz"}>
func.func @target_configuration() attributes {
    a = #iree_cpu.cpu_encoding_resolver<configuration = {cpu_features = "+avx512f", target_triple = "x86_64-xyz-xyz"}>} {
  return
}

// -----

// The earlier name of the CPU resolver, in IREE's December 2024 IR.
// CHECK-LABEL: func.func @cpu_encoding_layout
// CHECK-SAME: a = #iree_cpu.cpu_encoding_layout<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 1], outerDimsPerm = [0, 1]}}>
func.func @cpu_encoding_layout() attributes {
    a = #iree_cpu.cpu_encoding_layout<configuration = {
      encoding_info = {innerDimsPos = [0, 1],
                       innerTileSizes = [1, 1],
                       outerDimsPerm = [0, 1]}
    }>} {
  return
}

// -----

// The CPU inner_tiled kind: the tiles of MMA_X86_AVX512_1x16x1_F32_F32 unrolled
// twice along M (LHS 2x1x1, RHS 16x1, ACC 2x1x16), defaults left out; the
// scalable SVE intrinsic pairs its 4VL dims with dynamic tensor dims.
// CHECK-LABEL: func.func @cpu_inner_tiled
// CHECK: iree_codegen.inner_tiled
// CHECK-SAME: kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_1x16x1_F32_F32, intrinsics_m = 2>
// CHECK-SAME: semantics = #iree_cpu.mma_semantics<>
// CHECK: iree_codegen.inner_tiled
// CHECK-SAME: kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_ARM_SVE_FMLA_1x4VLx1_F32_F32>
// CHECK: iree_codegen.inner_tiled
// CHECK-SAME: kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_GENERIC_SCALAR_1x1x1_REG8, lhs_type = i8, rhs_type = i8, acc_type = i32>
func.func @cpu_inner_tiled(%lhs: tensor<3x4x2x1x1xf32>, %rhs: tensor<4x5x16x1xf32>, %acc: tensor<3x5x2x1x16xf32>,
                           %sl: tensor<2x2x1x1xf32>, %sr: tensor<2x2x1x?xf32>, %sa: tensor<2x2x1x?xf32>,
                           %gl: tensor<2x2x1x1xi8>, %gr: tensor<2x2x1x1xi8>, %ga: tensor<2x2x1x1xi32>)
    -> (tensor<3x5x2x1x16xf32>, tensor<2x2x1x?xf32>, tensor<2x2x1x1xi32>) {
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs) outs(%acc) {
    indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
    kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_X86_AVX512_1x16x1_F32_F32, intrinsics_m = 2, intrinsics_n = 1>,
    semantics = #iree_cpu.mma_semantics<>
  } : tensor<3x4x2x1x1xf32>, tensor<4x5x16x1xf32> into tensor<3x5x2x1x16xf32>
  %1 = iree_codegen.inner_tiled ins(%sl, %sr) outs(%sa) {
    indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
    kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_ARM_SVE_FMLA_1x4VLx1_F32_F32>,
    semantics = #iree_cpu.mma_semantics<>
  } : tensor<2x2x1x1xf32>, tensor<2x2x1x?xf32> into tensor<2x2x1x?xf32>
  %2 = iree_codegen.inner_tiled ins(%gl, %gr) outs(%ga) {
    indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
    kind = #iree_cpu.data_tiled_mma_layout<intrinsic = MMA_GENERIC_SCALAR_1x1x1_REG8, lhs_type = i8, rhs_type = i8, acc_type = i32>,
    semantics = #iree_cpu.mma_semantics<>
  } : tensor<2x2x1x1xi8>, tensor<2x2x1x1xi8> into tensor<2x2x1x1xi32>
  return %0, %1, %2 : tensor<3x5x2x1x16xf32>, tensor<2x2x1x?xf32>, tensor<2x2x1x1xi32>
}

// -----

// Lowering configs print their entries sorted, tiling levels without a prefix
// and scalable sizes in brackets.
// CHECK: #[[$CONFIG:.+]] = #iree_cpu.lowering_config<cache_parallel = {sizes = [8, 0], interchange = [1, 0]}, distribution = [64, [16]], test = 1 : i32>
// CHECK-LABEL: func.func @cpu_configs
// CHECK-SAME: a = #[[$CONFIG]]
// CHECK-SAME: b = #iree_cpu.pipeline<Mmt4dTilingExpert>
// CHECK-SAME: c = #iree_cpu.inner_tile_alignments<distribution = [Unknown, Equal], vector_common_parallel = [Multiple, Unknown]>
// CHECK-SAME: d = #iree_cpu.ukernel_provider
// CHECK-SAME: e = #iree_codegen.lowering_config_level<[1, [4]]>
func.func @cpu_configs() attributes {
    a = #iree_cpu.lowering_config<test = 1 : i32, distribution = [64, [16]], cache_parallel = {sizes = [8, 0], interchange = [1, 0]}>,
    b = #iree_cpu.pipeline<Mmt4dTilingExpert>,
    c = #iree_cpu.inner_tile_alignments<vector_common_parallel = [Multiple, Unknown], distribution = [Unknown, Equal]>,
    d = #iree_cpu.ukernel_provider,
    e = #iree_codegen.lowering_config_level<[1, [4]]>} {
  return
}
