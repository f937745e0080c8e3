// RUN: mini-iree-opt %s -p iree-stream-specialize-encodings --iree-era=3.13 --iree-llvmcpu-enable-scalable-vectorization | filecheck %s
// RUN: mini-iree-opt %s -p iree-stream-specialize-encodings --iree-era=3.13 | filecheck %s --check-prefix=FIXED

// AArch64 +sve under --iree-llvmcpu-enable-scalable-vectorization: the serialized layouts say
// which tiles are scalable (`scalableTiles`, one flag per inner tile): the N tile of the RHS and
// of the result. Without the option nothing is scalable and no `scalableTiles` is printed.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#executable_target = #hal.executable.target<"llvm-cpu", "embedded-elf-arm_64", {cpu_features = "+sve", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "aarch64-none-elf"}>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.global private @device = #hal.device.target<"local", [#executable_target]> : !hal.device
util.func public @sve_sizeof(%d0: index, %d1: index) -> (index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #lhs>{%d0, %d1} : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #rhs>{%d0, %d1} : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #out>{%d0, %d1} : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK-DAG: #[[$LHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 1], scalableTiles = [false, false]}}>]>
// CHECK-DAG: #[[$RHS:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [1, 0], innerTileSizes = [8, 1], outerDimsPerm = [1, 0], scalableTiles = [true, false]}}>]>
// CHECK-DAG: #[[$OUT:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 8], outerDimsPerm = [0, 1], scalableTiles = [false, true]}}>]>
// CHECK-LABEL: util.func public @sve_sizeof(
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$LHS]]>
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$RHS]]>
// CHECK:         stream.tensor.sizeof on(#hal.device.affinity<@device>) tensor<?x?xf32, #[[$OUT]]>
// FIXED-NOT: scalableTiles
