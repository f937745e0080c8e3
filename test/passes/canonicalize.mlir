// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s

// Constants move to the top of the function, out of a dispatch region, as
// MLIR's canonicalizer places them (walkthrough dump 06).
// CHECK-LABEL: util.func public @constant_out_of_dispatch
// CHECK-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region
// CHECK-NEXT:      %[[E:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:      linalg.fill ins(%[[CST]] : f32)
util.func public @constant_out_of_dispatch() -> tensor<4xf32> {
  %0 = flow.dispatch.region -> (tensor<4xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %1 = tensor.empty() : tensor<4xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4xf32>) -> tensor<4xf32>
    flow.return %2 : tensor<4xf32>
  }
  util.return %0 : tensor<4xf32>
}

// -----

// Equal constants become one. Each constant not already among the leading
// constants moves to the very front, so later ones end up first (MLIR's
// OperationFolder::insertKnownConstant).
// CHECK-LABEL: func.func @unique
// CHECK-NEXT:    %[[B:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:    %[[A:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %arg0, %[[A]] : f32
// CHECK-NEXT:    %[[T:.+]] = arith.mulf %[[S]], %[[B]] : f32
// CHECK-NEXT:    %[[U:.+]] = arith.mulf %[[T]], %[[A]] : f32
// CHECK-NEXT:    return %[[U]]
func.func @unique(%arg0: f32) -> f32 {
  %a = arith.constant 1.000000e+00 : f32
  %s = arith.addf %arg0, %a : f32
  %b = arith.constant 2.000000e+00 : f32
  %t = arith.mulf %s, %b : f32
  %a2 = arith.constant 1.000000e+00 : f32
  %u = arith.mulf %t, %a2 : f32
  return %u : f32
}

// -----

// A constant inside an isolated region stays in that region.
// CHECK-LABEL: flow.executable private @ex
// CHECK:         func.func @inner
// CHECK-NEXT:      arith.constant 3 : index
flow.executable private @ex {
  builtin.module {
    func.func @inner(%arg0: index) -> index {
      %0 = arith.addi %arg0, %arg0 : index
      %c3 = arith.constant 3 : index
      %1 = arith.muli %0, %c3 : index
      return %1 : index
    }
  }
}

// -----

// A generic that only yields what it reads, every operand read alike, is its
// input (MLIR's EraseIdentityLinalgOp); a static result of a dynamic input is
// a `tensor.cast` of it. A transposing copy stays.

func.func @identity_generic(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>) -> (tensor<4x?xf32>, tensor<4x8xf32>, tensor<?x4xf32>) {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %a, %c1 : tensor<4x?xf32>
  %e = tensor.empty(%d) : tensor<4x?xf32>
  %copy = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x?xf32>) outs(%e : tensor<4x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x?xf32>
  %e8 = tensor.empty() : tensor<4x8xf32>
  %static = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x?xf32>) outs(%e8 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %et = tensor.empty(%d) : tensor<?x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x?xf32>) outs(%et : tensor<?x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<?x4xf32>
  return %copy, %static, %t : tensor<4x?xf32>, tensor<4x8xf32>, tensor<?x4xf32>
}

// CHECK-LABEL: func.func @identity_generic(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x?xf32>, %[[B:[^:]+]]: tensor<4x?xf32>)
// CHECK:         %[[CAST:.+]] = tensor.cast %[[B]] : tensor<4x?xf32> to tensor<4x8xf32>
// CHECK:         %[[T:.+]] = linalg.generic
// CHECK:         return %[[A]], %[[CAST]], %[[T]]

// -----

// A subview captured by an execution region: the region captures the whole
// resource (once) and each command's range starts at the subview's offset plus
// its own (IREE's CloneCapturedCmdExecuteSubviewOps, FoldSubviewsIntoDispatchOp,
// ClosureOptimizationPattern).

util.func public @fold_captured_subviews(%r: !stream.resource<external>, %total: index, %off: index, %n: index, %inner: index) -> !stream.timepoint {
  %c0 = arith.constant 0 : index
  %a = stream.resource.subview %r[%c0] : !stream.resource<external>{%total} -> !stream.resource<external>{%n}
  %b = stream.resource.subview %r[%off] : !stream.resource<external>{%total} -> !stream.resource<external>{%n}
  %0 = stream.cmd.execute with(%a as %x: !stream.resource<external>{%n}, %b as %y: !stream.resource<external>{%n}) {
    stream.cmd.dispatch @ex::@fn {
      ro %x[%c0 for %n] : !stream.resource<external>{%n},
      wo %y[%inner for %n] : !stream.resource<external>{%n}
    }
  } => !stream.timepoint
  util.return %0 : !stream.timepoint
}
// CHECK-LABEL: @fold_captured_subviews(
// CHECK-SAME:    %[[R:[a-zA-Z0-9]+]]: !stream.resource<external>, %[[TOTAL:[a-zA-Z0-9]+]]: index, %[[OFF:[a-zA-Z0-9]+]]: index, %[[N:[a-zA-Z0-9]+]]: index, %[[INNER:[a-zA-Z0-9]+]]: index
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         %[[SUM:.+]] = arith.addi %[[OFF]], %[[INNER]] : index
// CHECK-NEXT:    stream.cmd.execute with(%[[R]] as %[[ARG:.+]]: !stream.resource<external>{%[[TOTAL]]}) {
// CHECK-NEXT:      stream.cmd.dispatch @ex::@fn {
// CHECK-NEXT:        ro %[[ARG]][%[[C0]] for %[[N]]] : !stream.resource<external>{%[[TOTAL]]},
// CHECK-NEXT:        wo %[[ARG]][%[[SUM]] for %[[N]]] : !stream.resource<external>{%[[TOTAL]]}
