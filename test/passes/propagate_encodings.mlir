// RUN: mini-iree-opt %s -p iree-dispatch-creation-propagate-encodings --split-input-file | filecheck %s

// set_encoding bubbles above a tensor.cast and keeps its encoding_dims; the
// encoded value is cast instead.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f16, f16, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.func public @set_encoding_through_cast(%src: tensor<1024x?xf16>, %m: index, %n: index, %k: index) -> tensor<?x512xf16, #encoding> {
  %cast = tensor.cast %src : tensor<1024x?xf16> to tensor<?x512xf16>
  %0 = iree_encoding.set_encoding %cast encoding_dims{%m, %n, %k} : tensor<?x512xf16> -> tensor<?x512xf16, #encoding>
  util.return %0 : tensor<?x512xf16, #encoding>
}
// CHECK-LABEL: @set_encoding_through_cast(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<1024x?xf16>, %[[M:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index, %[[K:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[SRC]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<1024x?xf16> -> tensor<1024x?xf16, #encoding>
// CHECK-NEXT:    %[[CAST:.+]] = tensor.cast %[[SET]] : tensor<1024x?xf16, #encoding> to tensor<?x512xf16, #encoding>
// CHECK-NEXT:    util.return %[[CAST]]

// -----

// A serialized layout moves too (the only case IREE handles).

#encoding = #iree_encoding.layout<[#iree_encoding.testing<layouts = []>]>
util.func public @serialized_layout_through_cast(%src: tensor<1024x?xf16>) -> tensor<?x512xf16, #encoding> {
  %cast = tensor.cast %src : tensor<1024x?xf16> to tensor<?x512xf16>
  %0 = iree_encoding.set_encoding %cast : tensor<?x512xf16> -> tensor<?x512xf16, #encoding>
  util.return %0 : tensor<?x512xf16, #encoding>
}
// CHECK-LABEL: @serialized_layout_through_cast(
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %{{.+}} : tensor<1024x?xf16> -> tensor<1024x?xf16, #[[ENC:.+]]>
// CHECK-NEXT:    tensor.cast %[[SET]] : tensor<1024x?xf16, #[[ENC]]> to tensor<?x512xf16, #[[ENC]]>

// -----

// An unserialized layout still waits for target decisions: left alone.

#encoding = #iree_encoding.layout<[#iree_encoding.testing<>]>
util.func public @no_propagation_of_unserialized_layout(%src: tensor<1024x?xf16>) -> tensor<?x512xf16, #encoding> {
  %cast = tensor.cast %src : tensor<1024x?xf16> to tensor<?x512xf16>
  %0 = iree_encoding.set_encoding %cast : tensor<?x512xf16> -> tensor<?x512xf16, #encoding>
  util.return %0 : tensor<?x512xf16, #encoding>
}
// CHECK-LABEL: @no_propagation_of_unserialized_layout(
// CHECK-NEXT:    %[[CAST:.+]] = tensor.cast %{{.+}} : tensor<1024x?xf16> to tensor<?x512xf16>
// CHECK-NEXT:    iree_encoding.set_encoding %[[CAST]] : tensor<?x512xf16>

// -----

// Inside a dispatch the ops are the dispatch's code: left alone.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @no_propagation_inside_dispatch(%src: tensor<16x8xf32>) -> tensor<?x8xf32, #encoding> {
  %c16 = arith.constant 16 : index
  %0 = flow.dispatch.region -> (tensor<?x8xf32, #encoding>{%c16}) {
    %cast = tensor.cast %src : tensor<16x8xf32> to tensor<?x8xf32>
    %1 = iree_encoding.set_encoding %cast : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
    flow.return %1 : tensor<?x8xf32, #encoding>
  }
  util.return %0 : tensor<?x8xf32, #encoding>
}
// CHECK-LABEL: @no_propagation_inside_dispatch(
// CHECK:         %[[CAST:.+]] = tensor.cast %{{.+}} : tensor<16x8xf32> to tensor<?x8xf32>
// CHECK-NEXT:    iree_encoding.set_encoding %[[CAST]] : tensor<?x8xf32>

// -----

// unset_encoding sinks below a cast that only makes sizes dynamic; the size
// that was static becomes a constant result dim.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @unset_encoding_below_cast(%src: tensor<16x?xf32, #encoding>, %d1: index) -> tensor<?x?xf32> {
  %0 = iree_encoding.unset_encoding %src : tensor<16x?xf32, #encoding> -> tensor<16x?xf32>{%d1}
  %cast = tensor.cast %0 : tensor<16x?xf32> to tensor<?x?xf32>
  util.return %cast : tensor<?x?xf32>
}
// CHECK-LABEL: @unset_encoding_below_cast(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<16x?xf32, #encoding>, %[[D1:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[C16:.+]] = arith.constant 16 : index
// CHECK-NEXT:    %[[CAST:.+]] = tensor.cast %[[SRC]] : tensor<16x?xf32, #encoding> to tensor<?x?xf32, #encoding>
// CHECK-NEXT:    %[[UNSET:.+]] = iree_encoding.unset_encoding %[[CAST]] : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%[[C16]], %[[D1]]}
// CHECK-NEXT:    util.return %[[UNSET]]

// -----

// A cast asserting a size the encoded tensor does not have statically would
// assert it on the unsliced tensor instead: left alone.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @no_sink_below_cast_to_static(%src: tensor<?x?xf32, #encoding>, %d0: index, %d1: index) -> tensor<4x?xf32> {
  %0 = iree_encoding.unset_encoding %src : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  %cast = tensor.cast %0 : tensor<?x?xf32> to tensor<4x?xf32>
  util.return %cast : tensor<4x?xf32>
}
// CHECK-LABEL: @no_sink_below_cast_to_static(
// CHECK-NEXT:    %[[UNSET:.+]] = iree_encoding.unset_encoding
// CHECK-NEXT:    tensor.cast %[[UNSET]] : tensor<?x?xf32> to tensor<4x?xf32>

// -----

// set_encoding(unset_encoding(x)) with identical static types is x.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @fold_set_of_unset_static(%src: tensor<4x8xf32, #encoding>) -> tensor<4x8xf32, #encoding> {
  %0 = iree_encoding.unset_encoding %src : tensor<4x8xf32, #encoding> -> tensor<4x8xf32>
  %1 = iree_encoding.set_encoding %0 : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
  util.return %1 : tensor<4x8xf32, #encoding>
}
// CHECK-LABEL: @fold_set_of_unset_static(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<4x8xf32, #encoding>
// CHECK-NEXT:    util.return %[[SRC]]

// -----

// Dynamic sizes: folded when the unset_encoding provably keeps the sizes of
// its source (the same SSA values), kept when it may slice or when the
// encodings differ.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#encoding1 = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @fold_set_of_unset_dynamic(%d0: index, %d1: index, %e0: index) -> (tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) {
  %cst = arith.constant 1.0 : f32
  %empty = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding>
  %x = linalg.fill ins(%cst : f32) outs(%empty : tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding>
  %0 = iree_encoding.unset_encoding %x : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
  %1 = iree_encoding.set_encoding %0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  %2 = iree_encoding.unset_encoding %x : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%e0, %d1}
  %3 = iree_encoding.set_encoding %2 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  %4 = iree_encoding.set_encoding %0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
  util.return %1, %3, %4 : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>
}
// CHECK-LABEL: @fold_set_of_unset_dynamic(
// CHECK:         %[[X:.+]] = linalg.fill
// CHECK-NEXT:    %[[U0:.+]] = iree_encoding.unset_encoding %[[X]] : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%{{.+}}, %{{.+}}}
// CHECK-NEXT:    %[[U1:.+]] = iree_encoding.unset_encoding %[[X]]
// CHECK-NEXT:    %[[S1:.+]] = iree_encoding.set_encoding %[[U1]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// CHECK-NEXT:    %[[S2:.+]] = iree_encoding.set_encoding %[[U0]] : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// CHECK-NEXT:    util.return %[[X]], %[[S1]], %[[S2]]

// -----

// Across dispatches: the producer unsets the encoding its consumer sets again
// to the same type with the same sizes; the producer returns the encoded
// tensor and the consumer reads it.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#encoding1 = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
#encoding2 = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.func public @forward_encoded_result_across_dispatches(%a: tensor<?x?xf32, #encoding>, %b: tensor<?x?xf32, #encoding1>, %m: index, %n: index, %k: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{%m, %n}) {
    %cst = arith.constant 0.0 : f32
    %e = tensor.empty(%m, %n) : tensor<?x?xf32, #encoding2>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
    %mm = linalg.matmul ins(%a, %b : tensor<?x?xf32, #encoding>, tensor<?x?xf32, #encoding1>) outs(%f : tensor<?x?xf32, #encoding2>) -> tensor<?x?xf32, #encoding2>
    %u = iree_encoding.unset_encoding %mm encoding_dims{%m, %n, %k} : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%m, %n}
    flow.return %u : tensor<?x?xf32>
  }
  %1 = iree_encoding.set_encoding %0 encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding2>
  %2 = flow.dispatch.region -> (tensor<?x?xf32>{%m, %n}) {
    %e = tensor.empty(%m, %n) : tensor<?x?xf32, #encoding2>
    %g = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<?x?xf32, #encoding2>) outs(%e : tensor<?x?xf32, #encoding2>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32, #encoding2>
    %u = iree_encoding.unset_encoding %g encoding_dims{%m, %n, %k} : tensor<?x?xf32, #encoding2> -> tensor<?x?xf32>{%m, %n}
    flow.return %u : tensor<?x?xf32>
  }
  util.return %2 : tensor<?x?xf32>
}
// CHECK-LABEL: @forward_encoded_result_across_dispatches(
// CHECK:         %[[P:.+]] = flow.dispatch.region -> (tensor<?x?xf32, #encoding2>{%[[M:.+]], %[[N:.+]]}) {
// CHECK:           %[[MM:.+]] = linalg.matmul
// CHECK-NOT:       unset_encoding
// CHECK-NEXT:      flow.return %[[MM]] : tensor<?x?xf32, #encoding2>
// CHECK-NEXT:    }
// CHECK-NOT:     set_encoding
// CHECK-NEXT:    flow.dispatch.region -> (tensor<?x?xf32>{%[[M]], %[[N]]}) {
// CHECK:           linalg.generic {{.+}} ins(%[[P]] : tensor<?x?xf32, #encoding2>)
// CHECK:           iree_encoding.unset_encoding

// -----

// The plain result has another user: the producer returns both tensors.

#map = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map]>
util.func public @forward_encoded_result_keeps_plain_result(%d0: index, %d1: index) -> (tensor<?x?xf32, #encoding>, tensor<?x?xf32>) {
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{%d0, %d1}) {
    %cst = arith.constant 2.0 : f32
    %e = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding>
    %u = iree_encoding.unset_encoding %f : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %d1}
    flow.return %u : tensor<?x?xf32>
  }
  %1 = iree_encoding.set_encoding %0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  util.return %1, %0 : tensor<?x?xf32, #encoding>, tensor<?x?xf32>
}
// CHECK-LABEL: @forward_encoded_result_keeps_plain_result(
// CHECK:         %[[R:.+]]:2 = flow.dispatch.region -> (tensor<?x?xf32>{%[[D0:.+]], %[[D1:.+]]}, tensor<?x?xf32, #encoding>{%[[D0]], %[[D1]]}) {
// CHECK:           %[[F:.+]] = linalg.fill
// CHECK-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[F]]
// CHECK-NEXT:      flow.return %[[U]], %[[F]] : tensor<?x?xf32>, tensor<?x?xf32, #encoding>
// CHECK:         util.return %[[R]]#1, %[[R]]#0

// -----

// The unset_encoding's result sizes are not provably its source's (it may
// drop padding): nothing changes. This is the shape of IREE 3.13's
// elementwise-producer-consumer output dispatch.

#map = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map]>
util.func public @no_forwarding_when_sizes_differ(%d0: index, %d1: index, %e1: index) -> tensor<?x?xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{%d0, %e1}) {
    %cst = arith.constant 2.0 : f32
    %e = tensor.empty(%d0, %d1) : tensor<?x?xf32, #encoding>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x?xf32, #encoding>) -> tensor<?x?xf32, #encoding>
    %u = iree_encoding.unset_encoding %f : tensor<?x?xf32, #encoding> -> tensor<?x?xf32>{%d0, %e1}
    flow.return %u : tensor<?x?xf32>
  }
  %1 = iree_encoding.set_encoding %0 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  util.return %1 : tensor<?x?xf32, #encoding>
}
// CHECK-LABEL: @no_forwarding_when_sizes_differ(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%{{.+}}, %{{.+}}})
// CHECK:           iree_encoding.unset_encoding
// CHECK:         iree_encoding.set_encoding %[[R]]

// -----

// A cast between two dispatches: set_encoding bubbles above it, then meets
// the producer's unset_encoding; the producer returns the encoded tensor, cast.

#map = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map, #map]>
util.func public @cast_between_dispatches() -> tensor<?x8xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<4x8xf32>) {
    %cst = arith.constant 2.0 : f32
    %e = tensor.empty() : tensor<4x8xf32, #encoding>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32, #encoding>) -> tensor<4x8xf32, #encoding>
    %u = iree_encoding.unset_encoding %f : tensor<4x8xf32, #encoding> -> tensor<4x8xf32>
    flow.return %u : tensor<4x8xf32>
  }
  %cast = tensor.cast %0 : tensor<4x8xf32> to tensor<?x8xf32>
  %1 = iree_encoding.set_encoding %cast : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
  util.return %1 : tensor<?x8xf32, #encoding>
}
// CHECK-LABEL: @cast_between_dispatches(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32, #encoding>) {
// CHECK:           %[[F:.+]] = linalg.fill
// CHECK-NEXT:      flow.return %[[F]] : tensor<4x8xf32, #encoding>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[CAST:.+]] = tensor.cast %[[R]] : tensor<4x8xf32, #encoding> to tensor<?x8xf32, #encoding>
// CHECK-NEXT:    util.return %[[CAST]]

// -----

// A matmul_k set_encoding moves above a collapse_shape that leaves its K dim
// whole: the source is encoded with K renamed through the reassociation (K is
// dim 1 of the 6x32 result, i.e. dim 2 of the 2x3x32 source), and the collapse
// now goes from one encoded type to the other.

#k1 = #iree_encoding.matmul_k<k_dims = [1]>
util.func public @matmul_k_above_collapse(%src: tensor<2x3x32xf32>) -> tensor<6x32xf32, #k1> {
  %c = tensor.collapse_shape %src [[0, 1], [2]] : tensor<2x3x32xf32> into tensor<6x32xf32>
  %0 = iree_encoding.set_encoding %c : tensor<6x32xf32> -> tensor<6x32xf32, #k1>
  util.return %0 : tensor<6x32xf32, #k1>
}
// CHECK-DAG:   #[[$K1:.+]] = #iree_encoding.matmul_k<k_dims = [1]>
// CHECK-DAG:   #[[$K2:.+]] = #iree_encoding.matmul_k<k_dims = [2]>
// CHECK-LABEL: @matmul_k_above_collapse(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<2x3x32xf32>
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[SRC]] : tensor<2x3x32xf32> -> tensor<2x3x32xf32, #[[$K2]]>
// CHECK-NEXT:    %[[C:.+]] = tensor.collapse_shape %[[SET]] {{\[}}[0, 1], [2]] : tensor<2x3x32xf32, #[[$K2]]> into tensor<6x32xf32, #[[$K1]]>
// CHECK-NEXT:    util.return %[[C]]

// -----

// Two collapses: the set_encoding passes the outer one, which keeps K (dim 0)
// whole, and stops below the inner one, which builds K out of two source dims.

#k0 = #iree_encoding.matmul_k<k_dims = [0]>
util.func public @matmul_k_stops_at_collapsed_k(%src: tensor<2x3x5x7xf32>) -> tensor<6x35xf32, #k0> {
  %a = tensor.collapse_shape %src [[0, 1], [2], [3]] : tensor<2x3x5x7xf32> into tensor<6x5x7xf32>
  %b = tensor.collapse_shape %a [[0], [1, 2]] : tensor<6x5x7xf32> into tensor<6x35xf32>
  %0 = iree_encoding.set_encoding %b : tensor<6x35xf32> -> tensor<6x35xf32, #k0>
  util.return %0 : tensor<6x35xf32, #k0>
}
// CHECK-LABEL: @matmul_k_stops_at_collapsed_k(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<2x3x5x7xf32>
// CHECK-NEXT:    %[[A:.+]] = tensor.collapse_shape %[[SRC]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x5x7xf32> into tensor<6x5x7xf32>
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[A]] : tensor<6x5x7xf32> -> tensor<6x5x7xf32, #encoding>
// CHECK-NEXT:    %[[B:.+]] = tensor.collapse_shape %[[SET]] {{\[}}[0], [1, 2]] : tensor<6x5x7xf32, #encoding> into tensor<6x35xf32, #encoding>
// CHECK-NEXT:    util.return %[[B]]

// -----

// Other encodings do not say which source dims a collapsed dim came from, so
// they stay below a collapse_shape; so does a matmul_k set_encoding inside a
// dispatch.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
#k1 = #iree_encoding.matmul_k<k_dims = [1]>
util.func public @no_swap_with_collapse(%src: tensor<2x3x32xf32>) -> (tensor<6x32xf32, #lhs>, tensor<6x32xf32, #k1>) {
  %c = tensor.collapse_shape %src [[0, 1], [2]] : tensor<2x3x32xf32> into tensor<6x32xf32>
  %0 = iree_encoding.set_encoding %c : tensor<6x32xf32> -> tensor<6x32xf32, #lhs>
  %1 = flow.dispatch.region -> (tensor<6x32xf32, #k1>) {
    %c2 = tensor.collapse_shape %src [[0, 1], [2]] : tensor<2x3x32xf32> into tensor<6x32xf32>
    %2 = iree_encoding.set_encoding %c2 : tensor<6x32xf32> -> tensor<6x32xf32, #k1>
    flow.return %2 : tensor<6x32xf32, #k1>
  }
  util.return %0, %1 : tensor<6x32xf32, #lhs>, tensor<6x32xf32, #k1>
}
// CHECK-LABEL: @no_swap_with_collapse(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<2x3x32xf32>
// CHECK-NEXT:    %[[C:.+]] = tensor.collapse_shape %[[SRC]]
// CHECK-NEXT:    iree_encoding.set_encoding %[[C]] : tensor<6x32xf32> -> tensor<6x32xf32, #encoding{{[0-9]*}}>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NEXT:      %[[C2:.+]] = tensor.collapse_shape %[[SRC]]
// CHECK-NEXT:      iree_encoding.set_encoding %[[C2]] : tensor<6x32xf32> -> tensor<6x32xf32, #encoding{{[0-9]*}}>

// -----

// The encoding dims are computed after the cast: they are rebuilt where the cast
// is, a `tensor.dim` of the cast as one of its source, which folds to the static
// extent, and the arithmetic on it cloned (its constant moved to the right).

#encoding = #iree_encoding.layout<[#iree_encoding.testing<layouts = []>]>
util.func public @rematerialized_encoding_dims(%src: tensor<1024x?xf16>, %multiplier: index) -> tensor<?x512xf16, #encoding> {
  %cast = tensor.cast %src : tensor<1024x?xf16> to tensor<?x512xf16>
  %c0 = arith.constant 0 : index
  %dim = tensor.dim %cast, %c0 : tensor<?x512xf16>
  %product = arith.muli %dim, %multiplier : index
  %c512 = arith.constant 512 : index
  %0 = iree_encoding.set_encoding %cast encoding_dims{%product, %c512} : tensor<?x512xf16> -> tensor<?x512xf16, #encoding>
  util.return %0 : tensor<?x512xf16, #encoding>
}
// CHECK-LABEL: @rematerialized_encoding_dims(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]: tensor<1024x?xf16>, %[[MULT:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[C1024:.+]] = arith.constant 1024 : index
// CHECK-NEXT:    %[[PRODUCT:.+]] = arith.muli %[[MULT]], %[[C1024]] : index
// CHECK-NEXT:    %[[C512:.+]] = arith.constant 512 : index
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[SRC]] encoding_dims{%[[PRODUCT]], %[[C512]]} : tensor<1024x?xf16> -> tensor<1024x?xf16, #{{.+}}>
// CHECK-NEXT:    %[[CAST:.+]] = tensor.cast %[[SET]]
// CHECK-NEXT:    util.return %[[CAST]]

// -----

// A dim that cannot be rebuilt before the cast (an op with effects) keeps the
// set_encoding where it is.

#encoding = #iree_encoding.layout<[#iree_encoding.testing<layouts = []>]>
util.func public @dims_not_rematerializable(%src: tensor<1024x?xf16>, %buffer: memref<index>) -> tensor<?x512xf16, #encoding> {
  %cast = tensor.cast %src : tensor<1024x?xf16> to tensor<?x512xf16>
  %m = memref.load %buffer[] : memref<index>
  %c512 = arith.constant 512 : index
  %0 = iree_encoding.set_encoding %cast encoding_dims{%m, %c512} : tensor<?x512xf16> -> tensor<?x512xf16, #encoding>
  util.return %0 : tensor<?x512xf16, #encoding>
}
// CHECK-LABEL: @dims_not_rematerializable(
// CHECK:         %[[CAST:.+]] = tensor.cast
// CHECK:         memref.load
// CHECK:         iree_encoding.set_encoding %[[CAST]]
