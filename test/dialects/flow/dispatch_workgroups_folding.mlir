// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p canonicalize --split-input-file --verify-each-with-interpreter 2>&1 >/dev/null | filecheck %s --check-prefix=KEPT

// IREE's ClosureOptimizationPattern on flow.dispatch.workgroups (constants not inlined): an
// argument the body never uses goes, an argument given twice is given once.
util.func public @dedupe(%t: tensor<?xf32>, %d: index, %e: index) -> tensor<?xf32> {
  %0 = flow.dispatch.workgroups(%t, %d, %e, %d) : (tensor<?xf32>{%d}, index, index, index) -> tensor<?xf32>{%d} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %a: index, %unused: index, %b: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [%a], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>{%a} -> tensor<?xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %out, offsets = [0], sizes = [%b], strides = [1] : tensor<?xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%b}
    flow.return
  }
  util.return %0 : tensor<?xf32>
}
// CHECK-LABEL: util.func public @dedupe(
// CHECK-SAME:    %[[T:[a-zA-Z0-9]+]]: tensor<?xf32>, %[[D:[a-zA-Z0-9]+]]: index
// CHECK:         flow.dispatch.workgroups(%[[T]], %[[D]]) : (tensor<?xf32>{%[[D]]}, index) -> tensor<?xf32>{%[[D]]} =
// CHECK-NEXT:      (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %[[A:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
// CHECK-NEXT:      %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]], offsets = [0], sizes = [%[[A]]]
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[L]], %[[OUT]], offsets = [0], sizes = [%[[A]]]
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

// A result nobody uses and the body does not read goes, with the stores into it; so does
// the tensor argument (and its size) the body never reads.
util.func public @unused_result(%t: tensor<4xf32>, %u: tensor<?xf32>, %n: index) -> tensor<4xf32> {
  %0:2 = flow.dispatch.workgroups(%t, %u, %n) : (tensor<4xf32>, tensor<?xf32>{%n}, index) -> (tensor<4xf32>, tensor<4xf32>) =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %v: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?xf32>>, %m: index, %o1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>, %o2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %o1, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
    iree_tensor_ext.dispatch.tensor.store %l, %o2, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
    flow.return
  }
  util.return %0#0 : tensor<4xf32>
}
// CHECK-LABEL: util.func public @unused_result(
// CHECK-SAME:    %[[T:[a-zA-Z0-9]+]]: tensor<4xf32>
// CHECK:         %[[R:.+]] = flow.dispatch.workgroups(%[[T]]) : (tensor<4xf32>) -> tensor<4xf32> =
// CHECK-NEXT:      (%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %[[O1:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
// CHECK-NEXT:      %[[L:.+]] = iree_tensor_ext.dispatch.tensor.load %[[IN]]
// CHECK-NEXT:      iree_tensor_ext.dispatch.tensor.store %[[L]], %[[O1]]
// CHECK-NEXT:      flow.return
// CHECK:         util.return %[[R]] : tensor<4xf32>
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

// A dispatch is pure, as IREE declares it: one whose results nobody uses goes, a tied one
// whose body reads and writes its operand included.
// nobody uses goes.
util.func public @unused_dispatches(%t: tensor<4xf32>, %s: tensor<4xf32>) {
  %0 = flow.dispatch.workgroups(%t) : (tensor<4xf32>) -> %t =
      (%io: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>) {
    %l = iree_tensor_ext.dispatch.tensor.load %io, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>> -> tensor<4xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %io, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>
    flow.return
  }
  %1 = flow.dispatch.workgroups(%s) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    %l = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
    iree_tensor_ext.dispatch.tensor.store %l, %out, offsets = [0], sizes = [4], strides = [1] : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>
    flow.return
  }
  util.return
}
// CHECK-LABEL: util.func public @unused_dispatches(
// CHECK-NOT:     flow.dispatch.workgroups
// CHECK:         util.return
// KEPT: pass 'canonicalize' kept the results of 1 function
