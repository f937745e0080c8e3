// RUN: mini-iree-opt %s -p iree-stream-specialize-encodings --split-input-file --verify-diagnostics | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-stream-specialize-encodings{gpu-era=3.13}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ERA313

// x86 with AVX2: 8x8 f32 mmt4d tiles. LHS packs M by 8, RHS packs N by 8 (transposed), the result M x N by 8 x 8.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @cpu_avx2_sizeof(%d0: index, %d1: index) -> (index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #lhs>{%d0, %d1} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #rhs>{%d0, %d1} : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #out>{%d0, %d1} : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-DAG: #[[$LHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-DAG: #[[$RHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
// CHECK-DAG: #[[$OUT:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 8], outerDimsPerm = [0, 1]}}>]>
// CHECK-LABEL: util.func public @cpu_avx2_sizeof(
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$LHS]]>{%{{.+}}, %{{.+}}} : index
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$RHS]]>{%{{.+}}, %{{.+}}} : index
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$OUT]]>{%{{.+}}, %{{.+}}} : index

// -----

// Static narrow M (a 1-row LHS): the 1-row truncation of the tile. Narrow N: the result is stored transposed.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx,+avx2,+fma", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#lhs_m1 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [1, 256, 128]>
#out_n1 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [256, 1, 128]>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @static_narrow_m_n() -> (index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<1x128xf32, #lhs_m1> : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<256x1xf32, #out_n1> : index
  util.return %0, %1 : index, index
}
// CHECK-DAG: #[[$M1:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-DAG: #[[$N1:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [1, 8], outerDimsPerm = [1, 0]}}>]>
// CHECK-LABEL: util.func public @static_narrow_m_n(
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<1x128xf32, #[[$M1]]> : index
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<256x1xf32, #[[$N1]]> : index

// -----

// VMVX: 8x8x4 tiles, and the resolved layout records the original encoding (its microkernels ask at run time).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @vmvx_encode(%arg0: !stream.resource<*>, %d0: index, %d1: index, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xi8, #lhs>{%d0, %d1} : index
  %1 = stream.tensor.encode on(#hal.device.affinity<@device>) %arg0 : tensor<?x?xi8>{%d0, %d1} in !stream.resource<*>{%size} -> tensor<?x?xi8, #lhs>{%d0, %d1} in !stream.resource<*>{%0}
  util.return %1 : !stream.resource<*>
}
// CHECK:     #[[$VERBOSE:.+]] = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [i8, i8, i32]
// CHECK:     #[[$LAYOUT:.+]] = #iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver<configuration = {encoding_attr = #[[$VERBOSE]], encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 4], outerDimsPerm = [0, 1]}}>]>
// CHECK-LABEL: util.func public @vmvx_encode(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x?xi8, #[[$LAYOUT]]>
// CHECK:         stream.tensor.encode {{.+}} : tensor<?x?xi8>{%{{.+}}, %{{.+}}} in !stream.resource<*>{%{{.+}}} -> tensor<?x?xi8, #[[$LAYOUT]]>

// -----

// gfx942: a 128x16 LHS tile swizzled for the MFMA. The walkthrough's swizzle (cross-thread dims
// outermost, no distribution factors) by default; IREE 3.13's with `gpu-era=3.13`, where every
// CrossThread dim carries its distribution factor (`1 : i8`, or 2 for the LHS subgroup dim).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<MFMA_F32_16x16x16_BF16>, <MFMA_F32_32x32x8_BF16>, <MFMA_I32_16x16x32_I8>, <MFMA_I32_32x32x16_I8>, <MFMA_F64_16x16x4_F64>, <MFMA_F32_16x16x4_F32>, <MFMA_F32_16x16x16_F16>, <MFMA_F32_32x32x8_F16>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647], max_load_instruction_bits = 128, simds_per_wgp = 4, vgpr_space_bits = 16384>>, ukernels = "none"}>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device = #hal.device.target<"hip", [#executable_target_rocm_hsaco_fb]> : !hal.device
util.func public @gfx942_swizzle(%d0: index, %d1: index) -> (index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #lhs>{%d0, %d1} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #rhs>{%d0, %d1} : index
  util.return %0, %1 : index, index
}
// CHECK-DAG: #[[$LHS:.+]] = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}}>]>
// CHECK-DAG: #[[$RHS:.+]] = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 2, 4, 1, 3]}}}>]>
// CHECK-LABEL: util.func public @gfx942_swizzle(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x?xf32, #[[$LHS]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x?xf32, #[[$RHS]]>
// ERA313-DAG: #[[$LHS:.+]] = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 2 : i16, 2 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16, 1 : i8]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16, 1 : i8]]], permutation = [0, 1, 4, 2, 3]}}}>]>
// ERA313-DAG: #[[$RHS:.+]] = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 2 : i16, 1 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16, 1 : i8]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16, 1 : i8]]], permutation = [0, 1, 4, 2, 3]}}}>]>
// ERA313-LABEL: util.func public @gfx942_swizzle(
// ERA313:         stream.tensor.sizeof {{.+}} tensor<?x?xf32, #[[$LHS]]>
// ERA313:         stream.tensor.sizeof {{.+}} tensor<?x?xf32, #[[$RHS]]>

// -----

// A device with two executable targets: one layout per target, in the device's order.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_vmvx = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
#executable_target_x86 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device = #hal.device.target<"local", [#executable_target_vmvx, #executable_target_x86]> : !hal.device
util.func public @two_targets_one_device(%d0: index, %d1: index) -> index {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #lhs>{%d0, %d1} : index
  util.return %0 : index
}
// CHECK: #[[$BOTH:.+]] = #iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver<configuration = {encoding_attr = #{{.+}}, encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 4], outerDimsPerm = [0, 1]}}>, #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [16, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-LABEL: util.func public @two_targets_one_device(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x?xf32, #[[$BOTH]]>

// -----

// Two devices dispatch the same executable with differently laid out inputs: the executable is
// duplicated, each copy's binding takes its device's layout, each dispatch site calls its copy.
// Ops inside the executables keep the verbose encoding.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_vmvx = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
#executable_target_x86 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device_a = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_vmvx]> : !hal.device
util.global private @device_b = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_x86]> : !hal.device
stream.executable private @ex {
  stream.executable.export public @set_encoding
  builtin.module {
    func.func @set_encoding(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
      %1 = iree_tensor_ext.dispatch.workload.ordinal %arg2, 1 : index
      %2 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1}
      %3 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%0, %1}
      %4 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%0, %1} -> tensor<?x?xf32>
      %5 = iree_encoding.set_encoding %4 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
      iree_tensor_ext.dispatch.tensor.store %5, %3, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : tensor<?x?xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding>>{%0, %1}
      return
    }
  }
}
util.func public @multi_device_set_encoding(%arg0: !stream.resource<*>, %N: index, %K: index, %c16: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %1 = stream.tensor.dispatch on(#hal.device.affinity<@device_a>) @ex::@set_encoding(%arg0, %N, %K) : (tensor<?x?xf32>{%N, %K} in !stream.resource<*>{%c16}, index, index) -> tensor<?x?xf32, #encoding>{%N, %K} in !stream.resource<*>{%c16}
  %2 = stream.tensor.dispatch on(#hal.device.affinity<@device_b>) @ex::@set_encoding(%arg0, %N, %K) : (tensor<?x?xf32>{%N, %K} in !stream.resource<*>{%c16}, index, index) -> tensor<?x?xf32, #encoding>{%N, %K} in !stream.resource<*>{%c16}
  util.return %1, %2 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-DAG:   #[[$VERBOSE:encoding[0-9]*]] = #iree_encoding.encoding<operand_index = 0 : index
// CHECK-DAG:   #[[$VMVX:.+]] = #iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver
// CHECK-DAG:   #[[$X86:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver
// CHECK-LABEL: stream.executable private @ex {
// CHECK:         stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #[[$VMVX]]>>
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #[[$VERBOSE]]>
// CHECK-LABEL: stream.executable private @ex_dup0 {
// CHECK:         stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #[[$X86]]>>
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #[[$VERBOSE]]>
// CHECK-LABEL: util.func public @multi_device_set_encoding(
// CHECK:         stream.tensor.dispatch on(#hal.device.affinity<@device_a>) @ex::@set_encoding({{.+}} -> tensor<?x?xf32, #[[$VMVX]]>
// CHECK:         stream.tensor.dispatch on(#hal.device.affinity<@device_b>) @ex_dup0::@set_encoding({{.+}} -> tensor<?x?xf32, #[[$X86]]>

// -----

// An operand takes the layout of the device its resource lives on (where it was transferred to),
// not the dispatch's: here the LHS was encoded on device_a and read by a dispatch on device_b.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_vmvx = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
#executable_target_x86 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device_a = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_vmvx]> : !hal.device
util.global private @device_b = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_x86]> : !hal.device
stream.executable private @ex {
  stream.executable.export public @consume
  builtin.module {
    func.func @consume(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%arg1, %arg2}
      %1 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%arg1, %arg2}
      return
    }
  }
}
util.func public @operand_affinity_from_producer(%arg0: !stream.resource<*>, %N: index, %K: index, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x?xf32, #encoding>{%N, %K} : index
  %1 = stream.tensor.encode on(#hal.device.affinity<@device_a>) %arg0 : tensor<?x?xf32>{%N, %K} in !stream.resource<*>{%size} -> tensor<?x?xf32, #encoding>{%N, %K} in !stream.resource<*>{%0}
  %2 = stream.tensor.dispatch on(#hal.device.affinity<@device_b>) @ex::@consume(%1, %N, %K) : (tensor<?x?xf32, #encoding>{%N, %K} in !stream.resource<*>{%0}, index, index) -> tensor<?x?xf32>{%N, %K} in !stream.resource<*>{%size}
  util.return %2 : !stream.resource<*>
}
// CHECK-DAG:   #[[$VMVX:.+]] = #iree_encoding.layout<[#iree_cpu.vmvx_encoding_resolver
// CHECK-LABEL: stream.executable private @ex {
// CHECK:         stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #[[$VMVX]]>>
// CHECK-LABEL: util.func public @operand_affinity_from_producer(
// CHECK:         stream.tensor.encode on(#hal.device.affinity<@device_a>) {{.+}} -> tensor<?x?xf32, #[[$VMVX]]>
// CHECK:         stream.tensor.dispatch on(#hal.device.affinity<@device_b>) @ex::@consume(%{{.+}}) : (tensor<?x?xf32, #[[$VMVX]]>

// -----

// Left alone: an encoding no interface knows, an already serialized layout, ops without an
// affinity, and stream.tensor.import/export (IREE does not specialize them either).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx512f", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#unknown = #iree_encoding.unknown
#serialized = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [4, 1], outerDimsPerm = [0, 1]}}>]>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#old_serialized = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], layouts = [#iree_cpu.cpu_encoding_layout<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 1], outerDimsPerm = [0, 1]}}>]>
#testing_serialized = #iree_encoding.testing<layouts = [#iree_encoding.specialized<7>]>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @left_alone(%arg0: !hal.buffer_view, %d0: index, %d1: index) -> (index, index, index, index, index, !hal.buffer_view) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #unknown>{%d0, %d1} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #serialized>{%d0, %d1} : index
  %5 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #old_serialized>{%d0, %d1} : index
  %6 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #testing_serialized>{%d0, %d1} : index
  %2 = stream.tensor.sizeof tensor<?x?xf32, #lhs>{%d0, %d1} : index
  %3 = stream.tensor.import on(#hal.device.affinity<@device>) %arg0 : !hal.buffer_view -> tensor<?x?xf32, #lhs>{%d0, %d1} in !stream.resource<external>{%2}
  %4 = stream.tensor.export on(#hal.device.affinity<@device>) %3 : tensor<?x?xf32, #lhs>{%d0, %d1} in !stream.resource<external>{%2} -> !hal.buffer_view
  util.return %0, %1, %5, %6, %2, %4 : index, index, index, index, index, !hal.buffer_view
}
// CHECK-DAG:   #[[$UNKNOWN:.+]] = #iree_encoding.unknown
// CHECK-DAG:   #[[$SERIALIZED:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [4, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-DAG:   #[[$OLD:.+]] = #iree_encoding.encoding<{{.+}}layouts = [#iree_cpu.cpu_encoding_layout<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-DAG:   #[[$TESTING:.+]] = #iree_encoding.testing<{{(layouts = )?}}[#iree_encoding.specialized<7>]>
// CHECK-DAG:   #[[$VERBOSE:.+]] = #iree_encoding.encoding<operand_index = 0 : index, {{.+}}iteration_sizes
// CHECK-LABEL: util.func public @left_alone(
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$UNKNOWN]]>
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$SERIALIZED]]>
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$OLD]]>
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$TESTING]]>
// CHECK:         stream.tensor.sizeof tensor<?x?xf32, #[[$VERBOSE]]>
// CHECK:         stream.tensor.import {{.+}} -> tensor<?x?xf32, #[[$VERBOSE]]>
// CHECK:         stream.tensor.export {{.+}} : tensor<?x?xf32, #[[$VERBOSE]]>

// -----

// The testing resolvers: specialization_resolver<N> gives specialized<N, type>; a target without a
// resolver gets IREE's identity resolver; the identity resolver gives #iree_encoding.identity.

#executable_target_spec = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_encoding.specialization_resolver<123>}>
#executable_target_none = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {}>
#executable_target_identity = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_encoding.identity_resolver}>
#encoding = #iree_encoding.testing<>
util.global private @device_spec = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_spec]> : !hal.device
util.global private @device_none = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_none]> : !hal.device
util.global private @device_identity = #hal.device.target<"local", {ordinal = 2 : index}, [#executable_target_identity]> : !hal.device
util.func public @testing_resolvers(%d0: index) -> (index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_spec>) tensor<?x4xf32, #encoding>{%d0} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device_none>) tensor<?x4xf32, #encoding>{%d0} : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@device_identity>) tensor<?x4xf32, #encoding>{%d0} : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-DAG:   #[[$SPEC:.+]] = #iree_encoding.testing<{{(layouts = )?}}[#iree_encoding.specialized<123, tensor<?x4xf32>>]>
// CHECK-DAG:   #[[$IDENTITY:.+]] = #iree_encoding.testing<{{(layouts = )?}}[#iree_encoding.identity]>
// CHECK-LABEL: util.func public @testing_resolvers(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x4xf32, #[[$SPEC]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x4xf32, #[[$IDENTITY]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x4xf32, #[[$IDENTITY]]>

// -----

// The GPU padding resolver on a target without a known L1 cache (no `iree_codegen.target_info`)
// pads nothing: every recognized encoding, data-tiling ones included, gets `padding<[0, 0]>`, on the
// host and in the executable's binding (IREE's GPUPadLayoutResolverAttr without cache parameters).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<cache_line_bytes = 128, cache_sets = 4>}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device = #hal.device.target<"hip", [#executable_target]> : !hal.device
stream.executable private @ex {
  stream.executable.export public @consume
  builtin.module {
    func.func @consume(%arg0: !stream.binding, %arg1: index, %arg2: index) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%arg1, %arg2}
      return
    }
  }
}
util.func public @padding_resolver_without_cache_info(%arg0: !stream.resource<*>, %N: index, %K: index, %size: index) -> !stream.resource<*> {
  %0 = stream.tensor.dispatch on(#hal.device.affinity<@device>) @ex::@consume(%arg0, %N, %K) : (tensor<?x?xf32, #encoding>{%N, %K} in !stream.resource<*>{%size}, index, index) -> tensor<?x?xf32, #encoding>{%N, %K} in %arg0{%size}
  util.return %0 : !stream.resource<*>
}
// CHECK:       #[[$NO_PAD:.+]] = #iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>
// CHECK-LABEL: stream.executable private @ex {
// CHECK:         stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #[[$NO_PAD]]>>{%arg1, %arg2}
// CHECK-LABEL: util.func public @padding_resolver_without_cache_info(
// CHECK:         stream.tensor.dispatch {{.+}} : (tensor<?x?xf32, #[[$NO_PAD]]>{%{{.+}}, %{{.+}}} in !stream.resource<*>{%{{.+}}}, index, index)

// -----

// The GPU padding resolver on gfx942 (128-byte cache lines, 4 sets: a 512-byte set span), as IREE's
// specialize_encodings.mlir: a 2048 x f16 row (4096 bytes, a multiple of the span) takes one more
// line, 64 elements; a 16 x f16 row is shorter than the span and is not padded; static paddings stay.

#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip",
  iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<>,
  iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = none, mma = [<MFMA_F32_16x16x4_F32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>>}>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_rocm_hsaco_fb]> : !hal.device
#encodingA = #iree_encoding.padding<[0, ?]>
#encodingB = #iree_encoding.padding<[0, 64]>
#encodingC = #iree_encoding.padding<[64, 64]>
#encodingE = #iree_encoding.padding<[0, 0, ?]>
util.global private @device_a = #device_target_local_0_
util.func public @with_pad_encoding_using_pad_attr(%arg0: index) -> (index, index, index, index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x2048xf16, #encodingA>{%arg0} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x16xf16, #encodingA>{%arg0} : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x2048xf16, #encodingB>{%arg0} : index
  %3 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x2048xf16, #encodingC>{%arg0} : index
  %4 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x1000xf32, #encodingA>{%arg0} : index
  %5 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x4x100xi8, #encodingE>{%arg0} : index
  util.return %0, %1, %2, %3, %4, %5 : index, index, index, index, index, index
}
// CHECK-DAG:   #[[$PAD_DIM1_64:.+]] = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>]>
// CHECK-DAG:   #[[$NO_PAD:.+]] = #iree_encoding.layout<[#iree_encoding.padding<[0, 0]>]>
// CHECK-DAG:   #[[$PAD_DIM1_56:.+]] = #iree_encoding.layout<[#iree_encoding.padding<[0, 56]>]>
// CHECK-DAG:   #[[$NO_PAD_3D:.+]] = #iree_encoding.layout<[#iree_encoding.padding<[0, 0, 0]>]>
// CHECK-LABEL: util.func public @with_pad_encoding_using_pad_attr(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x2048xf16, #[[$PAD_DIM1_64]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x16xf16, #[[$NO_PAD]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x2048xf16, #iree_encoding.padding<[0, 64]>>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x2048xf16, #iree_encoding.padding<[64, 64]>>
// 1000 x f32 = 4000 bytes: 96 bytes up to the next line (4096), a multiple of the span, so one line
// more: 224 bytes, 56 elements.
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x1000xf32, #[[$PAD_DIM1_56]]>
// A 100-byte row is shorter than the span.
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x4x100xi8, #[[$NO_PAD_3D]]>

// -----

// IREE's create_pad_identity_encoding: without `iree_codegen.target_info` the padding resolver gives any
// encoding the zero padding.

#executable_target_rocm_bytecode_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<> }>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_rocm_bytecode_fb]> : !hal.device
#encoding = #iree_encoding.testing<>
util.global private @device_a = #device_target_local_0_
util.func public @create_pad_identity_encoding(%arg0: index) -> index {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x0xf32, #encoding>{%arg0} : index
  util.return %0 : index
}
// CHECK:       #[[$IDENTITY_PAD:.+]] = #iree_encoding.testing<{{(layouts = )?}}[#iree_encoding.padding<[0, 0]>]>
// CHECK-LABEL: @create_pad_identity_encoding
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x0xf32, #[[$IDENTITY_PAD]]>

// -----

// Paddings the resolver does not resolve: a dynamic innermost dim, a dynamic pad on an outer dim,
// and a data-tiling encoding on a target with a known cache.

#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip",
  iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<>,
  iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = none, mma = [<MFMA_F32_16x16x4_F32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>>}>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_rocm_hsaco_fb]> : !hal.device
#encodingA = #iree_encoding.padding<[0, ?]>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
util.global private @device_a = #device_target_local_0_
util.func public @error_pad_dynamic_innermost_dim(%arg0: index) -> index {
  // expected-error @+2 {{'stream.tensor.sizeof' op failed to resolve recognized layout}}
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to convert unserialized encoding to serialized encoding}}
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<2048x?xf16, #encodingA>{%arg0} : index
  util.return %0 : index
}
}
// -----

#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip",
  iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<>,
  iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = none, mma = [<MFMA_F32_16x16x4_F32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>>}>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_rocm_hsaco_fb]> : !hal.device
#encodingD = #iree_encoding.padding<[64, ?]>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
util.global private @device_a = #device_target_local_0_
util.func public @error_pad_dynamic_outer_pad(%arg0: index) -> index {
  // expected-error @+2 {{'stream.tensor.sizeof' op failed to resolve recognized layout}}
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to convert unserialized encoding to serialized encoding}}
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x2048xf16, #encodingD>{%arg0} : index
  util.return %0 : index
}
}
// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip",
  iree.encoding.resolver = #iree_gpu.gpu_padding_resolver<>,
  iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp32, storage = b32, subgroup = none, mma = [<MFMA_F32_16x16x4_F32>], subgroup_size_choices = [64], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 65536, max_workgroup_counts = [2147483647, 2147483647, 2147483647]>>}>
#device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_rocm_hsaco_fb]> : !hal.device
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
util.global private @device_a = #device_target_local_0_
util.func public @error_data_tiling_encoding_with_padding_resolver(%arg0: index) -> index {
  // expected-error @+2 {{'stream.tensor.sizeof' op failed to resolve recognized layout}}
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to convert unserialized encoding to serialized encoding}}
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device_a>) tensor<?x2048xf32, #encoding>{%arg0} : index
  util.return %0 : index
}
}
// -----

// A recognized encoding the resolver gives no layout for is an error, as in IREE.

#executable_target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_encoding.unsupported_resolver}>
#encoding = #iree_encoding.testing<>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @unsupported_resolver(%d0: index) -> index {
  // expected-error @+2 {{'stream.tensor.sizeof' op failed to resolve recognized layout}}
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to convert unserialized encoding to serialized encoding}}
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x4xf32, #encoding>{%d0} : index
  util.return %0 : index
}
}
// -----

// stream.tensor.constant is not specialized: an unserialized encoding on it is an error.

#executable_target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_encoding.specialization_resolver<123>}>
#encoding = #iree_encoding.testing<>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @constant_with_unserialized_encoding() -> !stream.resource<constant> {
  // expected-error @+1 {{'stream.tensor.constant' op failed to convert unserialized encoding to serialized encoding}}
  %0 = stream.tensor.constant on(#hal.device.affinity<@device>) : tensor<1x5xf32, #encoding> in !stream.resource<constant> = dense<0.000000e+00> : tensor<1x5xf32>
  util.return %0 : !stream.resource<constant>
}
}
// -----

// An affinity whose device names no executable targets cannot resolve a recognized encoding.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
util.global private @device : !hal.device
util.func public @device_without_targets(%d0: index, %d1: index) -> index {
  // expected-error @+2 {{'stream.tensor.sizeof' op failed to resolve recognized layout (no executable target is known for #hal.device.affinity<@device>)}}
  // expected-error @+1 {{'stream.tensor.sizeof' op failed to convert unserialized encoding to serialized encoding}}
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #lhs>{%d0, %d1} : index
  util.return %0 : index
}
}

// -----

// splat and fill get their layouts resolved like empty; slice and update of a tensor
// with an unserialized encoding are refused, as IREE refuses them.

#executable_target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_encoding.specialization_resolver<123>}>
#encoding = #iree_encoding.testing<>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @splat_and_fill(%d: index, %size: index, %f: f32, %r: !stream.resource<*>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = stream.tensor.splat on(#hal.device.affinity<@device>) %f : f32 -> tensor<?x4xf32, #encoding>{%d} in !stream.resource<*>{%size}
  %1 = stream.tensor.fill on(#hal.device.affinity<@device>) %f, %r[%c0, %c0 for %c1, %c1] : f32 -> tensor<?x4xf32, #encoding>{%d} in %r as !stream.resource<*>{%size}
  util.return
}
// CHECK-LABEL: util.func public @splat_and_fill(
// CHECK:         stream.tensor.splat {{.+}} -> tensor<?x4xf32, #[[$SPECIALIZED:.+]]>{%arg0}
// CHECK:         stream.tensor.fill {{.+}} -> tensor<?x4xf32, #[[$SPECIALIZED]]>{%arg0}

// -----

#executable_target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_encoding.specialization_resolver<123>}>
#encoding = #iree_encoding.testing<>
// expected-error @+1 {{failed to add layouts to Stream::TensorPhaseOp with encodings}}
module {
  util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
  util.func public @update_unserialized(%r: !stream.resource<*>, %u: !stream.resource<*>, %d: index, %size: index) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'stream.tensor.update' op failed to convert unserialized encoding to serialized encoding}}
    %0 = stream.tensor.update on(#hal.device.affinity<@device>) %u, %r[%c0, %c0] : tensor<2x4xf32, #encoding> in !stream.resource<*>{%size} -> tensor<?x4xf32, #encoding>{%d} in %r as !stream.resource<*>{%size}
    util.return
  }
}

// -----

// A dispatch to a hal.executable.source (no stream.executable to specialize)
// keeps its encodings, the source its export, as IREE leaves them.
// CHECK-LABEL: hal.executable.source private @src {
// CHECK-NEXT:    hal.executable.export public @entry ordinal(0)
// CHECK-NEXT:  }
// CHECK-LABEL: util.func public @dispatch_to_source
// CHECK:         stream.tensor.dispatch on(#hal.device.affinity<@device>) @src::@entry(%{{.+}}) : (tensor<4x?xf32, #encoding>{%{{.+}}} in !stream.resource<*>{%{{.+}}}) -> tensor<4x?xf32, #encoding>{%{{.+}}}
// ERA313-LABEL: util.func public @dispatch_to_source
// ERA313:         stream.tensor.dispatch {{.+}} -> tensor<4x?xf32, #encoding>
#executable_target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_encoding.specialization_resolver<123>}>
#encoding = #iree_encoding.testing<>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
hal.executable.source private @src {
  hal.executable.export public @entry ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer>, #hal.pipeline.binding<storage_buffer>]>)
}
util.func public @dispatch_to_source(%arg0: !stream.resource<*>, %arg1: index, %arg2: index) -> !stream.resource<*> {
  %0 = stream.tensor.dispatch on(#hal.device.affinity<@device>) @src::@entry(%arg0) : (tensor<4x?xf32, #encoding>{%arg2} in !stream.resource<*>{%arg1}) -> tensor<4x?xf32, #encoding>{%arg2} in !stream.resource<*>{%arg1}
  util.return %0 : !stream.resource<*>
}
