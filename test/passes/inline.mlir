// RUN: mini-iree-opt %s -p 'inline{default-pipeline=}' --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p inline --split-input-file | filecheck %s --check-prefix=CANON

// A private helper's body replaces its call; the helper, now unused, is erased.
func.func private @add_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant dense<1.000000e+00> : tensor<4xf32>
  %0 = arith.addf %x, %c1 : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @caller(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @add_one(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @add_one(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
// CHECK-NOT:   @add_one
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[ARG:.+]]: tensor<4xf32>
// CHECK:         %[[ONE:.+]] = arith.constant dense<1.000000e+00>
// CHECK:         %[[A:.+]] = arith.addf %[[ARG]], %[[ONE]]
// CHECK:         %[[ONE2:.+]] = arith.constant dense<1.000000e+00>
// CHECK:         %[[B:.+]] = arith.addf %[[A]], %[[ONE2]]
// CHECK-NOT:     call
// CHECK:         return %[[B]]
// The default pipeline (canonicalize) then runs: the two constants become one.
// CANON-LABEL: func.func @caller(
// CANON-COUNT-1: arith.constant
// CANON-NOT:     arith.constant
// CANON:         return

// -----

// Helpers calling helpers are flattened completely, callees first; results map in order.
func.func private @inner(%a: index, %b: index) -> (index, index) {
  %0 = arith.addi %a, %b : index
  return %0, %a : index, index
}
func.func private @outer(%a: index) -> index {
  %0:2 = func.call @inner(%a, %a) : (index, index) -> (index, index)
  %1 = arith.muli %0#0, %0#1 : index
  return %1 : index
}
func.func @entry(%arg0: index) -> index {
  %0 = func.call @outer(%arg0) : (index) -> index
  return %0 : index
}
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @entry(
// CHECK-SAME:      %[[ARG:.+]]: index
// CHECK:         %[[SUM:.+]] = arith.addi %[[ARG]], %[[ARG]]
// CHECK:         %[[PROD:.+]] = arith.muli %[[SUM]], %[[ARG]]
// CHECK:         return %[[PROD]]

// -----

// A public callee is inlined but kept: others may call it.
func.func @public_helper(%a: index) -> index {
  %0 = arith.addi %a, %a : index
  return %0 : index
}
func.func @uses_public(%arg0: index) -> index {
  %0 = func.call @public_helper(%arg0) : (index) -> index
  return %0 : index
}
// CHECK-LABEL: func.func @public_helper(
// CHECK-LABEL: func.func @uses_public(
// CHECK-NOT:     call
// CHECK:         arith.addi

// -----

// Left alone: a declaration, recursion, and calls or callees marked no_inline.
func.func private @external(index) -> index
func.func private @recursive(%a: index) -> index {
  %0 = func.call @recursive(%a) : (index) -> index
  return %0 : index
}
func.func private @kept(%a: index) -> index attributes {no_inline} {
  return %a : index
}
func.func private @not_here(%a: index) -> index {
  return %a : index
}
func.func @left_alone(%arg0: index) -> index {
  %0 = func.call @external(%arg0) : (index) -> index
  %1 = func.call @recursive(%0) : (index) -> index
  %2 = func.call @kept(%1) : (index) -> index
  %3 = func.call @not_here(%2) {no_inline} : (index) -> index
  return %3 : index
}
// CHECK-LABEL: func.func private @external(
// CHECK-LABEL: func.func private @recursive(
// CHECK-LABEL: func.func private @kept(
// CHECK-LABEL: func.func private @not_here(
// CHECK-LABEL: func.func @left_alone(
// CHECK:         call @external
// CHECK:         call @recursive
// CHECK:         call @kept
// CHECK:         call @not_here

// -----

// util.call to a util.func, as after iree-abi-wrap-entry-points.
util.func private @twice(%a: index) -> index {
  %0 = arith.addi %a, %a : index
  util.return %0 : index
}
util.func public @util_caller(%arg0: index) -> index {
  %0 = util.call @twice(%arg0) : (index) -> index
  util.return %0 : index
}
// CHECK-NOT:   @twice
// CHECK-LABEL: util.func public @util_caller(
// CHECK:         %[[R:.+]] = arith.addi %{{.+}}, %{{.+}} : index
// CHECK-NOT:     util.call
// CHECK:         util.return %[[R]]
