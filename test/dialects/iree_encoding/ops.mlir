// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// The form printed by the data-tiling walkthrough: no encoding_dims, and the
// problem-size hint still spelled round_dims_to.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], round_dims_to = array<i64: 32, 32, 32>>
func.func @set_encoding_round_dims_to(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], round_dims_to = array<i64: 32, 32, 32>>
// CHECK-LABEL: func.func @set_encoding_round_dims_to(
// CHECK:         %[[R:.+]] = iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// CHECK:         return %[[R]]

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], round_dims_to = array<i64: 32, 32, 32>>
func.func @unset_encoding_result_dims(%arg0: tensor<?x?xf32, #encoding>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @unset_encoding_result_dims(
// CHECK-SAME:    %[[ARG0:[a-z0-9]+]]: tensor<?x?xf32, #encoding>, %[[D0:[a-z0-9]+]]: index, %[[D1:[a-z0-9]+]]: index
// CHECK:         iree_encoding.unset_encoding %[[ARG0]] : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%[[D0]], %[[D1]]}

// -----

// IREE 3.13: each `?` in iteration_sizes is an encoding_dims value.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @set_encoding_encoding_dims(%arg0: tensor<?x?xf32>, %m: index, %n: index, %k: index) -> tensor<?x?xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// CHECK-LABEL: func.func @set_encoding_encoding_dims(
// CHECK-SAME:    %[[ARG0:[a-z0-9]+]]: tensor<?x?xf32>, %[[M:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[K:[a-z0-9]+]]: index
// CHECK:         iree_encoding.set_encoding %[[ARG0]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
func.func @unset_encoding_encoding_dims(%arg0: tensor<?x?xf32, #encoding>, %m: index, %n: index, %k: index) -> tensor<?x?xf32> {
  %0 = iree_encoding.unset_encoding %arg0 encoding_dims{%m, %n, %k} : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%m, %n}
  return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @unset_encoding_encoding_dims(
// CHECK-SAME:    %[[ARG0:[a-z0-9]+]]: tensor<?x?xf32, #encoding>, %[[M:[a-z0-9]+]]: index, %[[N:[a-z0-9]+]]: index, %[[K:[a-z0-9]+]]: index
// CHECK:         iree_encoding.unset_encoding %[[ARG0]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%[[M]], %[[N]]}

// -----

// Before the sizes were carried as operands, dynamic iteration sizes came
// without encoding_dims (the data-tiling walkthrough prints this form).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul,
element_types = [f32, f32, f32],
user_indexing_maps = [#map, #map1, #map2],
iteration_sizes = [?, ?, ?]>
func.func @set_encoding_dynamic_sizes_without_encoding_dims(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
// CHECK-LABEL: func.func @set_encoding_dynamic_sizes_without_encoding_dims(
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>

// -----

// Static iteration sizes need no value: only M is dynamic here.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 512, 256]>
func.func @set_encoding_partly_static(%arg0: tensor<?x256xf32>, %m: index) -> tensor<?x256xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 encoding_dims{%m} : tensor<?x256xf32> -> tensor<?x256xf32, #encoding>
  return %0 : tensor<?x256xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, 512, 256]>
// CHECK-LABEL: func.func @set_encoding_partly_static(
// CHECK:         iree_encoding.set_encoding %{{.+}} encoding_dims{%{{.+}}} : tensor<?x256xf32> -> tensor<?x256xf32, #encoding>

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [100, 500, 250]>
func.func @unset_encoding_static(%arg0: tensor<100x500xf32, #encoding>) -> tensor<100x500xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<100x500xf32, #encoding> -> tensor<100x500xf32>
  return %0 : tensor<100x500xf32>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [100, 500, 250]>
// CHECK-LABEL: func.func @unset_encoding_static(
// CHECK:         iree_encoding.unset_encoding %{{.+}} : tensor<100x500xf32, #encoding> -> tensor<100x500xf32>{{$}}

// -----

// unset_encoding may also slice: a dynamic size of the source can become a
// smaller static or dynamic size of the result.

#encoding = #iree_encoding.testing<>
func.func @unset_encoding_slices(%arg0: tensor<?x4xf32, #encoding>, %d: index) -> tensor<3x?xf32> {
  %0 = iree_encoding.unset_encoding %arg0 : tensor<?x4xf32, #encoding> -> tensor<3x?xf32>{%d}
  return %0 : tensor<3x?xf32>
}
// CHECK-LABEL: func.func @unset_encoding_slices(
// CHECK:         iree_encoding.unset_encoding %{{.+}} : tensor<?x4xf32, #encoding> -> tensor<3x?xf32>{%{{.+}}}

// -----

// The attribute dictionary comes before the source, as in IREE's format.

#encoding = #iree_encoding.testing<>
func.func @encoding_ops_attr_dict(%arg0: tensor<?xf32>, %d: index) -> tensor<?xf32> {
  %0 = iree_encoding.set_encoding {tag = "lhs"} %arg0 : tensor<?xf32> -> tensor<?xf32, #encoding>
  %1 = iree_encoding.unset_encoding {tag = "lhs"} %0 : tensor<?xf32, #encoding> -> tensor<?xf32>{%d}
  return %1 : tensor<?xf32>
}
// CHECK-LABEL: func.func @encoding_ops_attr_dict(
// CHECK:         iree_encoding.set_encoding {tag = "lhs"} %{{.+}} : tensor<?xf32> -> tensor<?xf32, #encoding>
// CHECK:         iree_encoding.unset_encoding {tag = "lhs"} %{{.+}} : tensor<?xf32, #encoding> -> tensor<?xf32>{%{{.+}}}

// -----

// A bias broadcast into the matmul result: propagation appended the broadcast
// map to the result's entry, giving a chain to compose.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #map3]], iteration_sizes = [?, ?, ?]>
func.func @encoding_map_chain(%arg0: tensor<?xf32>, %m: index, %n: index, %k: index) -> tensor<?xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 encoding_dims{%m, %n, %k} : tensor<?xf32> -> tensor<?xf32, #encoding>
  return %0 : tensor<?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, [#map2, #map3]], iteration_sizes = [?, ?, ?]>
// CHECK-LABEL: func.func @encoding_map_chain(
// CHECK:         iree_encoding.set_encoding %{{.+}} encoding_dims{%{{.+}}, %{{.+}}, %{{.+}}} : tensor<?xf32> -> tensor<?xf32, #encoding>

// -----

// Struct parameters may come in any order and span lines; they print in the
// declared order on one line. An untyped operand_index is an i64.

#map = affine_map<(m, n, k) -> (m, k)>
#map1 = affine_map<(m, n, k) -> (k, n)>
#map2 = affine_map<(m, n, k) -> (m, n)>
#encoding = #iree_encoding.encoding<
  user_indexing_maps = [#map, #map1, #map2],
  element_types = [f32, f32, f32],
  op_type = matmul,
  operand_index = 1
>
func.func @encoding_parameter_order(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 1 : i64, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
// CHECK-LABEL: func.func @encoding_parameter_order(

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = scaled_matmul, element_types = [i8, i8, i32], original_element_type = i4, user_indexing_maps = [#map, #map1, #map2]>
func.func @encoding_original_element_type(%arg0: tensor<?x?xi8, #encoding>) -> tensor<?x?xi8, #encoding> {
  return %arg0 : tensor<?x?xi8, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = scaled_matmul, element_types = [i8, i8, i32], original_element_type = i4, user_indexing_maps = [#map, #map1, #map2]>
// CHECK-LABEL: func.func @encoding_original_element_type(

// -----

#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f16, f16, f32]>
func.func @encoding_conv_without_maps(%arg0: tensor<1x8x8x4xf16, #encoding>) -> tensor<1x8x8x4xf16, #encoding> {
  return %arg0 : tensor<1x8x8x4xf16, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = conv, element_types = [f16, f16, f32]>
// CHECK-LABEL: func.func @encoding_conv_without_maps(

// -----

// Before #iree_encoding.layout existed, resolved layouts sat in the encoding.

#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], layouts = [#iree_encoding.specialized_encoding<123, tensor<?x?xf32>>]>
func.func @encoding_with_layouts(%arg0: tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding> {
  return %arg0 : tensor<?x?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], layouts = [#iree_encoding.specialized_encoding<123, tensor<?x?xf32>>]>
// CHECK-LABEL: func.func @encoding_with_layouts(

// -----

#encoding = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>, #iree_encoding.identity]>
func.func @layout(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32, #encoding> {
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  return %0 : tensor<?x?xf32, #encoding>
}
// CHECK: #encoding = #iree_encoding.layout<[#iree_encoding.padding<[0, 64]>, #iree_encoding.identity]>
// CHECK-LABEL: func.func @layout(
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>

// -----

// Layouts that are not aliased print inline.

func.func @padding(%arg0: tensor<?x?xf32, #iree_encoding.padding<[0, ?]>>, %arg1: tensor<4xf32, #iree_encoding.padding<[]>>) {
  return
}
// CHECK-LABEL: func.func @padding(
// CHECK-SAME:    tensor<?x?xf32, #iree_encoding.padding<[0, ?]>>
// CHECK-SAME:    tensor<4xf32, #iree_encoding.padding<[]>>

// -----

func.func @identity_and_packed_storage(%arg0: tensor<?xf32, #iree_encoding.identity>, %arg1: tensor<?x4xi4, #iree_encoding.packed_storage>) {
  return
}
// CHECK-LABEL: func.func @identity_and_packed_storage(
// CHECK-SAME:    tensor<?xf32, #iree_encoding.identity>
// CHECK-SAME:    tensor<?x4xi4, #iree_encoding.packed_storage>

// -----

#encoding = #iree_encoding.testing<layouts = [#iree_encoding.specialized<1>], original_element_type = i4>
#encoding1 = #iree_encoding.testing<original_element_type = i4>
func.func @testing(%arg0: tensor<?xi8, #encoding>, %arg1: tensor<?xi8, #encoding1>) {
  return
}
// CHECK: #encoding = #iree_encoding.testing<layouts = [#iree_encoding.specialized<1>], original_element_type = i4>
// CHECK: #encoding1 = #iree_encoding.testing<original_element_type = i4>
// CHECK-LABEL: func.func @testing(

// -----

func.func @unknown(%arg0: tensor<?xf32, #iree_encoding.unknown>) {
  return
}
// CHECK: #encoding = #iree_encoding.unknown
// CHECK-LABEL: func.func @unknown(
// CHECK-SAME:    tensor<?xf32, #encoding>

// -----

func.func @specialized(%arg0: tensor<?xf32, #iree_encoding.specialized<7>>, %arg1: tensor<?xf32, #iree_encoding.specialized<8, tensor<?xf32>>>) {
  return
}
// CHECK-LABEL: func.func @specialized(
// CHECK-SAME:    tensor<?xf32, #iree_encoding.specialized<7>>
// CHECK-SAME:    tensor<?xf32, #iree_encoding.specialized<8, tensor<?xf32>>>

// -----

func.func @resolvers() attributes {resolvers = [#iree_encoding.identity_resolver, #iree_encoding.unsupported_resolver, #iree_encoding.specialization_resolver<42>]} {
  return
}
// CHECK-LABEL: func.func @resolvers()
// CHECK-SAME:    resolvers = [#iree_encoding.identity_resolver, #iree_encoding.unsupported_resolver, #iree_encoding.specialization_resolver<42>]

// -----

// A parameterless attribute may be written with an empty `<>`, as in MLIR; it prints without.
func.func @empty_parameter_lists() attributes {hal.executable.target = #hal.executable.target<"llvm-cpu", "whatever", {iree.encoding.resolver = #iree_encoding.identity_resolver<>}>, layouts = [#iree_encoding.identity<>], resolvers = [#iree_encoding.unsupported_resolver<>]} {
  return
}
// CHECK:       #executable_target_whatever = #hal.executable.target<"llvm-cpu", "whatever", {iree.encoding.resolver = #iree_encoding.identity_resolver}>
// CHECK-LABEL: func.func @empty_parameter_lists()
// CHECK-SAME:    hal.executable.target = #executable_target_whatever
// CHECK-SAME:    layouts = [#iree_encoding.identity]
// CHECK-SAME:    resolvers = [#iree_encoding.unsupported_resolver]

// -----

// Spellings used before mid-2025.

func.func @older_spellings() attributes {
  layouts = [#iree_encoding.pad_encoding_layout<[0, 64]>, #iree_encoding.specialized_encoding<1, tensor<?x?xf32>>, #iree_encoding.specialized_encoding<2>],
  resolvers = [#iree_encoding.identity_encoding, #iree_encoding.unsupported_encoding, #iree_encoding.unspecialized_encoding<3>]} {
  return
}
// CHECK-LABEL: func.func @older_spellings()
// CHECK-SAME:    layouts = [#iree_encoding.pad_encoding_layout<[0, 64]>, #iree_encoding.specialized_encoding<1, tensor<?x?xf32>>, #iree_encoding.specialized_encoding<2>]
// CHECK-SAME:    resolvers = [#iree_encoding.identity_encoding, #iree_encoding.unsupported_encoding, #iree_encoding.unspecialized_encoding<3>]

// -----

#encoding = #iree_encoding.testing_encoding<>
#encoding1 = #iree_encoding.testing_encoding<[#iree_encoding.specialized_encoding<1>]>
func.func @older_testing_encodings(%arg0: tensor<?xf32, #encoding>, %arg1: tensor<?xf32, #encoding1>, %arg2: tensor<?xf32, #iree_encoding.unknown_encoding>) {
  return
}
// CHECK: #encoding = #iree_encoding.testing_encoding<>
// CHECK: #encoding1 = #iree_encoding.testing_encoding<[#iree_encoding.specialized_encoding<1>]>
// CHECK: #encoding2 = #iree_encoding.unknown_encoding
// CHECK-LABEL: func.func @older_testing_encodings(
// CHECK-SAME:    tensor<?xf32, #encoding>, %{{.+}}: tensor<?xf32, #encoding1>, %{{.+}}: tensor<?xf32, #encoding2>

// -----

func.func @op_type() attributes {op_types = [#iree_encoding.optype<matmul>, #iree_encoding.optype<scaled_matmul>, #iree_encoding.optype<conv>]} {
  return
}
// CHECK-LABEL: func.func @op_type()
// CHECK-SAME:    op_types = [#iree_encoding.optype<matmul>, #iree_encoding.optype<scaled_matmul>, #iree_encoding.optype<conv>]

// -----

// The walkthrough era's positional testing encoding; without
// original_element_type it prints in that form.
// CHECK: #encoding = #iree_encoding.testing<[#iree_encoding.specialization_resolver<123>]>
// CHECK: #encoding1 = #iree_encoding.testing<[#iree_encoding.specialized<1>]>
// CHECK-LABEL: func.func @testing_positional
#encoding = #iree_encoding.testing<[#iree_encoding.specialization_resolver<123>]>
#encoding1 = #iree_encoding.testing<layouts = [#iree_encoding.specialized<1>]>
func.func @testing_positional(%arg0: tensor<?xf32, #encoding>, %arg1: tensor<?xf32, #encoding1>) -> tensor<?xf32, #encoding> {
  return %arg0 : tensor<?xf32, #encoding>
}
