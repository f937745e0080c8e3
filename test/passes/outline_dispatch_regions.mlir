// RUN: mini-iree-opt %s -p iree-flow-outline-dispatch-regions --split-input-file | filecheck %s

// One dispatch: its body becomes @<function>_dispatch_0 in an executable placed
// before the function, its count region the export's workgroups region.

util.func public @dynamic(%a: tensor<?x4xf32>, %d: index) -> tensor<?x4xf32> {
  %0 = flow.dispatch.workgroups[%d](%a, %d) : (tensor<?x4xf32>{%d}, index) -> tensor<?x4xf32>{%d} =
      (%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %arg1: index, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
    %1 = iree_tensor_ext.dispatch.workload.ordinal %arg1, 0 : index
    %2 = flow.dispatch.tie_shape %arg0 : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%1}
    %3 = flow.dispatch.tie_shape %arg2 : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%1}
    %4 = iree_tensor_ext.dispatch.tensor.load %2, offsets = [0, 0], sizes = [%1, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%1} -> tensor<?x4xf32>
    iree_tensor_ext.dispatch.tensor.store %4, %3, offsets = [0, 0], sizes = [%1, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%1}
    flow.return
  } count(%arg0: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%arg0)
    flow.return %x, %y, %z : index, index, index
  }
  util.return %0 : tensor<?x4xf32>
}
// CHECK:       flow.executable private @dynamic_dispatch_0 {
// CHECK-NEXT:    flow.executable.export public @dynamic_dispatch_0 workgroups(%[[W:.+]]: index) -> (index, index, index) {
// CHECK-NEXT:      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[W]])
// CHECK-NEXT:      flow.return %x, %y, %z : index, index, index
// CHECK-NEXT:    }
// CHECK-NEXT:    builtin.module {
// CHECK-NEXT:      func.func @dynamic_dispatch_0(%[[IN:.+]]: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %[[D:.+]]: index, %[[OUT:.+]]: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
// CHECK-NEXT:        iree_tensor_ext.dispatch.workload.ordinal %[[D]], 0 : index
// CHECK:             iree_tensor_ext.dispatch.tensor.store
// CHECK-NEXT:        return
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  util.func public @dynamic(%[[A:.+]]: tensor<?x4xf32>, %[[N:.+]]: index)
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch @dynamic_dispatch_0::@dynamic_dispatch_0[%[[N]]](%[[A]], %[[N]]) : (tensor<?x4xf32>{%[[N]]}, index) -> tensor<?x4xf32>{%[[N]]}
// CHECK-NEXT:    util.return %[[R]]

// -----

// Dispatches are numbered per function; those of an initializer are named
// after it. A tied result stays tied.

util.global private @g : tensor<4xf32>
util.initializer {
  %cst = arith.constant dense<1.0> : tensor<4xf32>
  %0 = flow.dispatch.workgroups(%cst) : (tensor<4xf32>) -> %cst =
      (%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<4xf32>>) {
    flow.return
  } count() -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
    flow.return %x, %y, %z : index, index, index
  }
  util.global.store %0, @g : tensor<4xf32>
  util.return
}
util.func public @two(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = flow.dispatch.workgroups(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    flow.return
  }
  %1 = flow.dispatch.workgroups(%0) : (tensor<4xf32>) -> tensor<4xf32> =
      (%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    flow.return
  }
  util.return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
// CHECK:       util.global private @g
// CHECK-NEXT:  flow.executable private @_initializer_0_dispatch_0 {
// CHECK:       util.initializer {
// CHECK:         flow.dispatch @_initializer_0_dispatch_0::@_initializer_0_dispatch_0(%[[CST:.+]]) : (tensor<4xf32>) -> %[[CST]]
// CHECK:       flow.executable private @two_dispatch_0 {
// CHECK:         flow.executable.export public @two_dispatch_0{{$}}
// CHECK:       flow.executable private @two_dispatch_1 {
// CHECK:       util.func public @two(
// CHECK:         %[[D0:.+]] = flow.dispatch @two_dispatch_0::@two_dispatch_0(
// CHECK:         flow.dispatch @two_dispatch_1::@two_dispatch_1(%[[D0]])
