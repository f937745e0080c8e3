// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p canonicalize --split-input-file --verify-each-with-interpreter 2>&1 >/dev/null | filecheck %s --check-prefix=KEPT

// IREE's TensorTieShapeOp::fold: a tie of a static tensor is the tensor.
util.func public @static_tie(%t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.tensor.tie_shape %t : tensor<4xf32>
  util.return %0 : tensor<4xf32>
}
// CHECK-LABEL: util.func public @static_tie(
// CHECK-SAME:    %[[T:[a-zA-Z0-9]+]]: tensor<4xf32>
// CHECK-NEXT:    util.return %[[T]] : tensor<4xf32>
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

// ReplaceOpIfTensorOperandZeroElements: a tensor with a static size of zero holds nothing,
// so the tie is an empty tensor of the same sizes.
util.func public @empty_tie(%t: tensor<0x?xf32>, %n: index) -> tensor<0x?xf32> {
  %0 = flow.tensor.tie_shape %t : tensor<0x?xf32>{%n}
  util.return %0 : tensor<0x?xf32>
}
// CHECK-LABEL: util.func public @empty_tie(
// CHECK-SAME:    %{{[a-zA-Z0-9]+}}: tensor<0x?xf32>, %[[N:[a-zA-Z0-9]+]]: index
// CHECK-NEXT:    %[[E:.+]] = flow.tensor.empty : tensor<0x?xf32>{%[[N]]}
// CHECK-NEXT:    util.return %[[E]] : tensor<0x?xf32>
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

// A dynamic tie stays: it is the witness of the sizes.
util.func public @dynamic_tie(%t: tensor<?xf32>, %n: index) -> tensor<?xf32> {
  %0 = flow.tensor.tie_shape %t : tensor<?xf32>{%n}
  util.return %0 : tensor<?xf32>
}
// CHECK-LABEL: util.func public @dynamic_tie(
// CHECK-NEXT:    %[[TIE:.+]] = flow.tensor.tie_shape
// CHECK-NEXT:    util.return %[[TIE]]
// KEPT: pass 'canonicalize' kept the results of 1 function
