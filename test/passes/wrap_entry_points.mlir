// RUN: mini-iree-opt %s -p iree-abi-wrap-entry-points --split-input-file | filecheck %s

// The walkthrough's entry point (dump 00 before dispatch regions): one
// hal.buffer_view.dim per dynamic size, then the import; tensor.dim of an
// imported tensor becomes the import's size and the export reuses those sizes.
// IREE 3.13 also attaches iree.abi.stub / iree.reflection and wraps imports and
// exports in iree_tensor_ext.compute_barrier ops; the walkthrough prints
// neither, and neither does this pass.

func.func @matmul_dynamic(%arg0: tensor<?x?xf32>, %arg1: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = tensor.dim %arg0, %c0 : tensor<?x?xf32>
  %dim_0 = tensor.dim %arg1, %c1 : tensor<?x?xf32>
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty(%dim, %dim_0) : tensor<?x?xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%arg0, %arg1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// CHECK-LABEL: util.func public @matmul_dynamic(
// CHECK-SAME:      %[[A0:.+]]: !hal.buffer_view, %[[A1:.+]]: !hal.buffer_view) -> !hal.buffer_view {
// CHECK-NEXT:    %[[M:.+]] = hal.buffer_view.dim<%[[A0]] : !hal.buffer_view>[0] : index
// CHECK-NEXT:    %[[K:.+]] = hal.buffer_view.dim<%[[A0]] : !hal.buffer_view>[1] : index
// CHECK-NEXT:    %[[LHS:.+]] = hal.tensor.import %[[A0]] "input0" : !hal.buffer_view -> tensor<?x?xf32>{%[[M]], %[[K]]}
// CHECK-NEXT:    %[[K2:.+]] = hal.buffer_view.dim<%[[A1]] : !hal.buffer_view>[0] : index
// CHECK-NEXT:    %[[N:.+]] = hal.buffer_view.dim<%[[A1]] : !hal.buffer_view>[1] : index
// CHECK-NEXT:    %[[RHS:.+]] = hal.tensor.import %[[A1]] "input1" : !hal.buffer_view -> tensor<?x?xf32>{%[[K2]], %[[N]]}
// CHECK-NEXT:    %[[CST:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[EMPTY:.+]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK-NEXT:    %[[FILL:.+]] = linalg.fill ins(%[[CST]] : f32) outs(%[[EMPTY]] : tensor<?x?xf32>)
// CHECK-NEXT:    %[[MM:.+]] = linalg.matmul ins(%[[LHS]], %[[RHS]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[FILL]] : tensor<?x?xf32>)
// CHECK-NEXT:    %[[OUT:.+]] = hal.tensor.export %[[MM]] "output0" : tensor<?x?xf32>{%[[M]], %[[N]]} -> !hal.buffer_view
// CHECK-NEXT:    util.return %[[OUT]] : !hal.buffer_view
// CHECK-NEXT:  }
// CHECK-NOT:   tensor.dim
// CHECK-NOT:   func.func

// -----

// Static tensors need no hal.buffer_view.dim; scalars pass through, and the
// input/output numbers count every argument and result.

func.func @static_with_scalars(%a: tensor<4x8xf32>, %s: f32, %n: index, %b: tensor<4x8xf32>) -> (index, tensor<4x8xf32>) {
  %0 = tensor.empty() : tensor<4x8xf32>
  %1 = linalg.fill ins(%s : f32) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %n, %1 : index, tensor<4x8xf32>
}

// CHECK-LABEL: util.func public @static_with_scalars(
// CHECK-SAME:      %[[A:.+]]: !hal.buffer_view, %[[S:.+]]: f32, %[[N:.+]]: index, %[[B:.+]]: !hal.buffer_view) -> (index, !hal.buffer_view) {
// CHECK-NEXT:    hal.tensor.import %[[A]] "input0" : !hal.buffer_view -> tensor<4x8xf32>
// CHECK-NEXT:    hal.tensor.import %[[B]] "input3" : !hal.buffer_view -> tensor<4x8xf32>
// CHECK-NEXT:    %[[EMPTY:.+]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:    %[[FILL:.+]] = linalg.fill ins(%[[S]] : f32) outs(%[[EMPTY]] : tensor<4x8xf32>)
// CHECK-NEXT:    %[[OUT:.+]] = hal.tensor.export %[[FILL]] "output1" : tensor<4x8xf32> -> !hal.buffer_view
// CHECK-NEXT:    util.return %[[N]], %[[OUT]] : index, !hal.buffer_view

// -----

// Several results, each exported with the sizes it is known by: an argument
// returned as it is reuses its import's sizes. A tensor.dim of a static axis
// folds to a constant.

func.func @several_results(%a: tensor<?x8xf32>, %b: tensor<8x?xf32>) -> (tensor<8x?xf32>, tensor<?x8xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x8xf32>
  %k = tensor.dim %a, %c1 : tensor<?x8xf32>
  %sum = arith.addi %m, %k : index
  %0 = tensor.empty(%sum) : tensor<?xf32>
  return %b, %a, %0 : tensor<8x?xf32>, tensor<?x8xf32>, tensor<?xf32>
}

// CHECK-LABEL: util.func public @several_results(
// CHECK-SAME:      -> (!hal.buffer_view, !hal.buffer_view, !hal.buffer_view)
// CHECK-NEXT:    %[[M:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view>[0] : index
// CHECK-NEXT:    %[[A:.+]] = hal.tensor.import %{{.+}} "input0" : !hal.buffer_view -> tensor<?x8xf32>{%[[M]]}
// CHECK-NEXT:    %[[N:.+]] = hal.buffer_view.dim<%{{.+}} : !hal.buffer_view>[1] : index
// CHECK-NEXT:    %[[B:.+]] = hal.tensor.import %{{.+}} "input1" : !hal.buffer_view -> tensor<8x?xf32>{%[[N]]}
// CHECK-NEXT:    %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SUM:.+]] = arith.addi %[[M]], %[[C8]] : index
// CHECK-NEXT:    %[[E:.+]] = tensor.empty(%[[SUM]]) : tensor<?xf32>
// CHECK-NEXT:    %[[R0:.+]] = hal.tensor.export %[[B]] "output0" : tensor<8x?xf32>{%[[N]]} -> !hal.buffer_view
// CHECK-NEXT:    %[[R1:.+]] = hal.tensor.export %[[A]] "output1" : tensor<?x8xf32>{%[[M]]} -> !hal.buffer_view
// CHECK-NEXT:    %[[R2:.+]] = hal.tensor.export %[[E]] "output2" : tensor<?xf32>{%[[SUM]]} -> !hal.buffer_view
// CHECK-NEXT:    util.return %[[R0]], %[[R1]], %[[R2]]

// -----

// Private functions, public functions another function calls, and functions
// without tensors keep their func.func form, so every func.call still has its
// callee. The public caller is an entry point and is wrapped.

func.func private @private_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @called_public(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @entry(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @private_helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @called_public(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
func.func @scalars_only(%a: f32) -> f32 {
  return %a : f32
}

// CHECK:       func.func private @private_helper(%{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK:       func.func @called_public(%{{.+}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: util.func public @entry(
// CHECK-SAME:      %[[ARG:.+]]: !hal.buffer_view) -> !hal.buffer_view
// CHECK-NEXT:    %[[IN:.+]] = hal.tensor.import %[[ARG]] "input0" : !hal.buffer_view -> tensor<4xf32>
// CHECK-NEXT:    %[[H:.+]] = func.call @private_helper(%[[IN]])
// CHECK-NEXT:    %[[C:.+]] = func.call @called_public(%[[H]])
// CHECK-NEXT:    %[[OUT:.+]] = hal.tensor.export %[[C]] "output0" : tensor<4xf32> -> !hal.buffer_view
// CHECK:       func.func @scalars_only(%{{.+}}: f32) -> f32
