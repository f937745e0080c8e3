// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding | filecheck %s

// All-parallel generics on encoded tensors run on the packed tiles of their
// first output (the anchor). Two results with the same layout: one generic
// whose loops are the packed dims, every map the identity.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [13, 30, 7]>
func.func @multi_result_generic_x86_64() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>> -> tensor<13x30xf32, #acc>
  %4 = tensor.empty() : tensor<13x30xf32, #acc>
  %5:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<13x30xf32, #acc>) outs(%4, %4 : tensor<13x30xf32, #acc>, tensor<13x30xf32, #acc>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    %6 = arith.addf %in, %in : f32
    %7 = arith.mulf %in, %in : f32
    linalg.yield %6, %7 : f32, f32
  } -> (tensor<13x30xf32, #acc>, tensor<13x30xf32, #acc>)
  iree_tensor_ext.dispatch.tensor.store %5#0, %1, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : tensor<13x30xf32, #acc> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  iree_tensor_ext.dispatch.tensor.store %5#1, %2, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : tensor<13x30xf32, #acc> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  return
}
// CHECK:       #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @multi_result_generic_x86_64()
// CHECK:         %[[IN:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<2x4x8x8xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<2x4x8x8xf32>
// CHECK:         %[[EW:.+]]:2 = linalg.generic {indexing_maps = [#[[$ID4]], #[[$ID4]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[IN]] : tensor<2x4x8x8xf32>) outs(%[[EMPTY]], %[[EMPTY]] : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>)
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK:         } -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>)
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[EW]]#0
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[EW]]#1

// -----

// The anchor (first output) is written transposed, and its encoding says so
// (the result map composed with the transpose): the generic is interchanged so
// that the anchor's map is the identity, then packed. Both outputs share the
// packed layout, so every packed map is the identity again.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [13, 30, 7]>
#acc_t = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #t]], iteration_sizes = [13, 30, 7]>
func.func @permuted_output_maps_x86_64() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<30x13xf32, #acc_t>>
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>> -> tensor<13x30xf32, #acc>
  %4 = tensor.empty() : tensor<30x13xf32, #acc_t>
  %5 = tensor.empty() : tensor<13x30xf32, #acc>
  %6:2 = linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<13x30xf32, #acc>) outs(%4, %5 : tensor<30x13xf32, #acc_t>, tensor<13x30xf32, #acc>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    %7 = arith.negf %in : f32
    linalg.yield %in, %7 : f32, f32
  } -> (tensor<30x13xf32, #acc_t>, tensor<13x30xf32, #acc>)
  iree_tensor_ext.dispatch.tensor.store %6#0, %1, offsets = [0, 0], sizes = [30, 13], strides = [1, 1] : tensor<30x13xf32, #acc_t> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<30x13xf32, #acc_t>>
  iree_tensor_ext.dispatch.tensor.store %6#1, %2, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : tensor<13x30xf32, #acc> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  return
}
// CHECK:       #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @permuted_output_maps_x86_64()
// CHECK:         binding(1) {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2x4x8x8xf32>>
// CHECK:         %[[IN:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<2x4x8x8xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<2x4x8x8xf32>
// CHECK:         %[[EW:.+]]:2 = linalg.generic {indexing_maps = [#[[$ID4]], #[[$ID4]], #[[$ID4]]], {{.+}} ins(%[[IN]] : tensor<2x4x8x8xf32>) outs(%[[EMPTY]], %[[EMPTY]] : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>)
// CHECK-NEXT:    ^bb0(%[[A:.+]]: f32, %{{.+}}: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[NEG:.+]] = arith.negf %[[A]] : f32
// CHECK-NEXT:      linalg.yield %[[A]], %[[NEG]] : f32, f32

// -----

// A single output written transposed (the input is interchanged onto it) on a
// swizzled gfx942 layout: the input's map follows the output's loops.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_F32_16x16x32_F8E5M2FNUZ>, <MFMA_F32_16x16x32_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ>, <MFMA_F32_16x16x32_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ>, <MFMA_F32_32x32x16_F8E5M2FNUZ_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ>, <MFMA_F32_32x32x16_F8E4M3FNUZ_F8E5M2FNUZ>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [37, 130, 19]>
#acc_t = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #t]], iteration_sizes = [37, 130, 19]>
func.func @interchanged_generic_gfx942() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<37x130xf32, #acc>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<130x37xf32, #acc_t>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [37, 130], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<37x130xf32, #acc>> -> tensor<37x130xf32, #acc>
  %3 = tensor.empty() : tensor<130x37xf32, #acc_t>
  %4 = linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<37x130xf32, #acc>) outs(%3 : tensor<130x37xf32, #acc_t>) {
  ^bb0(%in: f32, %o: f32):
    %5 = arith.addf %in, %in : f32
    linalg.yield %5 : f32
  } -> tensor<130x37xf32, #acc_t>
  iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0], sizes = [130, 37], strides = [1, 1] : tensor<130x37xf32, #acc_t> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<130x37xf32, #acc_t>>
  return
}
// CHECK:       #[[$ID8:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4, d5, d6, d7)>
// CHECK-LABEL: func.func @interchanged_generic_gfx942()
// CHECK:         %[[IN:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<1x2x4x4x2x4x16x4xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$ID8]], #[[$ID8]]], {{.+}} ins(%[[IN]] : tensor<1x2x4x4x2x4x16x4xf32>) outs(%{{.+}} : tensor<1x2x4x4x2x4x16x4xf32>)

// -----

// The output's encoding does not say it is transposed: its 30x13 tensor is
// tiled like any 30x13 result (8x8 tiles). Interchanged onto it, the input's
// packed map transposes both the outer and the tile dims.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @transposed_copy_x86_64() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<30x13xf32, #acc>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>> -> tensor<13x30xf32, #acc>
  %3 = tensor.empty() : tensor<30x13xf32, #acc>
  %4 = linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<13x30xf32, #acc>) outs(%3 : tensor<30x13xf32, #acc>) {
  ^bb0(%in: f32, %o: f32):
    %5 = arith.addf %in, %in : f32
    linalg.yield %5 : f32
  } -> tensor<30x13xf32, #acc>
  iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0], sizes = [30, 13], strides = [1, 1] : tensor<30x13xf32, #acc> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<30x13xf32, #acc>>
  return
}
// CHECK-DAG:   #[[$T4:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d3, d2)>
// CHECK-DAG:   #[[$ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @transposed_copy_x86_64()
// CHECK:         %[[IN:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<2x4x8x8xf32>
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<4x2x8x8xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[$T4]], #[[$ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[IN]] : tensor<2x4x8x8xf32>) outs(%[[EMPTY]] : tensor<4x2x8x8xf32>)

// -----

// `linalg.index` reads a logical index: after packing it is recomputed from the
// packed loops, outer * tile + inner (IREE's computePackedIndex).

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"llvm-cpu", "xyz", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [13, 30, 7]>
func.func @generic_reading_its_index_x86_64() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %c100 = arith.constant 100 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<13x30xf32, #acc>> -> tensor<13x30xf32, #acc>
  %3 = tensor.empty() : tensor<13x30xf32, #acc>
  %4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<13x30xf32, #acc>) outs(%3 : tensor<13x30xf32, #acc>) {
  ^bb0(%in: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.muli %i, %c100 : index
    %ij = arith.addi %s, %j : index
    %w = arith.index_cast %ij : index to i32
    %f = arith.sitofp %w : i32 to f32
    %5 = arith.addf %in, %f : f32
    linalg.yield %5 : f32
  } -> tensor<13x30xf32, #acc>
  iree_tensor_ext.dispatch.tensor.store %4, %1, offsets = [0, 0], sizes = [13, 30], strides = [1, 1] : tensor<13x30xf32, #acc> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<13x30xf32, #acc>>
  return
}
// CHECK-LABEL: func.func @generic_reading_its_index_x86_64()
// CHECK-DAG:     %[[C8:.+]] = arith.constant 8 : index
// CHECK-DAG:     %[[C100:.+]] = arith.constant 100 : index
// CHECK:         linalg.generic {{.+}} ins(%{{.+}} : tensor<2x4x8x8xf32>) outs(%{{.+}} : tensor<2x4x8x8xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:      %[[I1:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[I0:.+]] = linalg.index 2 : index
// CHECK-NEXT:      %[[IS:.+]] = arith.muli %[[I1]], %[[C8]] : index
// CHECK-NEXT:      %[[I:.+]] = arith.addi %[[IS]], %[[I0]] : index
// CHECK-NEXT:      %[[J1:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[J0:.+]] = linalg.index 3 : index
// CHECK-NEXT:      %[[JS:.+]] = arith.muli %[[J1]], %[[C8]] : index
// CHECK-NEXT:      %[[J:.+]] = arith.addi %[[JS]], %[[J0]] : index
// CHECK-NEXT:      arith.muli %[[I]], %[[C100]] : index

// -----

// On a swizzled tile the inner index is recombined from the expanded dims
// wherever the swizzle put them (here 4 = 2x2 and 16 = 4x4, permuted).

#target = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz"}>
#sw = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [4, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = [[["Internal", 2], ["Internal", 2]], [["Internal", 4], ["Internal", 4]]], permutation = [3, 0, 2, 1]}}}>]>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @swizzled_index(%a: tensor<8x32xi32, #sw>) -> tensor<8x32xi32, #sw> attributes {hal.executable.target = #target} {
  %c100 = arith.constant 100 : index
  %0 = tensor.empty() : tensor<8x32xi32, #sw>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x32xi32, #sw>) outs(%0 : tensor<8x32xi32, #sw>) {
  ^bb0(%in: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.muli %i, %c100 : index
    %ij = arith.addi %s, %j : index
    %w = arith.index_cast %ij : index to i32
    %2 = arith.addi %in, %w : i32
    linalg.yield %2 : i32
  } -> tensor<8x32xi32, #sw>
  return %1 : tensor<8x32xi32, #sw>
}
// CHECK-LABEL: func.func @swizzled_index(
// CHECK-SAME:      %[[A:.+]]: tensor<2x2x4x2x4x2xi32>) -> tensor<2x2x4x2x4x2xi32>
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C16:.+]] = arith.constant 16 : index
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(
// CHECK-NEXT:      %[[O0:.+]] = linalg.index 0 : index
// CHECK-NEXT:      %[[E1:.+]] = linalg.index 5 : index
// CHECK-NEXT:      %[[E0:.+]] = linalg.index 3 : index
// CHECK-NEXT:      %[[E0S:.+]] = arith.muli %[[E0]], %[[C2]] : index
// CHECK-NEXT:      %[[IN0:.+]] = arith.addi %[[E1]], %[[E0S]] : index
// CHECK-NEXT:      %[[O0S:.+]] = arith.muli %[[O0]], %[[C4]] : index
// CHECK-NEXT:      arith.addi %[[O0S]], %[[IN0]] : index
// CHECK-NEXT:      %[[O1:.+]] = linalg.index 1 : index
// CHECK-NEXT:      %[[F1:.+]] = linalg.index 2 : index
// CHECK-NEXT:      %[[F0:.+]] = linalg.index 4 : index
// CHECK-NEXT:      %[[F0S:.+]] = arith.muli %[[F0]], %[[C4]] : index
// CHECK-NEXT:      %[[IN1:.+]] = arith.addi %[[F1]], %[[F0S]] : index
// CHECK-NEXT:      %[[O1S:.+]] = arith.muli %[[O1]], %[[C16]] : index
// CHECK-NEXT:      arith.addi %[[O1S]], %[[IN1]] : index
