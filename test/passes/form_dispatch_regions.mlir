// Form-dispatch-regions leaves the producers IREE clones (fills, empties, small
// constants, bit extends) outside; clone-producers-into-dispatch-regions then
// copies them in. Most cases check the two together, as the pipeline runs them;
// the ALONE prefix checks what form-dispatch-regions does by itself.
// RUN: mini-iree-opt %s -p iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-clone-producers-into-dispatch-regions --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{aggressive-fusion=true},iree-dispatch-creation-clone-producers-into-dispatch-regions{aggressive=true}' --split-input-file | filecheck %s --check-prefix=AGG
// RUN: mini-iree-opt %examples/matmul.mlir -p iree-abi-wrap-entry-points,iree-dispatch-creation-form-dispatch-regions,iree-dispatch-creation-clone-producers-into-dispatch-regions | filecheck %s --check-prefix=WALK
// RUN: mini-iree-opt %s -p iree-dispatch-creation-form-dispatch-regions --split-input-file | filecheck %s --check-prefix=ALONE

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

// Alone, form-dispatch-regions leaves the init chain outside, captured.
// ALONE-LABEL: func.func @matmul_static(
// ALONE-SAME:      %[[A:.+]]: tensor<4x8xf32>, %[[B:.+]]: tensor<8x16xf32>)
// ALONE-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// ALONE-NEXT:    %[[E:.+]] = tensor.empty() : tensor<4x16xf32>
// ALONE-NEXT:    %[[F:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[E]] : tensor<4x16xf32>)
// ALONE-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// ALONE-NEXT:      %[[MM:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] : tensor<4x16xf32>)
// ALONE-NEXT:      flow.return %[[MM]] : tensor<4x16xf32>
// ALONE-NEXT:    }
// ALONE-NEXT:    return %[[R]] : tensor<4x16xf32>

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

// A fill used by two matmuls is cloned into both dispatches. Roots are
// numbered bottom-up, but consumers are claimed top-down: the add joins the
// first matmul's dispatch, and the second matmul's dispatch, which the add
// also reads, moves up above it.


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
// CHECK-NEXT:      %[[MM0:.+]] = linalg.matmul ins(%[[A]], %[[C]] : {{.+}}) outs(%[[F0]] :
// CHECK-NEXT:      flow.return %[[MM0]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      %[[E1:.+]] = tensor.empty
// CHECK-NEXT:      arith.constant
// CHECK-NEXT:      %[[F1:.+]] = linalg.fill
// CHECK-NEXT:      %[[MM1:.+]] = linalg.matmul ins(%[[A]], %[[B]] : {{.+}}) outs(%[[F1]] :
// CHECK-NEXT:      %[[ADD:.+]] = linalg.generic {{.+}} ins(%[[MM1]], %[[R0]] : {{.+}}) outs(%[[E1]] :
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
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      arith.constant
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
// CHECK-NEXT:      linalg.fill
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

// Elementwise ops are roots of their own in the second round, found bottom-up:
// the add is a root before the multiply, so neither fuses with the other (a
// producer joins only through the root's init, unless fusion is aggressive).
// Every clonable producer comes in before its users, and none is left outside.

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
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NEXT:      %[[E:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:      %[[CST:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[MUL:.+]] = linalg.generic {{.+}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK:           flow.return %[[MUL]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NEXT:      %[[E1:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:      %[[CST1:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[F:.+]] = linalg.fill ins(%[[CST1]] : f32) outs(%[[E1]] : tensor<4x8xf32>)
// CHECK-NEXT:      %[[ADD:.+]] = linalg.generic {{.+}} ins(%[[R0]], %[[F]] : {{.+}}) outs(%[[E1]] : tensor<4x8xf32>)
// CHECK:           flow.return %[[ADD]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[R1]]

// AGG-LABEL: func.func @elementwise_chain(
// AGG-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:           %[[MUL:.+]] = linalg.generic
// AGG:           %[[ADD:.+]] = linalg.generic {{.+}} ins(%[[MUL]],
// AGG:           flow.return %[[ADD]]
// AGG-NEXT:    }
// AGG-NEXT:    return %[[R]]

// -----

// A set_encoding joins the dispatch of the op producing what it encodes: here
// a row reduction, whose consumer reads it broadcast along the reduced loop
// (compatible on the root's outer parallel loop) and joins it too.

#enc = #iree_encoding.testing<>
util.func public @encode_reduction_result(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32, #enc> {
  %cst = arith.constant 0.000000e+00 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %0 = tensor.empty(%m) : tensor<?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?xf32>) -> tensor<?xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<?x?xf32>) outs(%1 : tensor<?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %3 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b, %2 : tensor<?x?xf32>, tensor<?xf32>) outs(%3 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %d = arith.subf %x, %r : f32
    linalg.yield %d : f32
  } -> tensor<?x?xf32>
  %5 = iree_encoding.set_encoding %4 : tensor<?x?xf32> -> tensor<?x?xf32, #enc>
  util.return %5 : tensor<?x?xf32, #enc>
}

// CHECK-LABEL: util.func public @encode_reduction_result(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<?x?xf32>, %[[B:[^:]+]]: tensor<?x?xf32>)
// CHECK:         %[[M:.+]] = tensor.dim %[[A]], %c0
// CHECK:         %[[N:.+]] = tensor.dim %[[A]], %c1
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32, #encoding>{%[[M]], %[[N]]}) {
// CHECK:           %[[RED:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%[[A]] :
// CHECK:           %[[SUB:.+]] = linalg.generic {{.+}} ins(%[[B]], %[[RED]] :
// CHECK:           %[[ENC:.+]] = iree_encoding.set_encoding %[[SUB]]
// CHECK-NEXT:      flow.return %[[ENC]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// Encoding ops are no roots: a lone set_encoding stays outside any dispatch,
// and an unset_encoding is left outside, then cloned into its consumer's dispatch.

#enc = #iree_encoding.testing<>
util.func public @encoding_ops_alone(%a: tensor<4x8xf32>, %b: tensor<4x8xf32, #enc>) -> (tensor<4x8xf32, #enc>, tensor<4x8xf32>) {
  %0 = iree_encoding.set_encoding %a : tensor<4x8xf32> -> tensor<4x8xf32, #enc>
  %1 = iree_encoding.unset_encoding %b : tensor<4x8xf32, #enc> -> tensor<4x8xf32>
  %2 = tensor.empty() : tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<4x8xf32>) outs(%2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.mulf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  util.return %0, %3 : tensor<4x8xf32, #enc>, tensor<4x8xf32>
}

// CHECK-LABEL: util.func public @encoding_ops_alone(
// CHECK-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[UNSET:.+]] = iree_encoding.unset_encoding
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[UNSET]] :
// CHECK:         util.return %[[SET]], %[[R]]

// ALONE-LABEL: util.func public @encoding_ops_alone(
// ALONE-NEXT:    %[[SET:.+]] = iree_encoding.set_encoding
// ALONE-NEXT:    %[[UNSET:.+]] = iree_encoding.unset_encoding
// ALONE-NEXT:    %[[E:.+]] = tensor.empty
// ALONE-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// ALONE-NEXT:      linalg.generic {{.+}} ins(%[[UNSET]] : tensor<4x8xf32>) outs(%[[E]] :
// ALONE:         util.return %[[SET]], %[[R]]

// -----

// A tensor.pad gets a dispatch of its own, which its set_encoding joins. The
// dispatch's sizes are the source's plus the padding.

#enc = #iree_encoding.testing<>
util.func public @pad_then_encode(%a: tensor<?x?xf32>, %h0: index, %h1: index) -> tensor<?x?xf32, #enc> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.pad %a low[0, 1] high[%h0, %h1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %1 = iree_encoding.set_encoding %0 : tensor<?x?xf32> -> tensor<?x?xf32, #enc>
  util.return %1 : tensor<?x?xf32, #enc>
}

// CHECK-LABEL: util.func public @pad_then_encode(
// CHECK-SAME:      %[[A:[^:]+]]: tensor<?x?xf32>, %[[H0:[^:]+]]: index, %[[H1:[^:]+]]: index)
// CHECK:         %[[D0:.+]] = tensor.dim %[[A]], %c0
// CHECK-NEXT:    %[[S0:.+]] = arith.addi %[[D0]], %[[H0]] : index
// CHECK:         %[[D1:.+]] = tensor.dim %[[A]], %c1
// CHECK-NEXT:    %[[ONE:.+]] = arith.constant 1 : index
// CHECK-NEXT:    %[[L1:.+]] = arith.addi %[[D1]], %[[ONE]] : index
// CHECK-NEXT:    %[[S1:.+]] = arith.addi %[[L1]], %[[H1]] : index
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<?x?xf32, #encoding>{%[[S0]], %[[S1]]}) {
// CHECK:           %[[PAD:.+]] = tensor.pad %[[A]] low[0, 1] high[%[[H0]], %[[H1]]]
// CHECK:           %[[ENC:.+]] = iree_encoding.set_encoding %[[PAD]]
// CHECK-NEXT:      flow.return %[[ENC]]
// CHECK:         util.return %[[R]]

// -----

// A linalg.pack is a root of the second round and takes the elementwise op
// producing its source, unless that op writes its result transposed.

util.func public @pack_and_its_producer(%a: tensor<16x32xf32>, %b: tensor<16x32xf32>) -> (tensor<2x4x8x8xf32>, tensor<4x2x8x8xf32>) {
  %0 = tensor.empty() : tensor<16x32xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x32xf32>) outs(%0 : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.addf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<16x32xf32>
  %2 = tensor.empty() : tensor<2x4x8x8xf32>
  %3 = linalg.pack %1 inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %2 : tensor<16x32xf32> -> tensor<2x4x8x8xf32>
  %4 = tensor.empty() : tensor<32x16xf32>
  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<16x32xf32>) outs(%4 : tensor<32x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<32x16xf32>
  %6 = tensor.empty() : tensor<4x2x8x8xf32>
  %7 = linalg.pack %5 inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %6 : tensor<32x16xf32> -> tensor<4x2x8x8xf32>
  util.return %3, %7 : tensor<2x4x8x8xf32>, tensor<4x2x8x8xf32>
}

// CHECK-LABEL: util.func public @pack_and_its_producer(
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<2x4x8x8xf32>) {
// CHECK:           %[[ADD:.+]] = linalg.generic
// CHECK:           %[[P0:.+]] = linalg.pack %[[ADD]]
// CHECK-NEXT:      flow.return %[[P0]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<32x16xf32>) {
// CHECK:           %[[T:.+]] = linalg.generic
// CHECK:           flow.return %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R2:.+]] = flow.dispatch.region -> (tensor<4x2x8x8xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[P1:.+]] = linalg.pack %[[R1]]
// CHECK-NEXT:      flow.return %[[P1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R0]], %[[R2]]

// -----

// A linalg.unpack is a root and takes its elementwise consumer.

util.func public @unpack_and_its_consumer(%a: tensor<2x4x8x8xf32>, %b: tensor<16xf32>) -> tensor<16x32xf32> {
  %0 = tensor.empty() : tensor<16x32xf32>
  %1 = linalg.unpack %a inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %0 : tensor<2x4x8x8xf32> -> tensor<16x32xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1, %b : tensor<16x32xf32>, tensor<16xf32>) outs(%0 : tensor<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.mulf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<16x32xf32>
  util.return %2 : tensor<16x32xf32>
}

// CHECK-LABEL: util.func public @unpack_and_its_consumer(
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<16x32xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[U:.+]] = linalg.unpack
// CHECK-NEXT:      %[[MUL:.+]] = linalg.generic {{.+}} ins(%[[U]],
// CHECK:           flow.return %[[MUL]]
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// An mmt4d (data tiling's materialized matmul) does not take consumers yet.

util.func public @mmt4d_keeps_consumer_out(%lhs: tensor<2x4x8x1xf32>, %rhs: tensor<3x4x8x1xf32>, %bias: tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<2x3x8x8xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %2 = linalg.mmt4d ins(%lhs, %rhs : tensor<2x4x8x1xf32>, tensor<3x4x8x1xf32>) outs(%1 : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %bias : tensor<2x3x8x8xf32>, tensor<2x3x8x8xf32>) outs(%0 : tensor<2x3x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.addf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<2x3x8x8xf32>
  util.return %3 : tensor<2x3x8x8xf32>
}

// CHECK-LABEL: util.func public @mmt4d_keeps_consumer_out(
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<2x3x8x8xf32>) {
// CHECK:           %[[MM:.+]] = linalg.mmt4d
// CHECK-NEXT:      flow.return %[[MM]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<2x3x8x8xf32>) {
// CHECK:           linalg.generic {{.+}} ins(%[[R0]],
// CHECK:         util.return %[[R1]]
// AGG-LABEL: util.func public @mmt4d_keeps_consumer_out(
// AGG:           linalg.mmt4d
// AGG-NEXT:      flow.return
// AGG-NEXT:    }
// AGG-NEXT:    flow.dispatch.region

// -----

// An elementwise producer joins a root through the root's init; through an
// input only with aggressive fusion (and loops that tile alike: the row
// reduction reads it along its parallel loop).

#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @producer_through_init_or_input(%a: tensor<4x8xf32>, %c: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%c : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.mulf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<4xf32>
  %2 = tensor.empty() : tensor<4x8xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.addf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %4 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%3 : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  util.return %4 : tensor<4xf32>
}

// CHECK-LABEL: util.func public @producer_through_init_or_input(
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:           %[[ADD:.+]] = linalg.generic
// CHECK:           flow.return %[[ADD]]
// CHECK:         %[[R1:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// CHECK:           %[[SQ:.+]] = linalg.generic
// CHECK:           %[[RED:.+]] = linalg.generic {{.+}} ins(%[[R0]] : tensor<4x8xf32>) outs(%[[SQ]] : tensor<4xf32>)
// CHECK:           flow.return %[[RED]]
// CHECK:         util.return %[[R1]]
// AGG-LABEL: util.func public @producer_through_init_or_input(
// AGG-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// AGG:           %[[SQ:.+]] = linalg.generic
// AGG:           %[[ADD:.+]] = linalg.generic
// AGG:           %[[RED:.+]] = linalg.generic {{.+}} ins(%[[ADD]] : tensor<4x8xf32>) outs(%[[SQ]] : tensor<4xf32>)
// AGG:           flow.return %[[RED]]
// AGG-NEXT:    }
// AGG-NEXT:    util.return %[[R]]

// -----

// A root used twice: without aggressive fusion, neither consumer joins it;
// with it, the first does, and the root's value is also returned for the
// second.

#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @first_use_of_many(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.maximumf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %3 = tensor.empty() : tensor<4x8xf32>
  %4 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %2 : tensor<4x8xf32>, tensor<4xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %5 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%b, %2 : tensor<4x8xf32>, tensor<4xf32>) outs(%3 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.addf %x, %m : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  util.return %4, %5 : tensor<4x8xf32>, tensor<4x8xf32>
}

// CHECK-LABEL: util.func public @first_use_of_many(
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// CHECK:         %[[R1:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:         %[[R2:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// CHECK:         util.return %[[R1]], %[[R2]]
// AGG-LABEL: util.func public @first_use_of_many(
// AGG-NEXT:    %[[R0:.+]]:2 = flow.dispatch.region -> (tensor<4xf32>, tensor<4x8xf32>) {
// AGG:           %[[MAX:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// AGG:           %[[SUB:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %[[MAX]] :
// AGG:           flow.return %[[MAX]], %[[SUB]]
// AGG-NEXT:    }
// AGG-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<4x8xf32>) {
// AGG:           linalg.generic {{.+}} ins(%{{.+}}, %[[R0]]#0 :
// AGG:         util.return %[[R0]]#1, %[[R1]]

// -----

// A consumer reading its operand transposed does not tile with the root and
// gets its own dispatch.

util.func public @transposed_consumer_stays_out(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.addf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<4x4xf32>
  util.return %3 : tensor<4x4xf32>
}

// CHECK-LABEL: util.func public @transposed_consumer_stays_out(
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<4x4xf32>) {
// CHECK:           %[[MM:.+]] = linalg.matmul
// CHECK-NEXT:      flow.return %[[MM]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<4x4xf32>) {
// CHECK:           linalg.generic {{.+}} ins(%[[R0]] :
// CHECK:         util.return %[[R1]]

// -----

// A scalar the consumer's body reads, computed between root and consumer, is
// moved above the dispatch the consumer joins (ALONE); scalar arithmetic is
// then cloned into the dispatch.

#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @consumer_captures_scalar(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %s: f32) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x16xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %scale = arith.mulf %s, %s : f32
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x16xf32>) outs(%0 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.mulf %x, %scale : f32
    linalg.yield %d : f32
  } -> tensor<4x16xf32>
  util.return %3 : tensor<4x16xf32>
}

// CHECK-LABEL: util.func public @consumer_captures_scalar(
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK-NEXT:      tensor.empty
// CHECK-NEXT:      %[[SCALE:.+]] = arith.mulf
// CHECK:           %[[MM:.+]] = linalg.matmul
// CHECK-NEXT:      linalg.generic {{.+}} ins(%[[MM]] :
// CHECK:             arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK:         util.return %[[R]]

// ALONE-LABEL: util.func public @consumer_captures_scalar(
// ALONE:         %[[SCALE:.+]] = arith.mulf
// ALONE-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// ALONE-NEXT:      %[[MM:.+]] = linalg.matmul
// ALONE-NEXT:      linalg.generic {{.+}} ins(%[[MM]] :
// ALONE:             arith.mulf %{{.+}}, %[[SCALE]] : f32

// -----

// Linalg ops in the body of an scf.for get dispatches inside the loop.

#id = affine_map<(d0) -> (d0)>
util.func public @dispatch_in_loop(%a: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %0 = tensor.empty() : tensor<4xf32>
    %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%acc : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %d = arith.addf %x, %x : f32
      linalg.yield %d : f32
    } -> tensor<4xf32>
    scf.yield %1 : tensor<4xf32>
  }
  util.return %r : tensor<4xf32>
}

// CHECK-LABEL: util.func public @dispatch_in_loop(
// CHECK:         scf.for %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}) -> (tensor<4xf32>) {
// CHECK-NEXT:      %[[R:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// CHECK:             linalg.generic {{.+}} ins(%[[ACC]] :
// CHECK:           scf.yield %[[R]]

// -----

// An unset_encoding and the slice taken of it are no roots: no dispatch.

#enc = #iree_encoding.testing<>
util.func public @unset_encoding_then_slice(%a: tensor<2x8xf32, #enc>) -> tensor<8xf32> {
  %0 = iree_encoding.unset_encoding %a : tensor<2x8xf32, #enc> -> tensor<2x8xf32>
  %1 = tensor.extract_slice %0[1, 0] [1, 8] [1, 1] : tensor<2x8xf32> to tensor<8xf32>
  util.return %1 : tensor<8xf32>
}

// CHECK-LABEL: util.func public @unset_encoding_then_slice(
// CHECK-NEXT:    %[[U:.+]] = iree_encoding.unset_encoding
// CHECK-NEXT:    %[[S:.+]] = tensor.extract_slice %[[U]]
// CHECK-NEXT:    util.return %[[S]]

// -----

// A reduction reading an unpack joins the unpack's dispatch when it reduces
// over loops the unpack did not tile (the first reduction sums along the
// untiled columns); otherwise it is a root of its own (the second sums along
// the tiled rows).

util.func public @unpack_and_reductions(%a: tensor<2x32x8xf32>) -> (tensor<16xf32>, tensor<32xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<16x32xf32>
  %1 = linalg.unpack %a inner_dims_pos = [0] inner_tiles = [8] into %0 : tensor<2x32x8xf32> -> tensor<16x32xf32>
  %2 = tensor.empty() : tensor<16xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<16xf32>) -> tensor<16xf32>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<16x32xf32>) outs(%3 : tensor<16xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %6 = tensor.empty() : tensor<32xf32>
  %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<32xf32>) -> tensor<32xf32>
  %8 = linalg.unpack %a inner_dims_pos = [0] inner_tiles = [8] into %0 : tensor<2x32x8xf32> -> tensor<16x32xf32>
  %9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%8 : tensor<16x32xf32>) outs(%7 : tensor<32xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  util.return %4, %9 : tensor<16xf32>, tensor<32xf32>
}

// CHECK-LABEL: util.func public @unpack_and_reductions(
// CHECK-NEXT:    %[[R0:.+]] = flow.dispatch.region -> (tensor<16xf32>) {
// CHECK:           %[[U0:.+]] = linalg.unpack
// CHECK-NEXT:      %[[SUM0:.+]] = linalg.generic {{.+}} ins(%[[U0]] :
// CHECK:           flow.return %[[SUM0]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R1:.+]] = flow.dispatch.region -> (tensor<16x32xf32>) {
// CHECK:           %[[U1:.+]] = linalg.unpack
// CHECK-NEXT:      flow.return %[[U1]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[R2:.+]] = flow.dispatch.region -> (tensor<32xf32>) {
// CHECK:           linalg.generic {{.+}} ins(%[[R1]] :
// CHECK:         util.return %[[R0]], %[[R2]]

// -----

// With aggressive fusion the reduction takes its elementwise producer, which
// is also returned for the reshape outside. The consumer reads that reshape,
// which cannot move above the dispatch (it needs the producer's result), so it
// stays out of that dispatch rather than break dominance; clone-producers then
// gives it a dispatch of its own (the unused tensor.empty it read stays, as in IREE).

#id = affine_map<(d0, d1) -> (d0, d1)>
util.func public @consumer_reads_reshaped_group_value(%a: tensor<4x8xf32>) -> tensor<4x1x8xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.addf %x, %x : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  %2 = tensor.empty() : tensor<4xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4xf32>) -> tensor<4xf32>
  %4 = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<4x8xf32>) outs(%3 : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %5 = tensor.expand_shape %1 [[0], [1, 2]] output_shape [4, 1, 8] : tensor<4x8xf32> into tensor<4x1x8xf32>
  %6 = tensor.empty() : tensor<4x1x8xf32>
  %7 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5, %4 : tensor<4x1x8xf32>, tensor<4xf32>) outs(%6 : tensor<4x1x8xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %d = arith.subf %x, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x1x8xf32>
  util.return %7 : tensor<4x1x8xf32>
}

// AGG-LABEL: util.func public @consumer_reads_reshaped_group_value(
// AGG-NEXT:    %[[R:.+]]:2 = flow.dispatch.region -> (tensor<4xf32>, tensor<4x8xf32>) {
// AGG:           %[[ADD:.+]] = linalg.generic
// AGG:           %[[SUM:.+]] = linalg.generic {{.+}} ins(%[[ADD]] :
// AGG:           flow.return %[[SUM]], %[[ADD]]
// AGG-NEXT:    }
// AGG-NEXT:    %[[X:.+]] = tensor.expand_shape %[[R]]#1
// AGG-NEXT:    tensor.empty
// AGG-NEXT:    %[[SUB:.+]] = flow.dispatch.region
// AGG-NEXT:      tensor.empty
// AGG-NEXT:      linalg.generic {{.+}} ins(%[[X]], %[[R]]#0 :
// AGG:         util.return %[[SUB]]

// -----

// A bit extend (dequantization) is neither a root nor a fused producer: it is
// left outside for clone-producers, which recomputes it in the matmul's dispatch.

util.func public @bit_extend_left_for_cloning(%a: tensor<4x8xi8>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xi8>) outs(%0 : tensor<4x8xf32>) {
  ^bb0(%x: i8, %o: f32):
    %e = arith.sitofp %x : i8 to f32
    linalg.yield %e : f32
  } -> tensor<4x8xf32>
  %2 = tensor.empty() : tensor<4x16xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %4 = linalg.matmul ins(%1, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%3 : tensor<4x16xf32>) -> tensor<4x16xf32>
  util.return %4 : tensor<4x16xf32>
}

// ALONE-LABEL: util.func public @bit_extend_left_for_cloning(
// ALONE:         %[[EXT:.+]] = linalg.generic
// ALONE:         %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// ALONE-NEXT:      linalg.matmul ins(%[[EXT]], %{{.+}} :
// ALONE-NEXT:      flow.return

// CHECK-LABEL: util.func public @bit_extend_left_for_cloning(
// CHECK-NEXT:    %[[R:.+]] = flow.dispatch.region -> (tensor<4x16xf32>) {
// CHECK:           %[[EXT:.+]] = linalg.generic {{.+}} ins(%{{.+}} : tensor<4x8xi8>)
// CHECK:           %[[F:.+]] = linalg.fill
// CHECK-NEXT:      linalg.matmul ins(%[[EXT]], %{{.+}} : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[F]] :
// CHECK-NEXT:      flow.return
// CHECK-NEXT:    }
// CHECK-NEXT:    util.return %[[R]]

// -----

// With aggressive fusion a root's consumers join one at a time, the first use
// only, except that when that first user truncates bit widths (a quantization)
// every truncating user joins.

util.func public @truncating_consumers_join(%a: tensor<4x8xf32>) -> (tensor<4xf16>, tensor<4x8xf16>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %3 = tensor.empty() : tensor<4xf16>
  %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%2 : tensor<4xf32>) outs(%3 : tensor<4xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4xf16>
  %5 = tensor.empty() : tensor<4x8xf16>
  %6 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %2 : tensor<4x8xf32>, tensor<4xf32>) outs(%5 : tensor<4x8xf16>) {
  ^bb0(%x: f32, %s: f32, %o: f16):
    %d = arith.divf %x, %s : f32
    %t = arith.truncf %d : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x8xf16>
  util.return %4, %6 : tensor<4xf16>, tensor<4x8xf16>
}

// Without it, a root with two users takes neither.
// CHECK-LABEL: util.func public @truncating_consumers_join(
// CHECK:         %[[R:.+]] = flow.dispatch.region -> (tensor<4xf32>) {
// CHECK:         flow.dispatch.region -> (tensor<4xf16>) {
// CHECK:         flow.dispatch.region -> (tensor<4x8xf16>) {
// CHECK:           ins(%{{.+}}, %[[R]] :

// AGG-LABEL: util.func public @truncating_consumers_join(
// AGG-NEXT:    %[[R:.+]]:2 = flow.dispatch.region -> (tensor<4xf16>, tensor<4x8xf16>) {
// AGG:           %[[MAX:.+]] = linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]
// AGG:           %[[SCALE:.+]] = linalg.generic {{.+}} ins(%[[MAX]] : tensor<4xf32>)
// AGG:           %[[Q:.+]] = linalg.generic {{.+}} ins(%{{.+}}, %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
// AGG:           flow.return %[[SCALE]], %[[Q]]
// AGG-NEXT:    }
// AGG-NEXT:    util.return %[[R]]#0, %[[R]]#1
