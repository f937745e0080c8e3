// RUN: mini-iree-opt %s -p iree-dispatch-creation-materialize-default-workgroup-count-region --split-input-file | filecheck %s

// A dispatch without a count region: its index operands become the workload,
// read in the body through their ordinals, and the count region is the default one.

util.func public @default_count(%src: tensor<?x4xf32>, %d0: index) -> tensor<?x4xf32> {
  %0 = flow.dispatch.workgroups(%src, %d0) : (tensor<?x4xf32>{%d0}, index) -> tensor<?x4xf32>{%d0} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %n: index,
       %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%n, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%n} -> tensor<?x4xf32>
    %e = tensor.empty(%n) : tensor<?x4xf32>
    %r = linalg.add ins(%t, %t : tensor<?x4xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
    iree_tensor_ext.dispatch.tensor.store %r, %out, offsets = [0, 0], sizes = [%n, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%n}
    flow.return
  }
  util.return %0 : tensor<?x4xf32>
}
// CHECK-LABEL: util.func public @default_count(
// CHECK-SAME:    %[[SRC:[a-zA-Z0-9_]+]]: tensor<?x4xf32>, %[[D0:[a-zA-Z0-9_]+]]: index
// CHECK:         flow.dispatch.workgroups[%[[D0]]](%[[SRC]], %[[D0]]) : (tensor<?x4xf32>{%[[D0]]}, index) -> tensor<?x4xf32>{%[[D0]]} =
// CHECK-NEXT:      (%[[IN:[a-zA-Z0-9_]+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %[[N:[a-zA-Z0-9_]+]]: index, %[[OUT:[a-zA-Z0-9_]+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
// CHECK-NEXT:      %[[W0:.+]] = iree_tensor_ext.dispatch.workload.ordinal %[[N]], 0 : index
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [0, 0], sizes = [%[[W0]], 4]
// CHECK-NEXT:      tensor.empty(%[[W0]])
// CHECK:         } count(%[[C0:[a-zA-Z0-9_]+]]: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[C0]])
// CHECK-NEXT:      flow.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }

// -----

// A count region of its own is kept, and the body is not touched.

util.func public @existing_count(%d0: index, %d1: index) -> tensor<?x?xf32> {
  %0 = flow.dispatch.workgroups[%d0, %d1](%d0, %d1) : (index, index) -> tensor<?x?xf32>{%d0, %d1} =
      (%a: index, %b: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>) {
    %e = tensor.empty(%a, %b) : tensor<?x?xf32>
    iree_tensor_ext.dispatch.tensor.store %e, %out, offsets = [0, 0], sizes = [%a, %b], strides = [1, 1] : tensor<?x?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x?xf32>>{%a, %b}
    flow.return
  } count(%w0: index, %w1: index) -> (index, index, index) {
    %c1 = arith.constant 1 : index
    %m = arith.muli %w0, %w1 : index
    flow.return %m, %c1, %c1 : index, index, index
  }
  util.return %0 : tensor<?x?xf32>
}
// CHECK-LABEL: util.func public @existing_count(
// CHECK-NOT:     iree_tensor_ext.dispatch.workload.ordinal
// CHECK:         } count(%[[W0:[a-zA-Z0-9_]+]]: index, %[[W1:[a-zA-Z0-9_]+]]: index) -> (index, index, index) {
// CHECK-NEXT:      %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:      %[[M:.+]] = arith.muli %[[W0]], %[[W1]] : index
// CHECK-NEXT:      flow.return %[[M]], %[[C1]], %[[C1]] : index, index, index

// -----

// No index operand: an empty workload, a count region without arguments.

util.func public @no_workload(%src: tensor<4xf32>) -> tensor<4xf32> {
  %0 = flow.dispatch.workgroups(%src) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
    iree_tensor_ext.dispatch.tensor.store %t, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
    flow.return
  }
  util.return %0 : tensor<4xf32>
}
// CHECK-LABEL: util.func public @no_workload(
// CHECK:         flow.dispatch.workgroups(%{{.+}}) : (tensor<4xf32>) -> tensor<4xf32> =
// CHECK-NOT:     workload.ordinal
// CHECK:         } count() -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
