// RUN: mini-iree-opt %s -p iree-dispatch-creation-convert-tensor-to-flow --split-input-file | filecheck %s

// A collapse of a function argument: the source sizes come from tensor.dim, the
// collapsed size is their product with the static part.

util.func public @collapse(%arg0: tensor<?x4xf32>) -> tensor<?xf32> {
  %0 = tensor.collapse_shape %arg0 [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  util.return %0 : tensor<?xf32>
}
// CHECK-LABEL: @collapse(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9]+]]
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[D0:.+]] = tensor.dim %[[SRC]], %[[C0]]
// CHECK:         %[[C4:.+]] = arith.constant 4 : index
// CHECK:         %[[N:.+]] = arith.muli %[[D0]], %[[C4]] : index
// CHECK:         %[[R:.+]] = flow.tensor.reshape %[[SRC]] : tensor<?x4xf32>{%[[D0]]} -> tensor<?xf32>{%[[N]]}
// CHECK-NEXT:    util.return %[[R]]

// -----

// An expand states its result sizes; an imported tensor states its own.

util.func public @expand(%arg0: !hal.buffer_view, %n: index, %m: index) -> tensor<?x?xf32> {
  %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
  %1 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<?xf32>{%0}
  %2 = tensor.expand_shape %1 [[0, 1]] output_shape [%n, %m] : tensor<?xf32> into tensor<?x?xf32>
  util.return %2 : tensor<?x?xf32>
}
// CHECK-LABEL: @expand(
// CHECK-SAME:    %{{[a-zA-Z0-9]+}}: !hal.buffer_view, %[[N:[a-zA-Z0-9]+]]: index, %[[M:[a-zA-Z0-9]+]]: index
// CHECK:         %[[D:.+]] = hal.buffer_view.dim
// CHECK:         %[[T:.+]] = hal.tensor.import
// CHECK-NEXT:    %[[R:.+]] = flow.tensor.reshape %[[T]] : tensor<?xf32>{%[[D]]} -> tensor<?x?xf32>{%[[N]], %[[M]]}
// CHECK-NEXT:    util.return %[[R]]

// -----

// Static reshapes carry no sizes; two groups collapse independently.

util.func public @static_groups(%arg0: tensor<2x3x4x5xf32>) -> tensor<6x20xf32> {
  %0 = tensor.collapse_shape %arg0 [[0, 1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<6x20xf32>
  util.return %0 : tensor<6x20xf32>
}
// CHECK-LABEL: @static_groups(
// CHECK-NEXT:    %[[R:.+]] = flow.tensor.reshape %{{.+}} : tensor<2x3x4x5xf32> -> tensor<6x20xf32>
// CHECK-NEXT:    util.return %[[R]]

// -----

// Reshapes inside a dispatch region or a dispatch's workgroups body are the dispatch's code.

util.func public @inside_dispatches(%arg0: tensor<2x4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %0 = flow.dispatch.region -> (tensor<8xf32>) {
    %c = tensor.collapse_shape %arg0 [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
    flow.return %c : tensor<8xf32>
  }
  %1 = flow.dispatch.workgroups(%arg0) : (tensor<2x4xf32>) -> tensor<8xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>) {
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [2, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2x4xf32>> -> tensor<2x4xf32>
    %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
    iree_tensor_ext.dispatch.tensor.store %c, %out, offsets = [0], sizes = [8], strides = [1] : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<8xf32>>
    flow.return
  }
  util.return %0, %1 : tensor<8xf32>, tensor<8xf32>
}
// CHECK-LABEL: @inside_dispatches(
// CHECK-NOT:     flow.tensor.reshape
// CHECK:         tensor.collapse_shape
// CHECK:         tensor.collapse_shape
// CHECK-NOT:     flow.tensor.reshape
