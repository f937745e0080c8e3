// RUN: mini-iree-opt %s -p iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-fuse-encoding-ops-into-dispatch-regions-pass{enable-aggressive-fusion=true}' --split-input-file | filecheck %s --check-prefix=AGGR

// The set_encoding moves into the elementwise producer, which returns the
// encoded tensor. The encoding dim computed after the region moves above it.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2], iteration_sizes = [?, ?, ?]>
util.func public @fuse_into_elementwise_producer(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %m: index, %k: index) -> tensor<?x?xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{%m, %k}) {
    %e = tensor.empty(%m, %k) : tensor<?x?xf32>
    %g = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %in : f32
      linalg.yield %s : f32
    } -> tensor<?x?xf32>
    flow.return %g : tensor<?x?xf32>
  }
  %c1 = arith.constant 1 : index
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %1 = iree_encoding.set_encoding %0 encoding_dims{%m, %n, %k} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  util.return %1 : tensor<?x?xf32, #encoding>
}
// CHECK-LABEL: @fuse_into_elementwise_producer(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<?x?xf32>, %[[B:[a-zA-Z0-9]+]]: tensor<?x?xf32>, %[[M:[a-zA-Z0-9]+]]: index, %[[K:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[N:.+]] = tensor.dim %[[B]], %[[C1]]
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32, #encoding>{%[[M]], %[[K]]}) {
// CHECK:           %[[G:.+]] = linalg.generic
// CHECK:           %[[SET:.+]] = iree_encoding.set_encoding %[[G]] encoding_dims{%[[M]], %[[N]], %[[K]]} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
// CHECK-NEXT:      flow.return %[[SET]] : tensor<?x?xf32, #encoding>
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// Through a collapse_shape: the new result's size is the product of the
// collapsed sizes, computed before the region.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @fuse_through_collapse_shape(%d: index) -> tensor<?x8xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<?x4x8xf32>{%d}) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty(%d) : tensor<?x4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x4x8xf32>) -> tensor<?x4x8xf32>
    flow.return %f : tensor<?x4x8xf32>
  }
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<?x4x8xf32> into tensor<?x8xf32>
  %2 = iree_encoding.set_encoding %1 : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
  util.return %2 : tensor<?x8xf32, #encoding>
}
// CHECK-LABEL: @fuse_through_collapse_shape(
// CHECK-SAME:    %[[D:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[C4:.+]] = arith.constant 4 : index
// CHECK-NEXT:    %[[SIZE:.+]] = arith.muli %[[D]], %[[C4]] : index
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x8xf32, #encoding>{%[[SIZE]]}) {
// CHECK:           %[[F:.+]] = linalg.fill
// CHECK-NEXT:      %[[C:.+]] = tensor.collapse_shape %[[F]] {{\[}}[0, 1], [2]]
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[C]]
// CHECK-NEXT:      flow.return %[[SET]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// Through an expand_shape and an extract_slice: their sizes give the result's.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @fuse_through_expand_shape_and_slice(%d: index, %n: index, %s: index) -> tensor<?x?xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<?xf32>{%d}) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty(%d) : tensor<?xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    flow.return %f : tensor<?xf32>
  }
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [%n, 8] : tensor<?xf32> into tensor<?x8xf32>
  %2 = tensor.extract_slice %1[0, 0] [%s, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  %3 = tensor.cast %2 : tensor<?x4xf32> to tensor<?x?xf32>
  %4 = iree_encoding.set_encoding %3 : tensor<?x?xf32> -> tensor<?x?xf32, #encoding>
  %5 = tensor.extract_slice %1[0, 0] [%s, 8] [1, 1] : tensor<?x8xf32> to tensor<?x8xf32>
  util.return %4 : tensor<?x?xf32, #encoding>
}
// A tensor.cast is not part of a fusable chain (propagate-encodings moves it
// out of the way first); the expand_shape has two users: nothing moves.
// CHECK-LABEL: @fuse_through_expand_shape_and_slice(
// CHECK:         flow.dispatch.region -> (tensor<?xf32>{%{{.+}}})
// CHECK:         tensor.expand_shape
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32>

// -----

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @fuse_through_expand_shape_then_slice(%d: index, %n: index, %s: index) -> tensor<?x4xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<?xf32>{%d}) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty(%d) : tensor<?xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    flow.return %f : tensor<?xf32>
  }
  %1 = tensor.expand_shape %0 [[0, 1]] output_shape [%n, 8] : tensor<?xf32> into tensor<?x8xf32>
  %2 = tensor.extract_slice %1[0, 0] [%s, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  %3 = iree_encoding.set_encoding %2 : tensor<?x4xf32> -> tensor<?x4xf32, #encoding>
  util.return %3 : tensor<?x4xf32, #encoding>
}
// CHECK-LABEL: @fuse_through_expand_shape_then_slice(
// CHECK-SAME:    %[[D:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index, %[[S:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x4xf32, #encoding>{%[[S]]}) {
// CHECK:           %[[F:.+]] = linalg.fill
// CHECK-NEXT:      %[[E:.+]] = tensor.expand_shape %[[F]] {{\[}}[0, 1]] output_shape [%[[N]], 8]
// CHECK-NEXT:      %[[X:.+]] = tensor.extract_slice %[[E]][0, 0] [%[[S]], 4] [1, 1]
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[X]]
// CHECK-NEXT:      flow.return %[[SET]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// The producer result has another user: left alone by default; with
// enable-aggressive-fusion the region returns both tensors.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @multi_use_producer() -> (tensor<4x8xf32, #encoding>, tensor<4x8xf32>) {
  %0 = flow.dispatch.region -> (tensor<4x8xf32>) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    flow.return %f : tensor<4x8xf32>
  }
  %1 = iree_encoding.set_encoding %0 : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
  util.return %1, %0 : tensor<4x8xf32, #encoding>, tensor<4x8xf32>
}
// CHECK-LABEL: @multi_use_producer(
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:         }
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding %[[R]]
// CHECK-NEXT:    util.return %[[SET]], %[[R]]

// AGGR-LABEL: @multi_use_producer(
// AGGR-NEXT:    %[[R:.+]]:2 = flow.dispatch.region -> (tensor<4x8xf32>, tensor<4x8xf32, #encoding>) {
// AGGR:           %[[F:.+]] = linalg.fill
// AGGR-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[F]]
// AGGR-NEXT:      flow.return %[[F]], %[[SET]] : tensor<4x8xf32>, tensor<4x8xf32, #encoding>
// AGGR-NEXT:    }
// AGGR-NEXT:    util.return %[[R]]#1, %[[R]]#0

// -----

// A collapse_shape with two users cannot move, even with aggressive fusion.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @multi_use_chain() -> (tensor<32xf32, #encoding>, tensor<32xf32>) {
  %0 = flow.dispatch.region -> (tensor<4x8xf32>) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    flow.return %f : tensor<4x8xf32>
  }
  %1 = tensor.collapse_shape %0 [[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %2 = iree_encoding.set_encoding %1 : tensor<32xf32> -> tensor<32xf32, #encoding>
  util.return %2, %1 : tensor<32xf32, #encoding>, tensor<32xf32>
}
// CHECK-LABEL: @multi_use_chain(
// CHECK:         flow.dispatch.region -> (tensor<4x8xf32>)
// CHECK:         tensor.collapse_shape
// CHECK-NEXT:    iree_encoding.set_encoding
// AGGR-LABEL:  @multi_use_chain(
// AGGR:          flow.dispatch.region -> (tensor<4x8xf32>)
// AGGR:          tensor.collapse_shape
// AGGR-NEXT:     iree_encoding.set_encoding

// -----

// The producer holds an op codegen cannot write encoded (tensor.insert_slice).

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @no_fusion_with_unsupported_producer(%a: tensor<2x8xf32>) -> tensor<4x8xf32, #encoding> {
  %0 = flow.dispatch.region -> (tensor<4x8xf32>) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %i = tensor.insert_slice %a into %f[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
    flow.return %i : tensor<4x8xf32>
  }
  %1 = iree_encoding.set_encoding %0 : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
  util.return %1 : tensor<4x8xf32, #encoding>
}
// CHECK-LABEL: @no_fusion_with_unsupported_producer(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32>)
// CHECK:         iree_encoding.set_encoding %[[R]]

// -----

// No producing dispatch (a function argument): left alone.

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#encoding = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#map, #map1, #map2]>
util.func public @no_producer_dispatch(%a: tensor<4x8xf32>) -> tensor<4x8xf32, #encoding> {
  %0 = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
  util.return %0 : tensor<4x8xf32, #encoding>
}
// CHECK-LABEL: @no_producer_dispatch(
// CHECK-NEXT:    iree_encoding.set_encoding
// CHECK-NEXT:    util.return


// -----

// A matmul_k encoding only names the reduction dims, which any producer can
// write: it fuses even into a region holding an op that keeps other encodings
// out (the insert_slice of @no_fusion_with_unsupported_producer).

#k = #iree_encoding.matmul_k<k_dims = [1]>
util.func public @matmul_k_fuses_into_any_producer(%a: tensor<2x8xf32>) -> tensor<4x8xf32, #k> {
  %0 = flow.dispatch.region -> (tensor<4x8xf32>) {
    %cst = arith.constant 1.0 : f32
    %e = tensor.empty() : tensor<4x8xf32>
    %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
    %i = tensor.insert_slice %a into %f[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
    flow.return %i : tensor<4x8xf32>
  }
  %1 = iree_encoding.set_encoding %0 : tensor<4x8xf32> -> tensor<4x8xf32, #k>
  util.return %1 : tensor<4x8xf32, #k>
}
// CHECK-LABEL: @matmul_k_fuses_into_any_producer(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32, #encoding>)
// CHECK:           %[[I:.+]] = tensor.insert_slice
// CHECK-NEXT:      %[[SET:.+]] = iree_encoding.set_encoding %[[I]] : tensor<4x8xf32> -> tensor<4x8xf32, #encoding>
// CHECK-NEXT:      flow.return %[[SET]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// Two identical set_encoding ops of one dispatch result are one (IREE CSEs
// them first): the dispatch result then has one user, which fuses.

#encoding = #iree_encoding.testing<>
util.func public @identical_set_encodings_merge(%a: tensor<?x8xf32>, %d: index) -> (tensor<?x8xf32, #encoding>, tensor<?x8xf32, #encoding>) {
  %0 = tensor.empty(%d) : tensor<?x8xf32>
  %1 = flow.dispatch.region -> (tensor<?x8xf32>{%d}) {
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?x8xf32>) outs(%0 : tensor<?x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %s = arith.addf %x, %x : f32
      linalg.yield %s : f32
    } -> tensor<?x8xf32>
    flow.return %2 : tensor<?x8xf32>
  }
  %3 = iree_encoding.set_encoding %1 : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
  %4 = iree_encoding.set_encoding %1 : tensor<?x8xf32> -> tensor<?x8xf32, #encoding>
  util.return %3, %4 : tensor<?x8xf32, #encoding>, tensor<?x8xf32, #encoding>
}

// CHECK-LABEL: util.func public @identical_set_encodings_merge(
// CHECK-SAME:      %{{.+}}: tensor<?x8xf32>, %[[D:.+]]: index)
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<?x8xf32, #encoding>{%[[D]]}) {
// CHECK:           %[[G:.+]] = linalg.generic
// CHECK:           %[[SET:.+]] = iree_encoding.set_encoding %[[G]]
// CHECK-NEXT:      flow.return %[[SET]]
// CHECK-NEXT:    }
// CHECK-NOT:     iree_encoding.set_encoding
// CHECK:         util.return %[[R]], %[[R]]
