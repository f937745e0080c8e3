// RUN: mini-iree-run %s --function=ranks --input=i32=7 --input=5 | filecheck %s

// Results print as iree-run-module prints them: tensors as buffer views
// (rank 0 without brackets, rank 1 bare, one bracket level per further
// dimension), scalars with their type.

// CHECK:      EXEC @ranks
// CHECK-NEXT: result[0]: hal.buffer_view
// CHECK-NEXT: i32=7
// CHECK-NEXT: result[1]: hal.buffer_view
// CHECK-NEXT: 3xi8=1 -2 127
// CHECK-NEXT: result[2]: hal.buffer_view
// CHECK-NEXT: 2x2x2xf32={{\[\[}}0.5 1][1.5 2]]{{\[\[}}2.5 3][3.5 4]]
// CHECK-NEXT: result[3]: i64=5
// CHECK-NEXT: result[4]: f32=1.25E-07
func.func @ranks(%a: tensor<i32>, %n: index) -> (tensor<i32>, tensor<3xi8>, tensor<2x2x2xf32>, index, f32) {
  %b = arith.constant dense<[1, -2, 127]> : tensor<3xi8>
  %c = arith.constant dense<[[[0.5, 1.0], [1.5, 2.0]], [[2.5, 3.0], [3.5, 4.0]]]> : tensor<2x2x2xf32>
  %f = arith.constant 1.25e-07 : f32
  return %a, %b, %c, %n, %f : tensor<i32>, tensor<3xi8>, tensor<2x2x2xf32>, index, f32
}

func.func private @not_an_entry_point() {
  return
}
