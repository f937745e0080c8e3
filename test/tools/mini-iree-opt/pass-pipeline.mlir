// RUN: mini-iree-opt %s -p cse | filecheck %s
// RUN: mini-iree-opt %s --pass-pipeline='builtin.module(func.func(cse))' | filecheck %s
// RUN: mini-iree-opt %s --pass-pipeline='builtin.module(util.func(cse), func.func(dce))' | filecheck %s
// RUN: mini-iree-opt %s --pass-pipeline='builtin.module(cse,dce)' --mlir-print-ir-after-all 2> %t.dump | filecheck %s
// RUN: filecheck %s --check-prefix=DUMP --input-file %t.dump
// RUN: mini-iree-opt %s -p cse --mlir-print-ir-tree-dir=%t.tree > /dev/null
// RUN: filecheck %s --check-prefix=TREE --input-file %t.tree/builtin_module_no-symbol-name/0_cse.mlir

// CHECK-LABEL: func.func @two_equal_constants
// CHECK-NEXT:    %c4 = arith.constant 4 : index
// CHECK-NEXT:    return %c4, %c4 : index, index
func.func @two_equal_constants() -> (index, index) {
  %c4 = arith.constant 4 : index
  %c4_0 = arith.constant 4 : index
  return %c4, %c4_0 : index, index
}

// DUMP:      // -----// IR Dump After CommonSubexpressionElimination: cse //----- //
// DUMP-NEXT: module {
// DUMP:      // -----// IR Dump After DeadCodeElimination: dce //----- //

// TREE:      // -----// IR Dump After CommonSubexpressionElimination: cse //----- //
// TREE-NEXT: module {
