// REQUIRES: shared
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/10-convert-to-stream.after.mlir -p iree-stream-specialize-encodings | filecheck %s --check-prefix=SEED
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/10-convert-to-stream.after.mlir -p 'iree-stream-specialize-encodings{gpu-era=3.13}' | filecheck %s --check-prefix=GFX313
// RUN: mini-iree-opt %s -p iree-stream-specialize-encodings --split-input-file | filecheck %s
// The walkthrough's sizeof example (dump 11: vmvx, x86 +avx512f and aarch64 devices) against its own CHECK lines:
// RUN: mini-iree-opt %shared/reference/seed-walkthrough/11-specialize-encodings.sizeof-multi-device.example.mlir -p iree-stream-specialize-encodings | filecheck %shared/reference/seed-walkthrough/11-specialize-encodings.sizeof-multi-device.example.mlir

// The walkthrough: dump 10 (after iree-stream-conversion) -> dump 13. The host-side encode/sizeof/dispatch
// types and the executable's bindings take the gfx942 layouts; the loads inside still return the verbose
// encodings (#encoding2..4), and the result, unset inside the dispatch, was never encoded.

// SEED:      #encoding = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 4 : i16], ["CrossIntrinsic", 8 : i16], ["CrossThread", 4 : i16]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [1, 4, 0, 2, 3]}}}>]>
// SEED-NEXT: #encoding1 = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 4 : i16], ["CrossThread", 16 : i16], ["CrossIntrinsic", 2 : i16]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16]]], permutation = [0, 2, 4, 1, 3]}}}>]>
// SEED:      #encoding2 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// SEED-NEXT: #encoding3 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// SEED-NEXT: #encoding4 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// SEED-LABEL: stream.executable private @matmul_f32f32f32_dispatch_0 {
// SEED:         %4 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%0, %1}
// SEED-NEXT:    %5 = stream.binding.subspan %arg1[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%2, %3}
// SEED-NEXT:    %6 = stream.binding.subspan %arg6[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%0, %3}
// SEED-NEXT:    %7 = iree_tensor_ext.dispatch.tensor.load %4, offsets = [0, 0], sizes = [%0, %1], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%0, %1} -> tensor<?x?xf32, #encoding2>
// SEED-NEXT:    %8 = iree_tensor_ext.dispatch.tensor.load %5, offsets = [0, 0], sizes = [%2, %3], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding1>>{%2, %3} -> tensor<?x?xf32, #encoding3>
// SEED-NEXT:    %9 = tensor.empty(%0, %3) : tensor<?x?xf32, #encoding4>
// SEED:         %11 = linalg.matmul ins(%7, %8 : tensor<?x?xf32, #encoding2>, tensor<?x?xf32, #encoding3>) outs(%10 : tensor<?x?xf32, #encoding4>) -> tensor<?x?xf32, #encoding4>
// SEED-NEXT:    %12 = iree_encoding.unset_encoding %11 : tensor<?x?xf32, #encoding4> -> tensor<?x?xf32>{%0, %3}
// SEED-LABEL: util.func public @matmul_f32f32f32(
// SEED:         stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%0, %1} : index
// SEED:         %[[S0:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding>{%0, %1} : index
// SEED-NEXT:    %[[LHS:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %4 : tensor<?x?xf32>{%0, %1} in !stream.resource<*>{%2} -> tensor<?x?xf32, #encoding>{%0, %1} in !stream.resource<*>{%[[S0]]}
// SEED-NEXT:    %[[S1:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding1>{%5, %6} : index
// SEED-NEXT:    %[[RHS:.+]] = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %9 : tensor<?x?xf32>{%5, %6} in !stream.resource<*>{%7} -> tensor<?x?xf32, #encoding1>{%5, %6} in !stream.resource<*>{%[[S1]]}
// SEED-NEXT:    %[[S2:.+]] = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32>{%0, %6} : index
// SEED-NEXT:    stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @matmul_f32f32f32_dispatch_0::@matmul_f32f32f32_dispatch_0_matmul_DxDxD_f32[%0, %1, %5, %6](%[[LHS]], %[[RHS]], %0, %1, %5, %6) : (tensor<?x?xf32, #encoding>{%0, %1} in !stream.resource<*>{%[[S0]]}, tensor<?x?xf32, #encoding1>{%5, %6} in !stream.resource<*>{%[[S1]]}, index, index, index, index) -> tensor<?x?xf32>{%0, %6} in !stream.resource<*>{%[[S2]]}

// The same program with IREE 3.13's GPU heuristics gives exactly the layouts of IREE 3.13's own dump
// (gfx942-dynamic-matmul/10_SpecializeEncodingsPass.mlir): 2 subgroups on M, and a distribution
// factor on every CrossThread dim (2 on the LHS subgroup dim, which the 2 subgroups along N share).

// GFX313:      #encoding = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [128, 16], outerDimsPerm = [0, 1], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 2 : i16, 2 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16, 1 : i8]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16, 1 : i8]]], permutation = [0, 1, 4, 2, 3]}}}>]>
// GFX313-NEXT: #encoding1 = #iree_encoding.layout<[#iree_gpu.gpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [128, 16], outerDimsPerm = [1, 0], swizzle = {expandShape = {{\[\[\[}}"CrossThread", 2 : i16, 1 : i8], ["CrossIntrinsic", 4 : i16], ["CrossThread", 16 : i16, 1 : i8]], {{\[\[}}"CrossIntrinsic", 4 : i16], ["CrossThread", 4 : i16, 1 : i8]]], permutation = [0, 1, 4, 2, 3]}}}>]>

// IREE 3.13's CPU dumps start from a different (flow) form, so their shapes are written here as stream
// programs for an x86 AVX2 target (3.13's znver3 target has the same tile-deciding features).
// dynamic-matmul: LHS {[0, 1], [8, 1], [0, 1]}, RHS {[1, 0], [8, 1], [1, 0]}.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+avx,+avx2,+fma,+f16c,+sse4.2", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#encoding2 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#encoding3 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @__device_0 = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
util.func public @dynamic_matmul_313(%0: index, %1: index, %5: index, %6: index) -> (index, index) {
  %10 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding2>{%0, %1} : index
  %12 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding3>{%5, %6} : index
  util.return %10, %12 : index, index
}
// CHECK:      #encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-NEXT: #encoding1 = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
// CHECK-LABEL: @dynamic_matmul_313(
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding>{%arg0, %arg1} : index
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding1>{%arg2, %arg3} : index

// -----

// const-weight-matmul: a static 256x512 weight (iteration_sizes [?, 512, 256]) encoded in an
// initializer, its RHS layout {[1, 0], [8, 1], [1, 0]}.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+avx,+avx2,+fma,+f16c,+sse4.2", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#encoding3 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 512, 256]>
util.global private @__device_0 = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
util.global private @__hoisted_tensor_256x512xf32 : !stream.resource<*>
util.initializer {
  %c524288 = arith.constant 524288 : index
  %cst = stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<256x512xf32> in !stream.resource<constant> = dense<1.000000e+00> : tensor<256x512xf32>
  %1 = stream.async.transfer %cst : !stream.resource<constant>{%c524288} from(#hal.device.affinity<@__device_0>) -> to(#hal.device.affinity<@__device_0>) !stream.resource<*>{%c524288}
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<256x512xf32, #encoding3> : index
  %3 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %1 : tensor<256x512xf32> in !stream.resource<*>{%c524288} -> tensor<256x512xf32, #encoding3> in !stream.resource<*>{%2}
  util.global.store %3, @__hoisted_tensor_256x512xf32 : !stream.resource<*>
  util.return
}
// CHECK:      #encoding = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
// CHECK-LABEL: util.initializer {
// CHECK:         stream.tensor.constant on(#hal.device.affinity<@__device_0>) : tensor<256x512xf32> in !stream.resource<constant>
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<256x512xf32, #encoding> : index
// CHECK:         stream.tensor.encode on(#hal.device.affinity<@__device_0>) {{.+}} -> tensor<256x512xf32, #encoding> in

// -----

// A static matvec-shaped matmul, 1x4096 @ 4096x4096: LHS [1, 1] tiles, RHS [8, 1], result [1, 8].

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+avx,+avx2,+fma,+f16c,+sse4.2", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [1, 4096, 4096]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [1, 4096, 4096]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [1, 4096, 4096]>
util.global private @__device_0 = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
util.func public @static_matvec_313() -> (index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<1x4096xf32, #lhs> : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<4096x4096xf32, #rhs> : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<1x4096xf32, #out> : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-DAG: #[[$LHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-DAG: #[[$RHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0]}}>]>
// CHECK-DAG: #[[$OUT:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [1, 8], outerDimsPerm = [0, 1]}}>]>
// CHECK-LABEL: @static_matvec_313(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<1x4096xf32, #[[$LHS]]> : index
// CHECK:         stream.tensor.sizeof {{.+}} tensor<4096x4096xf32, #[[$RHS]]> : index
// CHECK:         stream.tensor.sizeof {{.+}} tensor<1x4096xf32, #[[$OUT]]> : index

// -----

// elementwise-producer-consumer: a bias broadcast along M into the result (the result map followed by
// (d0, d1) -> (d1)) is a vector of N, laid out {[0], [8], [0]}; the encoded matmul LHS is produced
// by a dispatch (its result encoding resolved by the dispatch's affinity).

#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "znver3", cpu_features = "+avx,+avx2,+fma,+f16c,+sse4.2", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#encoding3 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map2, #map3, #map4], iteration_sizes = [?, ?, ?]>
#encoding6 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map2, #map3, [#map4, #map1]], iteration_sizes = [?, ?, ?]>
util.global private @__device_0 = #hal.device.target<"local", [#executable_target_embedded_elf_x86_64]> : !hal.device
stream.executable private @producer {
  stream.executable.export public @producer
  builtin.module {
    func.func @producer(%arg0: !stream.binding, %arg1: index, %arg2: index, %arg3: !stream.binding) {
      %c0 = arith.constant 0 : index
      %0 = stream.binding.subspan %arg0[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32>>{%arg1, %arg2}
      %1 = stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #encoding3>>{%arg1, %arg2}
      return
    }
  }
}
util.func public @elementwise_bias_313(%arg0: !stream.resource<*>, %arg1: !stream.resource<*>, %arg2: index, %arg3: index, %arg4: index, %arg5: index, %arg6: index) -> (!stream.resource<*>, !stream.resource<*>) {
  %18 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?x?xf32, #encoding3>{%arg2, %arg3} : index
  %19 = stream.tensor.dispatch on(#hal.device.affinity<@__device_0>) @producer::@producer(%arg0, %arg2, %arg3) : (tensor<?x?xf32>{%arg2, %arg3} in !stream.resource<*>{%arg5}, index, index) -> tensor<?x?xf32, #encoding3>{%arg2, %arg3} in !stream.resource<*>{%18}
  %22 = stream.tensor.sizeof on(#hal.device.affinity<@__device_0>) tensor<?xf32, #encoding6>{%arg4} : index
  %23 = stream.tensor.encode on(#hal.device.affinity<@__device_0>) %arg1 : tensor<?xf32>{%arg4} in !stream.resource<*>{%arg6} -> tensor<?xf32, #encoding6>{%arg4} in !stream.resource<*>{%22}
  util.return %19, %23 : !stream.resource<*>, !stream.resource<*>
}
// CHECK-DAG: #[[$LHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1]}}>]>
// CHECK-DAG: #[[$BIAS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0], innerTileSizes = [8], outerDimsPerm = [0]}}>]>
// CHECK-LABEL: stream.executable private @producer {
// CHECK:         stream.binding.subspan %arg3[%c0] : !stream.binding -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32, #[[$LHS]]>>
// CHECK-LABEL: @elementwise_bias_313(
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?x?xf32, #[[$LHS]]>{%arg2, %arg3} : index
// CHECK:         stream.tensor.dispatch {{.+}} -> tensor<?x?xf32, #[[$LHS]]>{%arg2, %arg3} in !stream.resource<*>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<?xf32, #[[$BIAS]]>{%arg4} : index
// CHECK:         stream.tensor.encode {{.+}} -> tensor<?xf32, #[[$BIAS]]>{%arg4} in !stream.resource<*>
