// RUN: mini-iree-opt %s -p iree-dispatch-creation-form-dispatch-regions --split-input-file | filecheck %s
// RUN: mini-iree-opt %examples/matmul.mlir -p iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions | filecheck %s --check-prefix=WALK

// The walkthrough's dump 00, from examples/matmul.mlir: the matmul's dispatch
// region holds its init chain (tensor.empty, the zero constant, linalg.fill),
// and its result sizes are the import sizes the tensor.empty was built from.
// (IREE 3.13 also brackets the region with iree_tensor_ext.compute_barrier ops;
// the walkthrough does not show them.)

// WALK-LABEL: util.func public @matmul_f32f32f32(
// WALK-SAME:      %[[A0:.+]]: !hal.buffer_view, %[[A1:.+]]: !hal.buffer_view) -> !hal.buffer_view {
// WALK-NEXT:    %[[D0:.+]] = hal.buffer_view.dim<%[[A0]] : !hal.buffer_view>[0] : index
// WALK-NEXT:    %[[D1:.+]] = hal.buffer_view.dim<%[[A0]] : !hal.buffer_view>[1] : index
// WALK-NEXT:    %[[LHS:.+]] = hal.tensor.import %[[A0]] "input0" : !hal.buffer_view -> tensor<?x?xf32>{%[[D0]], %[[D1]]}
// WALK-NEXT:    %[[D3:.+]] = hal.buffer_view.dim<%[[A1]] : !hal.buffer_view>[0] : index
// WALK-NEXT:    %[[D4:.+]] = hal.buffer_view.dim<%[[A1]] : !hal.buffer_view>[1] : index
// WALK-NEXT:    %[[RHS:.+]] = hal.tensor.import %[[A1]] "input1" : !hal.buffer_view -> tensor<?x?xf32>{%[[D3]], %[[D4]]}
// WALK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[D0]], %[[D4]]}) {
// WALK-NEXT:      %[[E:.+]] = tensor.empty(%[[D0]], %[[D4]]) : tensor<?x?xf32>
// WALK-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// WALK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// WALK-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// WALK-NEXT:      flow.return %[[MM]] : tensor<?x?xf32>
// WALK-NEXT:    }
// WALK-NEXT:    %[[OUT:.+]] = hal.tensor.export %[[R]] "output0" : tensor<?x?xf32>{%[[D0]], %[[D4]]} -> !hal.buffer_view
// WALK-NEXT:    util.return %[[OUT]] : !hal.buffer_view
// WALK-NEXT:  }

// A static matmul in a plain func.func: the region has no result sizes.

func.func @matmul_static(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @matmul_static(
// CHECK-SAME:      %[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>)
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// CHECK-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<4x16xf32>)
// CHECK-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>)
// CHECK-NEXT:      flow.return %[[MM]] : tensor<4x16xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]] : tensor<4x16xf32>

// -----

// Dynamic sizes read with tensor.dim stay outside and size the region.

func.func @matmul_dynamic(%a: tensor<?x?xi8>, %b: tensor<?x?xi8>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xi8>
  %n = tensor.dim %b, %c1 : tensor<?x?xi8>
  %zero = arith.constant 0 : i32
  %0 = tensor.empty(%m, %n) : tensor<?x?xi32>
  %1 = linalg.fill ins(%zero : i32) outs(%0 : tensor<?x?xi32>) -> tensor<?x?xi32>
  %2 = linalg.matmul ins(%a, %b : tensor<?x?xi8>, tensor<?x?xi8>) outs(%1 : tensor<?x?xi32>) -> tensor<?x?xi32>
  return %2 : tensor<?x?xi32>
}

// CHECK-LABEL: func.func @matmul_dynamic(
// CHECK:         %[[M:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x?xi8>
// CHECK-NEXT:    %[[N:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x?xi8>
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xi32>{%[[M]], %[[N]]}) {
// CHECK-NEXT:      tensor.empty(%[[M]], %[[N]]) : tensor<?x?xi32>
// CHECK-NEXT:      arith.constant 0 : i32
// CHECK-NEXT:      linalg.fill
// CHECK-NEXT:      linalg.matmul
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]

// -----

// IREE 3.13's elementwise-producer-consumer case: the producer of the LHS gets
// its own dispatch; the bias + relu consumer joins the matmul's, sharing its
// tensor.empty and the zero constant its body reads.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @producer_consumer_elementwise(%arg0: tensor<?x?xf32>, %bk: tensor<?xf32>, %arg1: tensor<?x?xf32>, %bn: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %k = tensor.dim %arg0, %c1 : tensor<?x?xf32>
  %n = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %k) : tensor<?x?xf32>
  %lhs = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%arg0, %bk : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%lhs, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %3 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%2, %bn : tensor<?x?xf32>, tensor<?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %3 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @producer_consumer_elementwise(
// CHECK-SAME:      %[[ARG0:[^:]+]]: tensor<?x?xf32>, %[[BK:[^:]+]]: tensor<?xf32>, %[[ARG1:[^:]+]]: tensor<?x?xf32>, %[[BN:[^:]+]]: tensor<?xf32>)
// CHECK:         %[[M:.+]] = tensor.dim %[[ARG0]]
// CHECK-NEXT:    %[[K:.+]] = tensor.dim %[[ARG0]]
// CHECK-NEXT:    %[[N:.+]] = tensor.dim %[[ARG1]]
// CHECK-NEXT:    %[[LHS:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[M]], %[[K]]}) {
// CHECK-NEXT:      %[[E:.+]] = tensor.empty(%[[M]], %[[K]])
// CHECK-NEXT:      %[[ADD:.+]] = linalg.generic {{.+}} ins(%[[ARG0]], %[[BK]] : {{.+}}) outs(%[[E]] : tensor<?x?xf32>)
// CHECK:           flow.return %[[ADD]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32>{%[[M]], %[[N]]}) {
// CHECK-NEXT:      %[[E2:.+]] = tensor.empty(%[[M]], %[[N]])
// CHECK-NEXT:      %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E2]] : tensor<?x?xf32>)
// CHECK-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[ARG1]] : {{.+}}) outs(%[[F]] : tensor<?x?xf32>)
// CHECK-NEXT:      %[[RELU:.+]] = linalg.generic {{.+}} ins(%[[MM]], %[[BN]] : {{.+}}) outs(%[[E2]] : tensor<?x?xf32>)
// CHECK:             arith.maximumf %{{.+}}, %[[CST]] : f32
// CHECK:           flow.return %[[RELU]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]

// -----

// A dot product (a linalg.generic with a reduction loop) and a matvec are
// contraction roots too.

#in = affine_map<(d0) -> (d0)>
#out = affine_map<(d0) -> ()>
func.func @dot_product(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<f32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
  %2 = linalg.generic {indexing_maps = [#in, #in, #out], iterator_types = ["reduction"]} ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%1 : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %2 : tensor<f32>
}

// CHECK-LABEL: func.func @dot_product(
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<f32>) {
// CHECK-NEXT:      tensor.empty() : tensor<f32>
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      linalg.fill
// CHECK-NEXT:      %[[DOT:.+]] = linalg.generic {{.+}} iterator_types = ["reduction"]
// CHECK:           flow.return %[[DOT]] : tensor<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]

func.func @matvec(%lhs: tensor<?x?xf32>, %rhs: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %lhs, %c0 : tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.matvec ins(%lhs, %rhs : tensor<?x?xf32>, tensor<?xf32>) outs(%1 : tensor<?xf32>) -> tensor<?xf32>
  return %2 : tensor<?xf32>
}

// CHECK-LABEL: func.func @matvec(
// CHECK:         %[[M:.+]] = tensor.dim
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?xf32>{%[[M]]}) {
// CHECK-NEXT:      tensor.empty(%[[M]]) : tensor<?xf32>
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      linalg.fill
// CHECK-NEXT:      linalg.matvec
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]

// -----

// Ops already in a dispatch region are left alone.

func.func @already_formed(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %r = flow.dispatch.region -> (tensor<4x16xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %2 : tensor<4x16xf32>
  }
  return %r : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @already_formed(
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.fill
// CHECK-NEXT:      linalg.matmul
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     flow.dispatch.region

// -----

// A fill used by two matmuls is cloned into both dispatches; the add reading
// both results joins the second (the first is already grouped when the second
// is formed).

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @sum_of_matmuls(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %3 = linalg.matmul ins(%a, %c : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%2, %3 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %4 : tensor<4x16xf32>
}

// CHECK-LABEL: func.func @sum_of_matmuls(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x8xf32>, %[[B:[^:]+]]: tensor<8x16xf32>, %[[C:[^:]+]]: tensor<8x16xf32>)
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[F0:.+]] = linalg.fill
// CHECK-NEXT:      %[[MM0:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[F0]] :
// CHECK-NEXT:      flow.return %[[MM0]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      %[[E1:.+]] = tensor.empty
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[F1:.+]] = linalg.fill
// CHECK-NEXT:      %[[MM1:.+]] = linalg.matmul ins(%[[A]], %[[C]] : {{.+}}) outs(%[[F1]] :
// CHECK-NEXT:      %[[ADD:.+]] = linalg.generic {{.+}} ins(%[[R0]], %[[MM1]] : {{.+}}) outs(%[[E1]] :
// CHECK:           flow.return %[[ADD]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]

// -----

// A consumer is fused only when it is the root's one user: here the matmul's
// result is also returned, so the relu gets its own dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @consumer_not_sole_user(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %cst : f32
    linalg.yield %r : f32
  } -> tensor<4x16xf32>
  return %2, %3 : tensor<4x16xf32>, tensor<4x16xf32>
}

// CHECK-LABEL: func.func @consumer_not_sole_user(
// CHECK-NEXT:    %[[MM:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:           linalg.matmul
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[RELU:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[MM]] : tensor<4x16xf32>)
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[MM]], %[[RELU]]

// -----

// Tensor constants up to 256 bytes (and splats) are cloned into the dispatch;
// a larger one stays outside and is captured.

func.func @constants(%x: tensor<?x2xf32>) -> (tensor<?x3xf32>, tensor<?x33xf32>) {
  %c0 = arith.constant 0 : index
  %small = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %big = arith.constant dense<"0x000000000000803F0000004000004040000080400000A0400000C0400000E0400000004100001041000020410000304100004041000050410000604100007041000080410000884100009041000098410000A0410000A8410000B0410000B8410000C0410000C8410000D0410000D8410000E0410000E8410000F0410000F84100000042000004420000084200000C4200001042000014420000184200001C4200002042000024420000284200002C4200003042000034420000384200003C4200004042000044420000484200004C4200005042000054420000584200005C4200006042000064420000684200006C4200007042000074420000784200007C420000804200008242"> : tensor<2x33xf32>
  %m = tensor.dim %x, %c0 : tensor<?x2xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%m) : tensor<?x3xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %2 = linalg.matmul ins(%x, %small : tensor<?x2xf32>, tensor<2x3xf32>) outs(%1 : tensor<?x3xf32>) -> tensor<?x3xf32>
  %3 = tensor.empty(%m) : tensor<?x33xf32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<?x33xf32>) -> tensor<?x33xf32>
  %5 = linalg.matmul ins(%x, %big : tensor<?x2xf32>, tensor<2x33xf32>) outs(%4 : tensor<?x33xf32>) -> tensor<?x33xf32>
  return %2, %5 : tensor<?x3xf32>, tensor<?x33xf32>
}

// CHECK-LABEL: func.func @constants(
// CHECK-SAME:      %[[X:[^:]+]]: tensor<?x2xf32>)
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[BIG:.+]] = arith.constant dense<{{.+}}> : tensor<2x33xf32>
// CHECK-NEXT:    %[[M:.+]] = tensor.dim
// CHECK-NEXT:    flow.dispatch.region -> (tensor<?x3xf32>{%[[M]]}) {
// CHECK:           %[[SMALL:.+]] = arith.constant dense<{{.+}}> : tensor<2x3xf32>
// CHECK-NEXT:      linalg.matmul ins(%[[X]], %[[SMALL]] :
// CHECK:         flow.dispatch.region -> (tensor<?x33xf32>{%[[M]]}) {
// CHECK-NOT:       arith.constant dense
// CHECK:           linalg.matmul ins(%[[X]], %[[BIG]] :

// -----

// Any other linalg op on tensors is a root of its own; a linalg op on memrefs
// is not understood and is left alone.

func.func @transpose(%a: tensor<4x8xf32>, %m: memref<4xf32>) -> tensor<8x4xf32> {
  %cst = arith.constant 1.000000e+00 : f32
  linalg.fill ins(%cst : f32) outs(%m : memref<4xf32>)
  %0 = tensor.empty() : tensor<8x4xf32>
  %1 = linalg.transpose ins(%a : tensor<4x8xf32>) outs(%0 : tensor<8x4xf32>) permutation = [1, 0]
  return %1 : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-NEXT:    arith.constant 1.000000e+00 : f32
// CHECK-NEXT:    linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : memref<4xf32>)
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<8x4xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[T:.+]] = linalg.transpose
// CHECK-NEXT:      flow.return %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]

// -----

// An elementwise root takes its elementwise consumer too. Every clonable
// producer comes in before its users, and none is left outside.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise_chain(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %cst = arith.constant 2.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %cst : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%2, %1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @elementwise_chain(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NEXT:      %[[CST:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<4x8xf32>)
// CHECK-NEXT:      %[[MUL:.+]] = linalg.generic {{.+}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK:           %[[ADD:.+]] = linalg.generic {{.+}} ins(%[[MUL]], %[[F]] : {{.+}}) outs(%[[E]] : tensor<4x8xf32>)
// CHECK:           flow.return %[[ADD]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R]]
