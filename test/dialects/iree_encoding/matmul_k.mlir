// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL

// `#iree_encoding.matmul_k` records only which dimensions of a tensor a matmul
// reduces; it is a valid encoding for set/unset_encoding and aliases as #encoding.
#lhs = #iree_encoding.matmul_k<k_dims = [1]>
#acc = #iree_encoding.matmul_k<k_dims = []>
func.func @set_and_unset(%arg0: tensor<?x?xf32>, %arg1: tensor<4x8xf32, #acc>, %d: index) -> (tensor<?x?xf32, #lhs>, tensor<4x8xf32>) {
  %0 = iree_encoding.set_encoding %arg0 : tensor<?x?xf32> -> tensor<?x?xf32, #lhs>
  %1 = iree_encoding.unset_encoding %arg1 : tensor<4x8xf32, #acc> -> tensor<4x8xf32>
  return %0, %1 : tensor<?x?xf32, #lhs>, tensor<4x8xf32>
}
// Aliases are numbered in printing order: the argument's encoding comes first.
// CHECK:      #encoding = #iree_encoding.matmul_k<k_dims = []>
// CHECK-NEXT: #encoding1 = #iree_encoding.matmul_k<k_dims = [1]>
// CHECK-LABEL: func.func @set_and_unset(
// CHECK-SAME:      %{{.+}}: tensor<?x?xf32>, %{{.+}}: tensor<4x8xf32, #encoding>, %{{.+}}: index)
// CHECK:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #encoding1>
// CHECK:         iree_encoding.unset_encoding %{{.+}} : tensor<4x8xf32, #encoding> -> tensor<4x8xf32>
// LOCAL-LABEL: func.func @set_and_unset(
// LOCAL:         iree_encoding.set_encoding %{{.+}} : tensor<?x?xf32> -> tensor<?x?xf32, #iree_encoding.matmul_k<k_dims = [1]>>

// -----

// Several reduced dimensions, in the order the K loops come.
func.func @several_k_dims(%arg0: tensor<2x3x4xf32, #iree_encoding.matmul_k<k_dims = [2, 0]>>) -> tensor<2x3x4xf32, #iree_encoding.matmul_k<k_dims = [2, 0]>> {
  return %arg0 : tensor<2x3x4xf32, #iree_encoding.matmul_k<k_dims = [2, 0]>>
}
// CHECK:      #encoding = #iree_encoding.matmul_k<k_dims = [2, 0]>
// CHECK-LABEL: func.func @several_k_dims(
