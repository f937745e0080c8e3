// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics -p iree-codegen-materialize-device-encoding

// An op-level encoding needs a resolver: no hal.executable.variant, no
// hal.executable.target and no device global names one.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @encoding_without_target() {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>>
  // expected-error @+1 {{'hal.interface.binding.subspan' op has an unresolved encoding but no executable target (hal.executable.variant, 'hal.executable.target' or a device global) names an encoding resolver}}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32, #encoding>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>> -> tensor<16x16xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<16x16xf32> -> tensor<16x16xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : tensor<16x16xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32, #encoding>>
  return
}

// -----

// A padding layout whose amount no resolver decided has no padded binding type. (Resolved padding
// layouts are materialized: materialize_device_encoding_padding.mlir.)

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#padded = #iree_encoding.layout<[#iree_encoding.padding<[0, ?]>]>
func.func @unresolved_padding_layout() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>>
  // expected-error @+1 {{'hal.interface.binding.subspan' op has an unresolved padding #iree_encoding.padding<[0, ?]>: no padding resolver decides its amount}}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32, #padded>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>> -> tensor<16x16xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<16x16xf32> -> tensor<16x16xf32, #padded>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : tensor<16x16xf32, #padded> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32, #padded>>
  return
}

// -----

// Only whole-tensor loads of an encoded binding have a packed counterpart.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @partial_load() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32, #encoding>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>
  // expected-error @+1 {{'iree_tensor_ext.dispatch.tensor.load' op only whole-tensor loads of encoded bindings are materialized}}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [8, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32, #encoding>> -> tensor<8x16xf32, #encoding>
  %3 = iree_encoding.unset_encoding %2 : tensor<8x16xf32, #encoding> -> tensor<8x16xf32>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [8, 16], strides = [1, 1] : tensor<8x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>
  return
}

// -----

// An op on encoded tensors that no pattern converts.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @unconverted_user() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>>
  %1 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>> -> tensor<16x16xf32>
  %2 = iree_encoding.set_encoding %1 : tensor<16x16xf32> -> tensor<16x16xf32, #encoding>
  // expected-error @+1 {{'tensor.extract_slice' op cannot be materialized: no pattern converts this op on encoded tensors}}
  %3 = tensor.extract_slice %2[0, 0] [8, 16] [1, 1] : tensor<16x16xf32, #encoding> to tensor<8x16xf32, #encoding>
  %4 = iree_encoding.unset_encoding %3 : tensor<8x16xf32, #encoding> -> tensor<8x16xf32>
  %5 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>
  iree_tensor_ext.dispatch.tensor.store %4, %5, offsets = [0, 0], sizes = [8, 16], strides = [1, 1] : tensor<8x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8x16xf32>>
  return
}

// -----

// An elementwise op runs on the result's tiles only when every operand splits
// the dims it shares with the result into the same pieces. Here a matmul LHS
// (M x K) is added to a result (M x N): its K tile (4 x 4) cannot stand where
// the result's N tile (4 x 16 x 2) is. IREE's conversion leaves the op illegal
// and the function fails.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// expected-error @+1 {{'func.func' op materialization failed}}
func.func @elementwise_tiles_differ_gfx942() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x128xf32, #lhs>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<128x128xf32, #out>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [128, 128], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<128x128xf32, #lhs>> -> tensor<128x128xf32, #lhs>
  %3 = tensor.empty() : tensor<128x128xf32, #out>
  // expected-error @+1 {{failed to legalize operation 'linalg.generic' that was explicitly marked illegal}}
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<128x128xf32, #lhs>) outs(%3 : tensor<128x128xf32, #out>) {
  ^bb0(%in: f32, %o: f32):
    %5 = arith.addf %in, %in : f32
    linalg.yield %5 : f32
  } -> tensor<128x128xf32, #out>
  iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0], sizes = [128, 128], strides = [1, 1] : tensor<128x128xf32, #out> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<128x128xf32, #out>>
  return
}

// -----

// Two results with the same resolved 8x4 tiles, the second written transposed:
// 16x8 packs to 2x2x8x4, 8x16 to 1x4x8x4. Those are no permutation of each
// other, so no packed iteration domain indexes both through permutations.

#target = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#tiles = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 4], outerDimsPerm = [0, 1]}}>]>
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
// expected-error @+1 {{'func.func' op materialization failed}}
func.func @results_tiled_differently(%arg0: tensor<16x8xf32, #tiles>) -> (tensor<16x8xf32, #tiles>, tensor<8x16xf32, #tiles>) attributes {hal.executable.target = #target} {
  %0 = tensor.empty() : tensor<16x8xf32, #tiles>
  %1 = tensor.empty() : tensor<8x16xf32, #tiles>
  // expected-error @+1 {{failed to legalize operation 'linalg.generic' that was explicitly marked illegal}}
  %2:2 = linalg.generic {indexing_maps = [#id, #id, #t], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<16x8xf32, #tiles>) outs(%0, %1 : tensor<16x8xf32, #tiles>, tensor<8x16xf32, #tiles>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    linalg.yield %in, %in : f32, f32
  } -> (tensor<16x8xf32, #tiles>, tensor<8x16xf32, #tiles>)
  return %2#0, %2#1 : tensor<16x8xf32, #tiles>, tensor<8x16xf32, #tiles>
}

