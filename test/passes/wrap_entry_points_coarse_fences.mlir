// RUN: mini-iree-opt %s --pass-pipeline='builtin.module(iree-abi-wrap-entry-points{invocation-model=coarse-fences})' --split-input-file | filecheck %s

// IREE's coarse-fences model: exports take a wait and a signal fence; imports
// wait on the first, the tensor results pass a barrier that signals the second.

util.func public @asyncEntry(%arg0: tensor<?xf32>, %s: i32) -> (tensor<?xf32>, i32) {
  util.return %arg0, %s : tensor<?xf32>, i32
}

// CHECK-LABEL: util.func public @asyncEntry(
//  CHECK-SAME:   %[[A:.+]]: !hal.buffer_view, %[[S:.+]]: i32, %[[WAIT:.+]]: !hal.fence, %[[SIGNAL:.+]]: !hal.fence) -> (!hal.buffer_view, i32)
//  CHECK-SAME:   iree.reflection = {iree.abi.declaration = "async func @asyncEntry(%input0: tensor<?xf32>, %input1: i32) -> (%output0: tensor<?xf32>, %output1: i32)", iree.abi.model = "coarse-fences"}
//  CHECK-NEXT:   %[[D:.+]] = hal.buffer_view.dim<%[[A]] : !hal.buffer_view>[0] : index
//  CHECK-NEXT:   %[[T:.+]] = hal.tensor.import wait(%[[WAIT]]) => %[[A]] "input0" : !hal.buffer_view -> tensor<?xf32>{%[[D]]}
//  CHECK-NEXT:   %[[R:.+]]:2 = util.call @_asyncEntry(%[[T]], %[[S]])
//  CHECK-NEXT:   %[[READY:.+]] = hal.tensor.barrier join(%[[R]]#0 : tensor<?xf32>) => %[[SIGNAL]] : !hal.fence
//  CHECK-NEXT:   %[[C0:.+]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[RD:.+]] = tensor.dim %[[READY]], %[[C0]] : tensor<?xf32>
//  CHECK-NEXT:   %[[V:.+]] = hal.tensor.export %[[READY]] "output0" : tensor<?xf32>{%[[RD]]} -> !hal.buffer_view
//  CHECK-NEXT:   util.return %[[V]], %[[R]]#1 : !hal.buffer_view, i32

// -----

// With no tensor result, the signal fence is signalled right after the call.

util.func public @bareFunc() {
  util.return
}

// CHECK-LABEL: util.func public @bareFunc(
//  CHECK-SAME:   %[[WAIT:.+]]: !hal.fence, %[[SIGNAL:.+]]: !hal.fence)
//  CHECK-NEXT:   util.call @_bareFunc() : () -> ()
//  CHECK-NEXT:   hal.fence.signal<%[[SIGNAL]] : !hal.fence>
//  CHECK-NEXT:   util.return

// -----

// An import takes the fences too: its wrapper makes a wait fence its tensor
// arguments signal, and waits on the host for an import with side effects.

util.func private @import(tensor<?xf32>) -> i32
util.func private @user(%arg0: tensor<?xf32>) -> i32 {
  %0 = util.call @import(%arg0) : (tensor<?xf32>) -> i32
  util.return %0 : i32
}

// CHECK-LABEL: util.func private @import(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> i32 attributes {iree.abi.stub}
//       CHECK: util.func private @_import(%[[ARG:.+]]: tensor<?xf32>) -> i32 {
//  CHECK-NEXT:   %[[C0:.+]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[DEVICE:.+]] = hal.devices.get %[[C0]] : !hal.device
//  CHECK-NEXT:   %[[WAIT:.+]] = hal.fence.create device(%[[DEVICE]] : !hal.device) flags("None") : !hal.fence
//  CHECK-NEXT:   %[[READY:.+]] = hal.tensor.barrier join(%[[ARG]] : tensor<?xf32>) => %[[WAIT]] : !hal.fence
//  CHECK-NEXT:   %[[SIGNAL:.+]] = hal.fence.create device(%[[DEVICE]] : !hal.device) flags("None") : !hal.fence
//  CHECK-NEXT:   %[[C0_1:.+]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[DIM:.+]] = tensor.dim %[[READY]], %[[C0_1]] : tensor<?xf32>
//  CHECK-NEXT:   %[[VIEW:.+]] = hal.tensor.export %[[READY]] : tensor<?xf32>{%[[DIM]]} -> !hal.buffer_view
//  CHECK-NEXT:   %[[R:.+]] = util.call @import(%[[VIEW]], %[[WAIT]], %[[SIGNAL]]) : (!hal.buffer_view, !hal.fence, !hal.fence) -> i32
//  CHECK-NEXT:   %[[TIMEOUT:.+]] = arith.constant -1 : i32
//  CHECK-NEXT:   hal.fence.await until([%[[SIGNAL]]]) timeout_millis(%[[TIMEOUT]]) flags("None") : i32
//  CHECK-NEXT:   util.return %[[R]] : i32
//       CHECK: util.func private @user
//  CHECK-NEXT:   util.call @_import(%arg0)

// -----

// Without tensors or side effects, no fence is needed: both are util.null.

util.func private @importI32(i32) -> i32 attributes {nosideeffects}

// CHECK-LABEL: util.func private @_importI32(%[[ARG:.+]]: i32) -> i32 {
//       CHECK:   %[[WAIT:.+]] = util.null : !hal.fence
//  CHECK-NEXT:   %[[SIGNAL:.+]] = util.null : !hal.fence
//  CHECK-NEXT:   %[[R:.+]] = util.call @importI32(%[[ARG]], %[[WAIT]], %[[SIGNAL]]) : (i32, !hal.fence, !hal.fence) -> i32
//  CHECK-NEXT:   util.return %[[R]] : i32
