// RUN: mini-iree-opt %s | filecheck %s
// RUN: mini-iree-opt %s | mini-iree-opt | filecheck %s
// RUN: mini-iree-opt %s --mlir-print-op-generic | mini-iree-opt | filecheck %s
// RUN: mini-iree-opt %s --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL

// Printing follows MLIR's AsmPrinter: aliases at the top ordered by depth and
// name, minimal parentheses in affine expressions, MLIR's SSA names (the
// source's names are not kept: `%x` prints as `%arg0`, `%sum` as `%1`), sorted
// attribute dictionaries, and `module`/`return` without their dialect prefix.

// CHECK:      #map = affine_map<(d0, d1)[s0] -> (d0 * 16 + s0, d1 - 1)>
// CHECK-NEXT: #map1 = affine_map<(d0, d1)[s0] -> (s0 ceildiv 16, -d0, d0 - s0 * 4)>
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @names(%arg0: index) -> (index, index) attributes {a = 1 : i32, b = #map, c = #map1} {
// CHECK-NEXT:     %c1 = arith.constant 1 : index
// CHECK-NEXT:     %c1_0 = arith.constant 1 : index
// CHECK-NEXT:     %0:2 = "test.op"(%c1, %c1_0) : (index, index) -> (index, index)
// CHECK-NEXT:     %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:     %c7_i32 = arith.constant 7 : i32
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %1 = arith.addi %arg0, %c1 : index
// CHECK-NEXT:     return %0#0, %0#1 : index, index
// CHECK-NEXT:   }
// CHECK-NEXT: }

// LOCAL-NOT:  #map =
// LOCAL:      attributes {a = 1 : i32, b = affine_map<(d0, d1)[s0] -> (d0 * 16 + s0, d1 - 1)>

func.func @names(%x: index) -> (index, index) attributes {c = affine_map<(d0, d1)[s0] -> (s0 ceildiv 16, d0 * -1, d0 - s0 * 4)>, b = affine_map<(d0, d1)[s0] -> (d0 * 16 + s0, d1 - 1)>, a = 1 : i32} {
  %0 = "arith.constant"() <{value = 1 : index}> : () -> index
  %1 = "arith.constant"() <{value = 1 : index}> : () -> index
  %2:2 = "test.op"(%0, %1) : (index, index) -> (index, index)
  %3 = "arith.constant"() <{value = 1.0 : f32}> : () -> f32
  %4 = "arith.constant"() <{value = 7 : i32}> : () -> i32
  %5 = "arith.constant"() <{value = true}> : () -> i1
  %sum = arith.addi %x, %0 : index
  return %2#0, %2#1 : index, index
}
