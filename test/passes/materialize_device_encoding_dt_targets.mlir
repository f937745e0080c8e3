// RUN: mini-iree-opt %s --split-input-file -p iree-codegen-materialize-device-encoding | filecheck %s
// mmt4d sign-extends its inputs: the packed operand of an unsigned (ui8) encoding is
// zero-extended to the accumulator type first, as IREE's createElementWiseExtUIOp does.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [ui8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 16, 16]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [ui8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 16, 16]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [ui8, i8, i32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 16, 16]>
func.func @unsigned_contraction() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xi8, #lhs>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xi8, #rhs>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xi8, #lhs>> -> tensor<16x16xi8, #lhs>
  %3 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xi8, #rhs>> -> tensor<16x16xi8, #rhs>
  %4 = tensor.empty() : tensor<16x16xi32, #out>
  %5 = linalg.fill ins(%c0_i32 : i32) outs(%4 : tensor<16x16xi32, #out>) -> tensor<16x16xi32, #out>
  %6 = linalg.matmul ins(%2, %3 : tensor<16x16xi8, #lhs>, tensor<16x16xi8, #rhs>) outs(%5 : tensor<16x16xi32, #out>) -> tensor<16x16xi32, #out>
  return
}
// CHECK-LABEL: func.func @unsigned_contraction(
// CHECK:         %[[LHS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<2x4x8x4xi8>
// CHECK:         %[[RHS:.+]] = iree_tensor_ext.dispatch.tensor.load {{.+}} -> tensor<2x4x8x4xi8>
// CHECK:         %[[ACC:.+]] = linalg.fill
// CHECK:         %[[EMPTY:.+]] = tensor.empty() : tensor<2x4x8x4xi32>
// CHECK:         %[[EXT:.+]] = linalg.generic {{.+}} ins(%[[LHS]] : tensor<2x4x8x4xi8>) outs(%[[EMPTY]] : tensor<2x4x8x4xi32>)
// CHECK-NEXT:    ^bb0(%[[IN:.+]]: i8, %{{.+}}: i32):
// CHECK-NEXT:      %[[Z:.+]] = arith.extui %[[IN]] : i8 to i32
// CHECK-NEXT:      linalg.yield %[[Z]] : i32
// CHECK:         linalg.mmt4d ins(%[[EXT]], %[[RHS]] : tensor<2x4x8x4xi32>, tensor<2x4x8x4xi8>) outs(%[[ACC]] : tensor<2x2x8x8xi32>)

// -----

// VMVX with microkernels leaves its tiles to the runtime (dynamic inner tiles): the
// device code asks for them (iree_codegen.query_tile_sizes of the encoded type) and
// packs with the answer, the outer dims divided by it at run time.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "all"}>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, ?]>
func.func @vmvx_ukernel_dynamic_tiles() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(None) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32, #encoding>>
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32>> -> tensor<16x16xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<16x16xf32> -> tensor<16x16xf32, #encoding>
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : tensor<16x16xf32, #encoding> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32, #encoding>>
  return
}
// CHECK-DAG:   #[[$OUTER:.+]] = affine_map<()[s0] -> (16 ceildiv s0)>
// CHECK-LABEL: func.func @vmvx_ukernel_dynamic_tiles(
// CHECK-DAG:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[TILES:.+]]:2 = iree_codegen.query_tile_sizes tensor<16x16xf32, #{{.+}}> -> index, index
// CHECK:         %[[M1:.+]] = affine.apply #[[$OUTER]]()[%[[TILES]]#0]
// CHECK:         %[[K1:.+]] = affine.apply #[[$OUTER]]()[%[[TILES]]#1]
// CHECK:         %[[OUT:.+]] = hal.interface.binding.subspan {{.+}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?x?x?xf32>>{%[[M1]], %[[K1]], %[[TILES]]#0, %[[TILES]]#1}
// CHECK:         %[[DEST:.+]] = tensor.empty(%[[M1]], %[[K1]], %[[TILES]]#0, %[[TILES]]#1) : tensor<?x?x?x?xf32>
// CHECK:         %[[PACK:.+]] = linalg.pack %{{.+}} padding_value(%[[ZERO]] : f32) outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [%[[TILES]]#0, %[[TILES]]#1] into %[[DEST]] : tensor<16x16xf32> -> tensor<?x?x?x?xf32>
// CHECK:         iree_tensor_ext.dispatch.tensor.store %[[PACK]], %[[OUT]], offsets = [0, 0, 0, 0], sizes = [%[[M1]], %[[K1]], %[[TILES]]#0, %[[TILES]]#1], strides = [1, 1, 1, 1]

// -----

// Unpacking a result whose tiles the runtime chose: the binding, its load and the unpack
// all take the queried tiles; the unpacked tensor keeps the sizes the dispatch was given.

#pipeline_layout = #hal.pipeline.layout<constants = 2, bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "all"}>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iteration_sizes = [?, ?, 7]>
func.func @vmvx_ukernel_unset_encoding() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %m = hal.interface.constant.load layout(#pipeline_layout) ordinal(0) : index
  %n = hal.interface.constant.load layout(#pipeline_layout) ordinal(1) : index
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%m, %n}
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  %2 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?xf32, #encoding>>{%m, %n} -> tensor<?x?xf32, #encoding>
  %3 = iree_encoding.unset_encoding %2 : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%m, %n}
  iree_tensor_ext.dispatch.tensor.store %3, %1, offsets = [0, 0], sizes = [%m, %n], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%m, %n}
  return
}
// CHECK-DAG:   #[[$DIV:.+]] = affine_map<()[s0, s1] -> (s0 ceildiv s1)>
// CHECK-LABEL: func.func @vmvx_ukernel_unset_encoding(
// CHECK:         %[[M:.+]] = hal.interface.constant.load {{.+}} ordinal(0)
// CHECK:         %[[N:.+]] = hal.interface.constant.load {{.+}} ordinal(1)
// CHECK:         %[[TILES:.+]]:2 = iree_codegen.query_tile_sizes tensor<?x?xf32, #{{.+}}> -> index, index
// CHECK:         %[[M1:.+]] = affine.apply #[[$DIV]]()[%[[M]], %[[TILES]]#0]
// CHECK:         %[[N1:.+]] = affine.apply #[[$DIV]]()[%[[N]], %[[TILES]]#1]
// CHECK:         %[[IN:.+]] = hal.interface.binding.subspan {{.+}} binding(0) {{.+}} : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x?x?x?xf32>>{%[[M1]], %[[N1]], %[[TILES]]#0, %[[TILES]]#1}
// CHECK:         %[[PACKED:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [0, 0, 0, 0], sizes = [%[[M1]], %[[N1]], %[[TILES]]#0, %[[TILES]]#1]
// CHECK:         %[[DEST:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK:         linalg.unpack %[[PACKED]] outer_dims_perm = [0, 1] inner_dims_pos = [0, 1] inner_tiles = [%[[TILES]]#0, %[[TILES]]#1] into %[[DEST]] : tensor<?x?x?x?xf32> -> tensor<?x?xf32>

// -----

// Function arguments and results of a runtime-tiled layout take dynamic tile dims; the
// contraction runs as mmt4d on them, and its init's tensor.empty asks for the tiles.

#target = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>, ukernels = "all"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#rhs = #iree_encoding.encoding<operand_index = 1, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#out = #iree_encoding.encoding<operand_index = 2, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @vmvx_ukernel_arguments(%lhs: tensor<64x16xf32, #lhs>, %rhs: tensor<16x32xf32, #rhs>) -> tensor<64x32xf32, #out> attributes {hal.executable.target = #target} {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x32xf32, #out>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x32xf32, #out>) -> tensor<64x32xf32, #out>
  %0 = linalg.matmul ins(%lhs, %rhs : tensor<64x16xf32, #lhs>, tensor<16x32xf32, #rhs>) outs(%fill : tensor<64x32xf32, #out>) -> tensor<64x32xf32, #out>
  return %0 : tensor<64x32xf32, #out>
}
// CHECK-DAG:   #[[$M1:.+]] = affine_map<()[s0] -> (64 ceildiv s0)>
// CHECK-DAG:   #[[$N1:.+]] = affine_map<()[s0] -> (32 ceildiv s0)>
// CHECK-LABEL: func.func @vmvx_ukernel_arguments(
// CHECK-SAME:    %[[LHS:.+]]: tensor<?x?x?x?xf32>, %[[RHS:.+]]: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
// CHECK:         %[[TILES:.+]]:2 = iree_codegen.query_tile_sizes tensor<64x32xf32, #{{.+}}> -> index, index
// CHECK:         %[[M1:.+]] = affine.apply #[[$M1]]()[%[[TILES]]#0]
// CHECK:         %[[N1:.+]] = affine.apply #[[$N1]]()[%[[TILES]]#1]
// CHECK:         %[[EMPTY:.+]] = tensor.empty(%[[M1]], %[[N1]], %[[TILES]]#0, %[[TILES]]#1) : tensor<?x?x?x?xf32>
// CHECK:         %[[FILL:.+]] = linalg.fill {{.+}} outs(%[[EMPTY]] : tensor<?x?x?x?xf32>)
// CHECK:         %[[MMT4D:.+]] = linalg.mmt4d ins(%[[LHS]], %[[RHS]] : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) outs(%[[FILL]] : tensor<?x?x?x?xf32>)
// CHECK:         return %[[MMT4D]]


// -----

// A target without an encoding resolver (gfx942:encoding-layout-resolver=none) gets
// IREE's identity resolver: encodings are dropped and the matmul runs as it is.

#pipeline_layout = #hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer, ReadOnly>, #hal.pipeline.binding<storage_buffer>]>
#target = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", ukernels = "none"}>
#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 16, 16]>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 16, 16]>
#out = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [16, 16, 16]>
func.func @no_resolver() attributes {hal.executable.target = #target} {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %0 = hal.interface.binding.subspan layout(#pipeline_layout) binding(0) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32, #lhs>>
  %1 = hal.interface.binding.subspan layout(#pipeline_layout) binding(1) alignment(64) offset(%c0) flags(ReadOnly) : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32, #rhs>>
  %2 = hal.interface.binding.subspan layout(#pipeline_layout) binding(2) alignment(64) offset(%c0) : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>
  %3 = iree_tensor_ext.dispatch.tensor.load %0, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32, #lhs>> -> tensor<16x16xf32, #lhs>
  %4 = iree_tensor_ext.dispatch.tensor.load %1, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<16x16xf32, #rhs>> -> tensor<16x16xf32, #rhs>
  %5 = tensor.empty() : tensor<16x16xf32, #out>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<16x16xf32, #out>) -> tensor<16x16xf32, #out>
  %7 = linalg.matmul ins(%3, %4 : tensor<16x16xf32, #lhs>, tensor<16x16xf32, #rhs>) outs(%6 : tensor<16x16xf32, #out>) -> tensor<16x16xf32, #out>
  %8 = iree_encoding.unset_encoding %7 : tensor<16x16xf32, #out> -> tensor<16x16xf32>
  iree_tensor_ext.dispatch.tensor.store %8, %2, offsets = [0, 0], sizes = [16, 16], strides = [1, 1] : tensor<16x16xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<16x16xf32>>
  return
}
// CHECK-LABEL: func.func @no_resolver(
// CHECK-NOT:     iree_encoding
// CHECK:         linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<16x16xf32>, tensor<16x16xf32>) outs(%{{.+}} : tensor<16x16xf32>)
// CHECK-NOT:     iree_encoding
// CHECK:         return
