// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-pipeline{data-tiling}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p iree-dispatch-creation-pipeline --split-input-file | filecheck %s --check-prefix=NOTILE

// The K loops of a contraction are collapsed into one before set-encoding,
// which then tiles it as a plain matmul; the dispatch becomes a
// flow.dispatch.workgroups reading and writing encoded tensors, and the
// collapses of its operands flow.tensor.reshape ops on the host.

util.func public @two_k_loops(%a: tensor<8x4x2xf32>, %b: tensor<4x2x16xf32>, %c: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%a, %b : tensor<8x4x2xf32>, tensor<4x2x16xf32>) outs(%c : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  util.return %0 : tensor<8x16xf32>
}

// CHECK-DAG:   #[[LHS:.+]] = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]
// CHECK-DAG:   #[[RHS:.+]] = #iree_encoding.encoding<operand_index = 1 : index, op_type = matmul, element_types = [f32, f32, f32]
// CHECK-LABEL: util.func public @two_k_loops(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<8x4x2xf32>, %[[B:[^:]+]]: tensor<4x2x16xf32>, %[[C:[^:]+]]: tensor<8x16xf32>)
// CHECK:         %[[CA:.+]] = flow.tensor.reshape %[[A]] : tensor<8x4x2xf32> -> tensor<8x8xf32>
// CHECK:         %[[CB:.+]] = flow.tensor.reshape %[[B]] : tensor<4x2x16xf32> -> tensor<8x16xf32>
// CHECK:         flow.tensor.encode %[[CA]] : tensor<8x8xf32> -> tensor<8x8xf32, #[[LHS]]>
// CHECK:         flow.tensor.encode %[[CB]] : tensor<8x16xf32> -> tensor<8x16xf32, #[[RHS]]>
// CHECK:         flow.dispatch.workgroups
// CHECK:           linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME:        ins(%{{.+}}, %{{.+}} : tensor<8x8xf32, #[[LHS]]>, tensor<8x16xf32, #[[RHS]]>)
// CHECK:           iree_encoding.unset_encoding

// NOTILE-LABEL: util.func public @two_k_loops(
// NOTILE-NOT:     iree_encoding
// NOTILE:         flow.dispatch.workgroups
// NOTILE:           linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]

// -----

// A constant weight: its set_encoding is hoisted into an initializer of a global.

util.func public @constant_weight(%a: tensor<6x5xf32>) -> tensor<6x7xf32> {
  %w = arith.constant dense<2.000000e+00> : tensor<5x7xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<6x7xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  %0 = linalg.matmul ins(%a, %w : tensor<6x5xf32>, tensor<5x7xf32>) outs(%f : tensor<6x7xf32>) -> tensor<6x7xf32>
  util.return %0 : tensor<6x7xf32>
}

// CHECK:       util.global private @[[GLOBAL:.+]] : tensor<5x7xf32, #[[ENC:.+]]>
// CHECK:       util.initializer {
// CHECK-NEXT:    %[[W:.+]] = arith.constant dense<2.000000e+00> : tensor<5x7xf32>
// CHECK-NEXT:    %[[ENCODED:.+]] = flow.tensor.encode %[[W]] : tensor<5x7xf32> -> tensor<5x7xf32, #[[ENC]]>
// CHECK-NEXT:    util.global.store %[[ENCODED]], @[[GLOBAL]]
// CHECK-LABEL: util.func public @constant_weight(
// CHECK:         util.global.load immutable @[[GLOBAL]]
// CHECK:         flow.dispatch.workgroups
// CHECK:           linalg.matmul

// NOTILE-LABEL: util.func public @constant_weight(
// NOTILE-NOT:     util.global
// NOTILE:         flow.dispatch.workgroups
