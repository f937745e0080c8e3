// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The gfx942 target of IREE 3.13's ROCm backend, as an executable target
// configuration holds it.
// CHECK-LABEL: func.func @target_gfx942
// CHECK-SAME: iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>
func.func @target_gfx942() attributes {iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>} {
  return
}

// -----

// Fields are accepted in any order and printed in declaration order; `dot =
// none` and an empty `mma` are the defaults and are not printed. The optional
// chip and DMA fields, block intrinsics and scaled MMAs print when present.
// CHECK-LABEL: func.func @target_optional_fields
// CHECK-SAME: a = #iree_gpu.target<arch = "gfx950", features = "+sramecc", wgp = <compute = fp32|fp16, storage = b32, subgroup = none, subgroup_size_choices = [32, 64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>, chip = <wgp_count = 256, sku = "mi355x">>
// CHECK-SAME: b = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = shuffle, mma = [<MFMA_F32_4x4x4x16B_F16>, <MFMA_I32_32x32x4x2B_I8>, <MFMA_F32_16x16x4_F32, col_major = true>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], dma_sizes = [32], workgroup_memory_bank_count = 32>>
func.func @target_optional_fields() attributes {
    a = #iree_gpu.target<features = "+sramecc", arch = "gfx950", chip = <sku = "mi355x", wgp_count = 256>, wgp = <max_workgroup_counts = [2147483647, 2147483647, 2147483647], storage = b32, compute = fp16|fp32, subgroup = none, dot = none, mma = [], subgroup_size_choices = [32, 64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 163840>>,
    b = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = shuffle, mma = [<MFMA_F32_4x4x4x16B_F16>, <MFMA_I32_32x32x4x2B_I8>, <MFMA_F32_16x16x4_F32, col_major = true>], scaled_mma = [<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E4M3FN, acc_elem_type = f32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], dma_sizes = [32], workgroup_memory_bank_count = 32>>} {
  return
}

// -----

// The layout the data-tiling walkthrough materializes (counts of 1 are
// omitted), the IREE 3.13 gfx942 one, and the default-only form.
// CHECK-LABEL: func.func @data_tiled_mma_layout
// CHECK-SAME: a = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>
// CHECK-SAME: b = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>
// CHECK-SAME: c = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_I32_16x16x32_I8>
func.func @data_tiled_mma_layout() attributes {
    a = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 8, intrinsics_n = 2, subgroups_n = 4, intrinsics_k = 4>,
    b = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_F32_16x16x4_F32, intrinsics_m = 4, subgroups_m = 2, intrinsics_n = 4, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [0, 1]>,
    c = #iree_gpu.data_tiled_mma_layout<intrinsic = MFMA_I32_16x16x32_I8, subgroups_k = 1>} {
  return
}

// -----

// CHECK-LABEL: func.func @mma_layout_and_semantics
// CHECK-SAME: a = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>
// CHECK-SAME: b = #iree_gpu.mma_layout<WMMAR4_F32_16x16x16_F16, col_major = true>
// CHECK-SAME: c = #iree_gpu.mma_semantics<distributed = false, opaque = false>
// CHECK-SAME: d = #iree_gpu.mma_semantics<distributed = true, opaque = true>
// CHECK-SAME: e = #iree_gpu.mma_intrinsic<NV_MMA_SYNC_F32_16x8x16_F16>
func.func @mma_layout_and_semantics() attributes {
    a = #iree_gpu.mma_layout<MFMA_F32_16x16x4_F32>,
    b = #iree_gpu.mma_layout<WMMAR4_F32_16x16x16_F16, col_major = true>,
    c = #iree_gpu.mma_semantics<distributed = false, opaque = false>,
    d = #iree_gpu.mma_semantics<opaque = true, distributed = true>,
    e = #iree_gpu.mma_intrinsic<NV_MMA_SYNC_F32_16x8x16_F16>} {
  return
}

// -----

// The resolver as an executable target names it, and as a resolved layout
// (IREE 3.13, gfx942 LHS) with its swizzle.
// CHECK-LABEL: func.func @gpu_encoding_resolver
// CHECK-SAME: a = #iree_gpu.gpu_encoding_resolver<>
// CHECK-SAME{LITERAL}: b = #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 2 : i16, 2 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16, 1 : i8]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16, 1 : i8]]], permutation = [0, 1, 4, 2, 3]}}}>
func.func @gpu_encoding_resolver() attributes {
    a = #iree_gpu.gpu_encoding_resolver<>,
    b = #iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["CrossThread", 2 : i16, 2 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16, 1 : i8]], [["CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16, 1 : i8]]], permutation = [0, 1, 4, 2, 3]}}}>} {
  return
}

// -----

// CHECK-LABEL: func.func @gpu_padding_resolver
// CHECK-SAME: a = #iree_gpu.gpu_padding_resolver<>
// CHECK-SAME: b = #iree_gpu.gpu_padding_resolver<cache_line_bytes = 128, cache_sets = 4>
func.func @gpu_padding_resolver() attributes {
    a = #iree_gpu.gpu_padding_resolver<>,
    b = #iree_gpu.gpu_padding_resolver<cache_sets = 4, cache_line_bytes = 128>} {
  return
}

// -----

// CHECK-LABEL: func.func @pipeline_and_options
// CHECK-SAME: a = #iree_gpu.pipeline<TileAndFuse>
// CHECK-SAME: b = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>
// CHECK-SAME: c = #iree_gpu.pipeline_options<prefetch_num_stages = 2, reorder_workgroups_strategy = <Transpose>>
// CHECK-SAME: d = #iree_gpu.pipeline_options<>
// CHECK-SAME: e = #iree_gpu.reorder_workgroups_strategy<None>
func.func @pipeline_and_options() attributes {
    a = #iree_gpu.pipeline<TileAndFuse>,
    b = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>,
    c = #iree_gpu.pipeline_options<reorder_workgroups_strategy = <Transpose>, prefetch_num_stages = 2>,
    d = #iree_gpu.pipeline_options<>,
    e = #iree_gpu.reorder_workgroups_strategy<None>} {
  return
}

// -----

// CHECK-LABEL: func.func @lowering_configs
// CHECK-SAME: a = #iree_gpu.lowering_config<{thread = [1, 1], workgroup = [1, 64]}>
// CHECK-SAME: b = #iree_gpu.lowering_config<{promote_operands = [0, 1], reduction = [0, 0, 1], workgroup = [1, 1, 0]}>
// CHECK-SAME: c = #iree_gpu.derived_thread_config
func.func @lowering_configs() attributes {
    a = #iree_gpu.lowering_config<{thread = [1, 1], workgroup = [1, 64]}>,
    b = #iree_gpu.lowering_config<{promote_operands = [0, 1], reduction = [0, 0, 1], workgroup = [1, 1, 0]}>,
    c = #iree_gpu.derived_thread_config} {
  return
}

// -----

// CHECK-LABEL: func.func @barrier_region(
// CHECK-SAME:    %[[IN:[a-z0-9]+]]: tensor<1x1x2x4x4x16x4xf32>
// CHECK:         %{{.+}} = iree_gpu.barrier_region ins(%[[IN]] : tensor<1x1x2x4x4x16x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[SHARED:.+]]: tensor<1x1x2x4x4x16x4xf32>):
// CHECK-NEXT:      iree_gpu.yield %[[SHARED]] : tensor<1x1x2x4x4x16x4xf32>
// CHECK-NEXT:    } : tensor<1x1x2x4x4x16x4xf32>
func.func @barrier_region(%arg0: tensor<1x1x2x4x4x16x4xf32>) -> tensor<1x1x2x4x4x16x4xf32> {
  %0 = iree_gpu.barrier_region ins(%arg0 : tensor<1x1x2x4x4x16x4xf32>) {
  ^bb0(%arg1: tensor<1x1x2x4x4x16x4xf32>):
    iree_gpu.yield %arg1 : tensor<1x1x2x4x4x16x4xf32>
  } : tensor<1x1x2x4x4x16x4xf32>
  return %0 : tensor<1x1x2x4x4x16x4xf32>
}

// -----

// With no inputs the region has no arguments; the yield may return several
// values.
// CHECK-LABEL: func.func @barrier_region_no_inputs(
// CHECK:         %{{.+}}:2 = iree_gpu.barrier_region {
// CHECK-NEXT:      %[[V:.+]] = "test.op"() : () -> f32
// CHECK-NEXT:      iree_gpu.yield %[[V]], %[[V]] : f32, f32
// CHECK-NEXT:    } : f32, f32
func.func @barrier_region_no_inputs() -> f32 {
  %0:2 = iree_gpu.barrier_region {
    %1 = "test.op"() : () -> f32
    iree_gpu.yield %1, %1 : f32, f32
  } : f32, f32
  return %0#0 : f32
}

// -----

// Scaled kinds: the data-tiled one checks the swizzled tiles (the LHS scales'
// K unrolling interleaved innermost, the LHS and RHS left unswizzled), the
// single intrinsic one a thread's share of each tile.
// CHECK-LABEL: func.func @scaled_inner_tiled
// CHECK: iree_codegen.inner_tiled
// CHECK-SAME: kind = #iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32, subgroups_m = 2, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [2, 3], unswizzled_operands = [0, 1]>
// CHECK: iree_codegen.inner_tiled
// CHECK-SAME: kind = #iree_gpu.scaled_mma_layout<intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E5M2, acc_elem_type = f32>
func.func @scaled_inner_tiled(
    %lhs: tensor<?x?x1x2x16x4x4x32xf4E2M1FN>, %rhs: tensor<?x?x1x2x16x4x4x32xf4E2M1FN>,
    %lhs_scales: tensor<?x?x2x4x16x4xf8E8M0FNU>, %rhs_scales: tensor<?x?x2x4x16x4xf8E8M0FNU>,
    %acc: tensor<?x?x2x2x4x16x4xf32>,
    %l: vector<2x3x1x32xf8E4M3FN>, %r: vector<3x1x5x32xf8E5M2>, %ls: vector<2x3x1xf8E8M0FNU>, %rs: vector<3x5x1xf8E8M0FNU>,
    %a: vector<2x5x16xf32>) -> (tensor<?x?x2x2x4x16x4xf32>, vector<2x5x16xf32>) {
  %0 = iree_codegen.inner_tiled ins(%lhs, %rhs, %lhs_scales, %rhs_scales) outs(%acc) {
    indexing_maps = [affine_map<(m, n, k, kb) -> (m, k, kb)>, affine_map<(m, n, k, kb) -> (n, k, kb)>,
                     affine_map<(m, n, k, kb) -> (m, k)>, affine_map<(m, n, k, kb) -> (n, k)>,
                     affine_map<(m, n, k, kb) -> (m, n)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>],
    kind = #iree_gpu.data_tiled_scaled_mma_layout<intrinsic = MFMA_SCALE_F32_16x16x128_B32, lhs_elem_type = f4E2M1FN, rhs_elem_type = f4E2M1FN, acc_elem_type = f32, subgroups_m = 2, subgroups_n = 2, intrinsics_k = 4, operands_interleaving_intrinsics_k = [2, 3], unswizzled_operands = [0, 1]>,
    semantics = #iree_gpu.mma_semantics<distributed = false, opaque = false>
  } : tensor<?x?x1x2x16x4x4x32xf4E2M1FN>, tensor<?x?x1x2x16x4x4x32xf4E2M1FN>, tensor<?x?x2x4x16x4xf8E8M0FNU>, tensor<?x?x2x4x16x4xf8E8M0FNU> into tensor<?x?x2x2x4x16x4xf32>
  %1 = iree_codegen.inner_tiled ins(%l, %r, %ls, %rs) outs(%a) {
    indexing_maps = [affine_map<(i, j, k, b) -> (i, k, b)>, affine_map<(i, j, k, b) -> (k, b, j)>,
                     affine_map<(i, j, k, b) -> (i, k)>, affine_map<(i, j, k, b) -> (k, j)>,
                     affine_map<(i, j, k, b) -> (i, j)>],
    iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>, #linalg.iterator_type<reduction>],
    kind = #iree_gpu.scaled_mma_layout<intrinsic = MFMA_SCALE_F32_32x32x64_B32, lhs_elem_type = f8E4M3FN, rhs_elem_type = f8E5M2, acc_elem_type = f32>,
    semantics = #iree_gpu.mma_semantics<distributed = true, opaque = false>
  } : vector<2x3x1x32xf8E4M3FN>, vector<3x1x5x32xf8E5M2>, vector<2x3x1xf8E8M0FNU>, vector<3x5x1xf8E8M0FNU> into vector<2x5x16xf32>
  return %0, %1 : tensor<?x?x2x2x4x16x4xf32>, vector<2x5x16xf32>
}

// -----

// Promotion, reordering and index-hint attributes; defaults are left out.
// CHECK-LABEL: func.func @gpu_hints
// CHECK-SAME: a = #iree_gpu.lowering_config<{promote_operands = [0, 1], promotion_types = [#iree_gpu.use_global_load_dma, #iree_gpu.promote_with_cache_swizzle<#iree_gpu.derived_thread_config>]}>
// CHECK-SAME: b = #iree_gpu.swizzle_operand<copy_config = #iree_gpu.derived_thread_config, swizzle = #iree_codegen.xor_shuffle<256, 32, 512, 2>>
// CHECK-SAME: c = #iree_gpu.conditional_transpose<8, 38>
// CHECK-SAME: d = #iree_gpu.lane_increment<64, aligned>
// CHECK-SAME: e = #iree_gpu.lane_constant<16>
// CHECK-SAME: f = #iree_gpu.spirv_pipeline<CooperativeMatrixVectorize>
// CHECK-SAME: g = #iree_gpu.virtual_mma_layout<VDMFMA_F32_8x16x64x2_F16, col_major = true>
func.func @gpu_hints() attributes {
    a = #iree_gpu.lowering_config<{promote_operands = [0, 1], promotion_types = [#iree_gpu.use_global_load_dma, #iree_gpu.promote_with_cache_swizzle<#iree_gpu.derived_thread_config>]}>,
    b = #iree_gpu.swizzle_operand<copy_config = #iree_gpu.derived_thread_config, swizzle = #iree_codegen.xor_shuffle<256, 32, 512, 2>>,
    c = #iree_gpu.conditional_transpose<8, 38>,
    d = #iree_gpu.lane_increment<64, step = 1, aligned>,
    e = #iree_gpu.lane_constant<16>,
    f = #iree_gpu.spirv_pipeline<CooperativeMatrixVectorize>,
    g = #iree_gpu.virtual_mma_layout<VDMFMA_F32_8x16x64x2_F16, col_major = true>} {
  return
}

// -----

// CHECK-LABEL: func.func @value_barriers
// CHECK: iree_gpu.value_barrier %{{.*}}, %{{.*}} : vector<8xf16>, vector<8xf16>
// CHECK: iree_gpu.value_barrier %{{.*}} : tensor<?xf16>
func.func @value_barriers(%v: vector<8xf16>, %t: tensor<?xf16>) -> (vector<8xf16>, vector<8xf16>, tensor<?xf16>) {
  %0:2 = iree_gpu.value_barrier %v, %v : vector<8xf16>, vector<8xf16>
  %1 = iree_gpu.value_barrier %t : tensor<?xf16>
  return %0#0, %0#1, %1 : vector<8xf16>, vector<8xf16>, tensor<?xf16>
}

// -----

// DMA ops: the gather's source index types are printed only when one is a vector.
// CHECK-LABEL: func.func @dmas
// CHECK: iree_gpu.async_dma %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}[%{{.*}}], vector<64xf16> permutation_map #{{.*}} in_bounds [true] : tensor<20x64xf16>, tensor<64xf16, #gpu.address_space<workgroup>> -> tensor<64xf16, #gpu.address_space<workgroup>>
// CHECK: iree_gpu.async_dma %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}}[%{{.*}}, %{{.*}}], vector<1x64xf16> : memref<1024x64xf16> [vector<1xindex>, index], memref<1x64xf16>
// CHECK: iree_gpu.coalesced_gather_dma %{{.*}}[%{{.*}}] into %{{.*}} lane(%{{.*}}) : tensor<4096xf32>, vector<64xi32>, tensor<64xf32>, index -> tensor<64xf32>
func.func @dmas(%src: tensor<20x64xf16>, %dest: tensor<64xf16, #gpu.address_space<workgroup>>, %i: index,
                %m: memref<1024x64xf16>, %md: memref<1x64xf16>, %g: vector<1xindex>,
                %idx: vector<64xi32>, %gs: tensor<4096xf32>, %gd: tensor<64xf32>) -> tensor<64xf32> {
  %0 = iree_gpu.async_dma %src[%i, %i] to %dest[%i], vector<64xf16> in_bounds [true] permutation_map affine_map<(d0, d1) -> (d1)>
      : tensor<20x64xf16>, tensor<64xf16, #gpu.address_space<workgroup>> -> tensor<64xf16, #gpu.address_space<workgroup>>
  iree_gpu.async_dma %m[%g, %i] to %md[%i, %i], vector<1x64xf16> : memref<1024x64xf16> [vector<1xindex>, index], memref<1x64xf16>
  %c1 = arith.constant 1 : index
  %r = scf.forall (%t) in (%c1) shared_outs(%out = %gd) -> (tensor<64xf32>) {
    scf.forall.in_parallel {
      iree_gpu.coalesced_gather_dma %gs[%idx] into %out lane(%i) : tensor<4096xf32>, vector<64xi32>, tensor<64xf32>, index -> tensor<64xf32>
    }
  }
  return %r : tensor<64xf32>
}

// -----

// CHECK-LABEL: func.func @scans
// CHECK: iree_gpu.subgroup_scan(%{{.*}}, identity = %{{.*}} : f32) cluster(size = 4, stride = 2) {
// CHECK: iree_gpu.yield %{{.*}} : f32
// CHECK: } : f32
// CHECK: iree_gpu.subgroup_scan inclusive(%{{.*}}) cluster(size = 8) {
func.func @scans(%x: f32, %zero: f32) -> (f32, f32, f32, f32) {
  %s0, %t0 = iree_gpu.subgroup_scan(%x, identity = %zero : f32) cluster(size = 4, stride = 2) {
  ^bb0(%lhs: f32, %rhs: f32):
    %add = arith.addf %lhs, %rhs : f32
    iree_gpu.yield %add : f32
  } : f32
  %s1, %t1 = iree_gpu.subgroup_scan inclusive(%x) cluster(size = 8, stride = 1) {
  ^bb0(%lhs: f32, %rhs: f32):
    %max = arith.maximumf %lhs, %rhs : f32
    iree_gpu.yield %max : f32
  } : f32
  return %s0, %t0, %s1, %t1 : f32, f32, f32, f32
}
