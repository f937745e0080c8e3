// RUN: mini-iree-opt %s --iree-era=3.13 -p iree-stream-specialize-encodings --split-input-file | filecheck %s

// The CPU resolver lays out conv encodings (op_type = conv) with an (OC, IC) tile: 16x16 on
// x86-64 with AVX-512, 8x8 on aarch64. The input is tiled on its channel dim and moved
// after the batch (the output likewise, the same layout), the filter on both channel
// dims, OC outermost.

#map_in = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh + fh, ow + fw, ic)>
#map_f = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (fh, fw, ic, oc)>
#map_out = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh, ow, oc)>
#avx512 = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f"}>
#neon = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "aarch64-xyz-xyz", cpu_features = "+neon"}>
#in = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]>
#f = #iree_encoding.encoding<operand_index = 1 : index, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]>
util.global private @x86 = #hal.device.target<"local", {ordinal = 0 : index}, [#avx512]> : !hal.device
util.global private @arm = #hal.device.target<"local", {ordinal = 1 : index}, [#neon]> : !hal.device
util.func public @conv_layouts() -> (index, index, index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@x86>) tensor<2x12x14x20xf32, #in> : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@x86>) tensor<3x3x20x24xf32, #f> : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@x86>) tensor<2x10x12x24xf32, #out> : index
  %3 = stream.tensor.sizeof on(#hal.device.affinity<@arm>) tensor<2x12x14x20xf32, #in> : index
  %4 = stream.tensor.sizeof on(#hal.device.affinity<@arm>) tensor<3x3x20x24xf32, #f> : index
  util.return %0, %1, %2, %3, %4 : index, index, index, index, index
}
// CHECK-DAG:   #[[$IN16:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [3], innerTileSizes = [16], outerDimsPerm = [0, 3, 1, 2]}}>]>
// CHECK-DAG:   #[[$F16:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [2, 3], innerTileSizes = [16, 16], outerDimsPerm = [3, 2, 0, 1]}}>]>
// CHECK-DAG:   #[[$IN8:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [3], innerTileSizes = [8], outerDimsPerm = [0, 3, 1, 2]}}>]>
// CHECK-DAG:   #[[$F8:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [2, 3], innerTileSizes = [8, 8], outerDimsPerm = [3, 2, 0, 1]}}>]>
// CHECK-LABEL: util.func public @conv_layouts
// CHECK:         stream.tensor.sizeof {{.+}} tensor<2x12x14x20xf32, #[[$IN16]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<3x3x20x24xf32, #[[$F16]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<2x10x12x24xf32, #[[$IN16]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<2x12x14x20xf32, #[[$IN8]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<3x3x20x24xf32, #[[$F8]]>

// -----

// Without a tile for the target (x86-64 without AVX-512) or for the types (f16), or for a
// dilated convolution, the layout is the identity: the encoding is dropped.

#map_in = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh + fh, ow + fw, ic)>
#map_dil = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh + fh * 2, ow + fw * 2, ic)>
#map_f = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (fh, fw, ic, oc)>
#map_out = affine_map<(n, oh, ow, oc, fh, fw, ic) -> (n, oh, ow, oc)>
#avx2 = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz", cpu_features = "+avx2"}>
#avx512 = #hal.executable.target<"llvm-cpu", "xyz", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, target_triple = "x86_64-xyz-xyz", cpu_features = "+avx512f"}>
#in = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]>
#in_f16 = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f16, f16, f32], user_indexing_maps = [#map_in, #map_f, #map_out], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]>
#in_dilated = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f32, f32, f32], user_indexing_maps = [#map_dil, #map_f, #map_out], iteration_sizes = [2, 10, 12, 24, 3, 3, 20]>
util.global private @avx2 = #hal.device.target<"local", {ordinal = 0 : index}, [#avx2]> : !hal.device
util.global private @avx512 = #hal.device.target<"local", {ordinal = 1 : index}, [#avx512]> : !hal.device
util.func public @conv_identity_layouts() -> (index, index, index) {
  %0 = stream.tensor.sizeof on(#hal.device.affinity<@avx2>) tensor<2x12x14x20xf32, #in> : index
  %1 = stream.tensor.sizeof on(#hal.device.affinity<@avx512>) tensor<2x12x14x20xf16, #in_f16> : index
  %2 = stream.tensor.sizeof on(#hal.device.affinity<@avx512>) tensor<2x14x16x20xf32, #in_dilated> : index
  util.return %0, %1, %2 : index, index, index
}
// CHECK:       #[[$ID:.+]] = #iree_encoding.layout<[#iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [], innerTileSizes = [], outerDimsPerm = []}}>]>
// CHECK-LABEL: util.func public @conv_identity_layouts
// CHECK:         stream.tensor.sizeof {{.+}} tensor<2x12x14x20xf32, #[[$ID]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<2x12x14x20xf16, #[[$ID]]>
// CHECK:         stream.tensor.sizeof {{.+}} tensor<2x14x16x20xf32, #[[$ID]]>
