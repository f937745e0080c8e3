// RUN: mini-iree-opt %s -p canonicalize --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p canonicalize --split-input-file --verify-each-with-interpreter 2>&1 >/dev/null | filecheck %s --check-prefix=KEPT

// MLIR's folds and canonicalizations of tensor.dim: a static extent is a
// constant; the dim of tensor.empty or of a same-rank tensor.extract_slice is
// the size it was given; through tensor.cast and destination-style ops (the
// result of linalg.fill or linalg.matmul has the shape of its init) the dim is
// read off the source. A chain of matmuls then reads every row count off the
// first input, as IREE's dumps do.

func.func @matmul_chain(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>, %arg2: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 0.000000e+00 : f32
  %m0 = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %n0 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%m0, %n0) : tensor<?x?xf32>
  %f0 = linalg.fill ins(%cst : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %x1 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %m1 = tensor.dim %x1, %c0 : tensor<?x?xf32>
  %n1 = tensor.dim %arg2, %c1 : tensor<?x?xf32>
  %e1 = tensor.empty(%m1, %n1) : tensor<?x?xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %x2 = linalg.matmul ins(%x1, %arg2 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %x2 : tensor<?x?xf32>
}
// CHECK-LABEL: func.func @matmul_chain(
// CHECK:         %[[M0:.+]] = tensor.dim %arg0, %c0
// CHECK:         %[[X1:.+]] = linalg.matmul
// CHECK-NOT:     tensor.dim %[[X1]]
// CHECK:         tensor.empty(%[[M0]], %{{.+}})
// KEPT: pass 'canonicalize' kept the results of 1 function

// -----

func.func @dims(%arg0: tensor<4x?xf32>) -> (index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %static = tensor.dim %arg0, %c0 : tensor<4x?xf32>
  %n = tensor.dim %arg0, %c1 : tensor<4x?xf32>
  %half = arith.divui %n, %c2 : index
  %e = tensor.empty(%half) : tensor<2x?xf32>
  %of_empty = tensor.dim %e, %c1 : tensor<2x?xf32>
  %s = tensor.extract_slice %arg0[0, %half] [2, %half] [1, 1] : tensor<4x?xf32> to tensor<2x?xf32>
  %of_slice = tensor.dim %s, %c1 : tensor<2x?xf32>
  %cast = tensor.cast %arg0 : tensor<4x?xf32> to tensor<?x?xf32>
  %of_cast = tensor.dim %cast, %c1 : tensor<?x?xf32>
  return %static, %of_empty, %of_slice, %of_cast, %n : index, index, index, index, index
}
// CHECK-LABEL: func.func @dims(
// CHECK-SAME:    %[[T:[a-z0-9]+]]: tensor<4x?xf32>
// CHECK-DAG:     %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK:         %[[N:.+]] = tensor.dim %[[T]], %[[C1]] : tensor<4x?xf32>
// CHECK:         %[[HALF:.+]] = arith.divui %[[N]]
// CHECK:         %[[N2:.+]] = tensor.dim %[[T]], %[[C1]] : tensor<4x?xf32>
// CHECK:         return %[[C4]], %[[HALF]], %[[HALF]], %[[N2]], %[[N]]
// KEPT: pass 'canonicalize' kept the results of 1 function
