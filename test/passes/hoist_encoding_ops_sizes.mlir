// RUN: mini-iree-opt %s --iree-era=3.13 -p iree-dispatch-creation-hoist-encoding-ops --split-input-file | filecheck %s

// The sizes of the encoding ops the propagation creates, as IREE 3.13 builds
// them: an unset_encoding sunk below an elementwise op is sized from the
// operand that carries each loop of its result, and a set_encoding bubbled
// above a producer rebuilds its encoding_dims before that producer.

#lhs_map = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs_map = affine_map<(d0, d1, d2) -> (d1, d2)>
#out_map = affine_map<(d0, d1, d2) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#acc = #iree_encoding.encoding<operand_index = 2 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#lhs_map, #rhs_map, #out_map]>
util.func public @sunk_unset_sized_by_transposed_operand(%t: tensor<?x?xf32, #acc>, %rows: index, %cols: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch.region -> (tensor<?x?xf32>{%cols, %rows}) {
    %u = iree_encoding.unset_encoding %t : tensor<?x?xf32, #acc> -> tensor<?x?xf32>{%rows, %cols}
    %e = tensor.empty(%cols, %rows) : tensor<?x?xf32>
    %g = linalg.generic {indexing_maps = [#swap, #id], iterator_types = ["parallel", "parallel"]} ins(%u : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<?x?xf32>
    flow.return %g : tensor<?x?xf32>
  }
  util.return %0 : tensor<?x?xf32>
}
// Result dim 0 is loop d0, which %t carries as its dim 1; result dim 1 is
// loop d1, %t's dim 0.
// CHECK-LABEL: @sunk_unset_sized_by_transposed_operand(
// CHECK-SAME:    %[[T:[a-zA-Z0-9]+]]: tensor<?x?xf32, #{{.+}}>
// CHECK:         flow.dispatch.region
// CHECK:           %[[G:.+]] = linalg.generic {{.+}} ins(%[[T]] :
// CHECK:           } -> tensor<?x?xf32, #{{.+}}>
// CHECK-NEXT:      %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:      %[[D1:.+]] = tensor.dim %[[T]], %[[C1]]
// CHECK-NEXT:      %[[C0:.+]] = arith.constant 0 : index
// CHECK-NEXT:      %[[D0:.+]] = tensor.dim %[[T]], %[[C0]]
// CHECK-NEXT:      %[[U:.+]] = iree_encoding.unset_encoding %[[G]] : {{.+}} -> tensor<?x?xf32>{%[[D1]], %[[D0]]}
// CHECK-NEXT:      flow.return %[[U]]

// -----

#lhs_map = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs_map = affine_map<(d0, d1, d2) -> (d1, d2)>
#out_map = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#rhs = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#lhs_map, #rhs_map, #out_map], iteration_sizes = [2, ?, ?]>
util.func public @bubbled_set_keeps_static_sizes(%w: tensor<6x4xi8>) -> tensor<6x4xf32, #rhs> {
  %0 = flow.dispatch.region -> (tensor<6x4xf32, #rhs>) {
    %e = tensor.empty() : tensor<6x4xf32>
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<6x4xi8>) outs(%e : tensor<6x4xf32>) {
    ^bb0(%in: i8, %out: f32):
      %f = arith.sitofp %in : i8 to f32
      linalg.yield %f : f32
    } -> tensor<6x4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = tensor.dim %x, %c0 : tensor<6x4xf32>
    %k = tensor.dim %x, %c1 : tensor<6x4xf32>
    %s = iree_encoding.set_encoding %x encoding_dims{%n, %k} : tensor<6x4xf32> -> tensor<6x4xf32, #rhs>
    flow.return %s : tensor<6x4xf32, #rhs>
  }
  util.return %0 : tensor<6x4xf32, #rhs>
}
// The sizes read off the extension's static result fold to constants, so the
// extension has one use and the set_encoding moves onto its input, then out.
// CHECK-LABEL: @bubbled_set_keeps_static_sizes(
// CHECK-SAME:    %[[W:[a-zA-Z0-9]+]]: tensor<6x4xi8>
// CHECK-DAG:     %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[S:.+]] = iree_encoding.set_encoding %[[W]] encoding_dims{%[[C6]], %[[C4]]} : tensor<6x4xi8> -> tensor<6x4xi8, #{{.+}}>
// CHECK-NEXT:    flow.dispatch.region
// CHECK-NOT:       arith.constant
// CHECK:           linalg.generic {{.+}} ins(%[[S]] :
// CHECK-NOT:       iree_encoding.set_encoding
// CHECK:           flow.return

// -----

#lhs_map = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs_map = affine_map<(d0, d1, d2) -> (d1, d2)>
#out_map = affine_map<(d0, d1, d2) -> (d0, d1)>
#lhs = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], user_indexing_maps = [#lhs_map, #rhs_map, #out_map], iteration_sizes = [?, 8, ?]>
util.func public @hoisted_sizes_constants_first(%a: tensor<?x?xf32>) -> tensor<?x?xf32, #lhs> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %k = tensor.dim %a, %c1 : tensor<?x?xf32>
  %0 = flow.dispatch.region -> (tensor<?x?xf32, #lhs>{%m, %k}) {
    %i0 = arith.constant 0 : index
    %d0 = tensor.dim %a, %i0 : tensor<?x?xf32>
    %i1 = arith.constant 1 : index
    %d1 = tensor.dim %a, %i1 : tensor<?x?xf32>
    %s = iree_encoding.set_encoding %a encoding_dims{%d0, %d1} : tensor<?x?xf32> -> tensor<?x?xf32, #lhs>
    flow.return %s : tensor<?x?xf32, #lhs>
  }
  util.return %0 : tensor<?x?xf32, #lhs>
}
// The chain is gathered breadth-first from the set_encoding and moved out in
// reverse: the constants of the second size, then the first, then the dims.
// CHECK-LABEL: @hoisted_sizes_constants_first(
// CHECK-SAME:    %[[A:[a-zA-Z0-9]+]]: tensor<?x?xf32>
// CHECK:         tensor.dim %[[A]]
// CHECK-NEXT:    tensor.dim %[[A]]
// CHECK-NEXT:    %[[I1:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[I0:.+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D1:.+]] = tensor.dim %[[A]], %[[I1]]
// CHECK-NEXT:    %[[D0:.+]] = tensor.dim %[[A]], %[[I0]]
// CHECK-NEXT:    iree_encoding.set_encoding %[[A]] encoding_dims{%[[D0]], %[[D1]]}
// CHECK-NEXT:    flow.dispatch.region
