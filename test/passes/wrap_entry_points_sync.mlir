// RUN: mini-iree-opt %s --pass-pipeline='builtin.module(iree-abi-wrap-entry-points{invocation-model=sync})' --split-input-file | filecheck %s

// IREE's own form (WrapEntryPoints.cpp): the original becomes the private
// @_name, and a public iree.abi.stub wrapper imports, calls and exports.

util.func public @dynamicEntry(%arg0: tensor<?x8xf32>, %arg1: tensor<?x8xf32> {iree.abi.name = "rhs"}, %arg2: f32) -> (tensor<?x8xf32>, f32) {
  %0 = arith.addf %arg0, %arg1 : tensor<?x8xf32>
  util.return %0, %arg2 : tensor<?x8xf32>, f32
}

// CHECK-LABEL: util.func public @dynamicEntry(
//  CHECK-SAME:   %[[ARG0:.+]]: !hal.buffer_view, %[[ARG1:.+]]: !hal.buffer_view {iree.abi.name = "rhs"}, %[[S:.+]]: f32) -> (!hal.buffer_view, f32)
//  CHECK-SAME:   attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @dynamicEntry(%input0: tensor<?x8xf32>, %rhs: tensor<?x8xf32>, %input2: f32) -> (%output0: tensor<?x8xf32>, %output1: f32)"}} {
//  CHECK-NEXT:   %[[D0:.+]] = hal.buffer_view.dim<%[[ARG0]] : !hal.buffer_view>[0] : index
//  CHECK-NEXT:   %[[T0:.+]] = hal.tensor.import %[[ARG0]] "input0" : !hal.buffer_view -> tensor<?x8xf32>{%[[D0]]}
//  CHECK-NEXT:   %[[D1:.+]] = hal.buffer_view.dim<%[[ARG1]] : !hal.buffer_view>[0] : index
//  CHECK-NEXT:   %[[T1:.+]] = hal.tensor.import %[[ARG1]] "rhs" : !hal.buffer_view -> tensor<?x8xf32>{%[[D1]]}
//  CHECK-NEXT:   %[[RET:.+]]:2 = util.call @_dynamicEntry(%[[T0]], %[[T1]], %[[S]]) : (tensor<?x8xf32>, tensor<?x8xf32>, f32) -> (tensor<?x8xf32>, f32)
//  CHECK-NEXT:   %[[C0:.+]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[DIM:.+]] = tensor.dim %[[RET]]#0, %[[C0]] : tensor<?x8xf32>
//  CHECK-NEXT:   %[[V:.+]] = hal.tensor.export %[[RET]]#0 "output0" : tensor<?x8xf32>{%[[DIM]]} -> !hal.buffer_view
//  CHECK-NEXT:   util.return %[[V]], %[[RET]]#1 : !hal.buffer_view, f32
//  CHECK-NEXT: }
// CHECK-LABEL: util.func private @_dynamicEntry(%arg0: tensor<?x8xf32>, %arg1: tensor<?x8xf32> {iree.abi.name = "rhs"}, %arg2: f32)
//  CHECK-NEXT:   arith.addf

// -----

// Calls of an exported function go to the private original; an existing
// iree.reflection dictionary is merged, a given declaration kept, and
// functions already wrapped are left alone.

util.func public @callee(%arg0: tensor<4xi32>) -> tensor<4xi32> attributes {iree.reflection = {some.attr = 4 : index}} {
  util.return %arg0 : tensor<4xi32>
}
util.func public @caller(%arg0: tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.declaration = "python(x)"} {
  %0 = util.call @callee(%arg0) : (tensor<4xi32>) -> tensor<4xi32>
  util.return %0 : tensor<4xi32>
}
util.func public @wrapped(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
  util.return %arg0 : !hal.buffer_view
}

// CHECK-LABEL: util.func public @callee(%arg0: !hal.buffer_view) -> !hal.buffer_view
//  CHECK-SAME:   iree.reflection = {iree.abi.declaration = "sync func @callee(%input0: tensor<4xi32>) -> (%output0: tensor<4xi32>)", some.attr = 4 : index}
//       CHECK: util.func private @_callee(%arg0: tensor<4xi32>) -> tensor<4xi32> {
// CHECK-LABEL: util.func public @caller(%arg0: !hal.buffer_view) -> !hal.buffer_view
//  CHECK-SAME:   iree.reflection = {iree.abi.declaration = "python(x)"}
//       CHECK: util.func private @_caller(%arg0: tensor<4xi32>) -> tensor<4xi32> attributes {iree.abi.declaration = "python(x)"} {
//  CHECK-NEXT:   util.call @_callee(%arg0)
//       CHECK: util.func public @wrapped(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
//   CHECK-NOT: @_wrapped

// -----

// An import takes buffer views; its callers call a private wrapper that
// exports the arguments and imports the results, with their ABI encodings.

util.func private @import(tensor<?x2xi32> {iree.abi.encoding = tensor<?x2xf32>}) -> tensor<2x?xi32>
util.func private @user(%arg0: tensor<?x2xi32>) -> tensor<2x?xi32> {
  %0 = util.call @import(%arg0) : (tensor<?x2xi32>) -> tensor<2x?xi32>
  util.return %0 : tensor<2x?xi32>
}

// CHECK-LABEL: util.func private @import(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub}
//       CHECK: util.func private @_import(%[[ARG:.+]]: tensor<?x2xi32>) -> tensor<2x?xi32> {
//  CHECK-NEXT:   %[[C0:.+]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[DIM:.+]] = tensor.dim %[[ARG]], %[[C0]] : tensor<?x2xi32>
//  CHECK-NEXT:   %[[VIEW:.+]] = hal.tensor.export %[[ARG]] : tensor<?x2xf32> as tensor<?x2xi32>{%[[DIM]]} -> !hal.buffer_view
//  CHECK-NEXT:   %[[RET:.+]] = util.call @import(%[[VIEW]]) : (!hal.buffer_view) -> !hal.buffer_view
//  CHECK-NEXT:   %[[RDIM:.+]] = hal.buffer_view.dim<%[[RET]] : !hal.buffer_view>[1] : index
//  CHECK-NEXT:   %[[T:.+]] = hal.tensor.import %[[RET]] : !hal.buffer_view -> tensor<2x?xi32>{%[[RDIM]]}
//  CHECK-NEXT:   util.return %[[T]] : tensor<2x?xi32>
//       CHECK: util.func private @user
//  CHECK-NEXT:   util.call @_import(%arg0) : (tensor<?x2xi32>) -> tensor<2x?xi32>

// -----

// A result bound to caller storage (iree.abi.output) is aliased to that
// buffer before it is exported; the export reuses the alias's sizes.

util.func public @outputStorage(%arg0: tensor<?xf32>, %arg1: !hal.buffer {iree.abi.output = 0 : index}) -> tensor<?xf32> {
  util.return %arg0 : tensor<?xf32>
}

// CHECK-LABEL: util.func public @outputStorage(
//  CHECK-SAME:   %[[A:.+]]: !hal.buffer_view, %[[RET:.+]]: !hal.buffer) -> !hal.buffer_view
//       CHECK:   %[[R:.+]] = util.call @_outputStorage(%{{.+}}, %[[RET]]) : (tensor<?xf32>, !hal.buffer) -> tensor<?xf32>
//  CHECK-NEXT:   %[[C0:.+]] = arith.constant 0 : index
//  CHECK-NEXT:   %[[D:.+]] = tensor.dim %[[R]], %[[C0]] : tensor<?xf32>
//  CHECK-NEXT:   %[[ALIAS:.+]] = hal.tensor.alias %[[R]] : tensor<?xf32>{%[[D]]} to %[[RET]] : !hal.buffer
//  CHECK-NEXT:   %[[V:.+]] = hal.tensor.export %[[ALIAS]] "output0" : tensor<?xf32>{%[[D]]} -> !hal.buffer_view
//  CHECK-NEXT:   util.return %[[V]]
//       CHECK: util.func private @_outputStorage(%arg0: tensor<?xf32>, %arg1: !hal.buffer) -> tensor<?xf32>

// -----

// The default (walkthrough) form still applies to func.func only; util.func
// entry points are IREE's form's business.

func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  return %arg0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32>
