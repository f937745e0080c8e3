// RUN: mini-iree-opt %s -p iree-codegen-gpu-generalize-named-ops --split-input-file | filecheck %s

// A transpose becomes the generic dumps 20/21 print: the input read through the inverse
// permutation, `%in`/`%out` block arguments, no result name of its own.
// CHECK-DAG:   #[[$IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d4, d2, d5, d6, d3)>
// CHECK-DAG:   #[[$ID:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>
// CHECK-LABEL: func.func @transpose(
// CHECK-SAME:      %[[A:.+]]: tensor<?x?x4x8x4x4x4xf32>, %[[B:.+]]: tensor<?x?x8x4x4x4x4xf32>)
// CHECK-NEXT:    %[[G:[0-9]+]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[A]] : tensor<?x?x4x8x4x4x4xf32>) outs(%[[B]] : tensor<?x?x8x4x4x4x4xf32>) {
// CHECK-NEXT:    ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:      linalg.yield %in : f32
// CHECK-NEXT:    } -> tensor<?x?x8x4x4x4x4xf32>
// CHECK-NEXT:    return %[[G]]
func.func @transpose(%a: tensor<?x?x4x8x4x4x4xf32>, %b: tensor<?x?x8x4x4x4x4xf32>) -> tensor<?x?x8x4x4x4x4xf32> {
  %t = linalg.transpose ins(%a : tensor<?x?x4x8x4x4x4xf32>) outs(%b : tensor<?x?x8x4x4x4x4xf32>) permutation = [0, 1, 3, 6, 2, 4, 5]
  return %t : tensor<?x?x8x4x4x4x4xf32>
}

// -----

// A mixed-precision matmul keeps its body (the extensions, multiply and add); a
// lowering_config set by the user is carried over.
// CHECK-DAG:   #[[$A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[$B:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[$C:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG:   #[[$CONFIG:.+]] = #iree_codegen.lowering_config<tile_sizes = {{\[}}[4, 16, 8]]>
// CHECK-LABEL: func.func @matmul(
// CHECK-NEXT:    %[[G:.+]] = linalg.generic {indexing_maps = [#[[$A]], #[[$B]], #[[$C]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<4x8xi8>, tensor<8x16xi8>) outs(%{{.+}} : tensor<4x16xi32>) attrs = {lowering_config = #[[$CONFIG]]} {
// CHECK-NEXT:    ^bb0(%in: i8, %in_0: i8, %out: i32):
// CHECK-NEXT:      %[[X:.+]] = arith.extsi %in : i8 to i32
// CHECK-NEXT:      %[[Y:.+]] = arith.extsi %in_0 : i8 to i32
// CHECK-NEXT:      %[[M:.+]] = arith.muli %[[X]], %[[Y]] : i32
// CHECK-NEXT:      %[[S:.+]] = arith.addi %out, %[[M]] : i32
// CHECK-NEXT:      linalg.yield %[[S]] : i32
// CHECK-NEXT:    } -> tensor<4x16xi32>
func.func @matmul(%a: tensor<4x8xi8>, %b: tensor<8x16xi8>, %c: tensor<4x16xi32>) -> tensor<4x16xi32> {
  %0 = linalg.matmul {lowering_config = #iree_codegen.lowering_config<tile_sizes = [[4, 16, 8]]>} ins(%a, %b : tensor<4x8xi8>, tensor<8x16xi8>) outs(%c : tensor<4x16xi32>) -> tensor<4x16xi32>
  return %0 : tensor<4x16xi32>
}

// -----

// Batch matmul, matvec and vecmat too; a matmul with transposed-operand maps keeps them.
// CHECK-DAG:   #[[$BT:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-LABEL: func.func @contractions(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins({{.*}} : tensor<2x4x8xf32>, tensor<2x8x16xf32>)
// CHECK:         } -> tensor<2x4x16xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins({{.*}} : tensor<4x8xf32>, tensor<8xf32>)
// CHECK:         } -> tensor<4xf32>
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins({{.*}} : tensor<4xf32>, tensor<4x8xf32>)
// CHECK:         } -> tensor<8xf32>
// CHECK:         linalg.generic {indexing_maps = [#{{.+}}, #[[$BT]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<4x8xf32>, tensor<16x8xf32>)
func.func @contractions(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %c: tensor<2x4x16xf32>,
                        %m: tensor<4x8xf32>, %v: tensor<8xf32>, %r: tensor<4xf32>, %w: tensor<4xf32>, %s: tensor<8xf32>,
                        %bt: tensor<16x8xf32>, %acc: tensor<4x16xf32>)
    -> (tensor<2x4x16xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4x16xf32>) {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%c : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %1 = linalg.matvec ins(%m, %v : tensor<4x8xf32>, tensor<8xf32>) outs(%r : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.vecmat ins(%w, %m : tensor<4xf32>, tensor<4x8xf32>) outs(%s : tensor<8xf32>) -> tensor<8xf32>
  %3 = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%m, %bt : tensor<4x8xf32>, tensor<16x8xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0, %1, %2, %3 : tensor<2x4x16xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4x16xf32>
}

// -----

// Ops outside IREE's list stay named: fill, copy, mmt4d, pack.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    linalg.mmt4d
// CHECK-NEXT:    linalg.pack
// CHECK-NOT:     linalg.generic
func.func @left_alone(%x: f32, %t: tensor<4x4xf32>, %l: tensor<2x3x8x1xf32>, %r: tensor<4x3x8x1xf32>, %o: tensor<2x4x8x8xf32>, %p: tensor<2x4x2x1xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x4x8x8xf32>, tensor<2x4x2x1xf32>) {
  %0 = linalg.fill ins(%x : f32) outs(%t : tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = linalg.copy ins(%0 : tensor<4x4xf32>) outs(%t : tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = linalg.mmt4d ins(%l, %r : tensor<2x3x8x1xf32>, tensor<4x3x8x1xf32>) outs(%o : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %3 = linalg.pack %1 inner_dims_pos = [0, 1] inner_tiles = [2, 1] into %p : tensor<4x4xf32> -> tensor<2x4x2x1xf32>
  return %1, %1, %2, %3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<2x4x8x8xf32>, tensor<2x4x2x1xf32>
}
