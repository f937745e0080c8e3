// RUN: mini-iree-opt %s -p iree-dispatch-creation-remove-tensor-barriers --split-input-file | filecheck %s
// RUN: mini-iree-opt %s -p iree-dispatch-creation-remove-tensor-barriers --split-input-file --verify-each-with-interpreter -o /dev/null

// IREE 3.13's barriers on a function's inputs and results forward their operands.
// CHECK-LABEL: util.func public @barriers(
// CHECK-SAME:      %[[ARG:.+]]: tensor<?x4xf32>, %{{.+}}: index)
// CHECK-NOT:     compute_barrier
// CHECK:         %[[SUM:.+]] = arith.addf %[[ARG]], %[[ARG]] : tensor<?x4xf32>
// CHECK-NEXT:    util.return %[[SUM]] : tensor<?x4xf32>
util.func public @barriers(%arg0: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %named = iree_tensor_ext.compute_barrier.start %arg0 : tensor<?x4xf32>{%n} -> tensor<?x4xf32>
  %0 = arith.addf %named, %named : tensor<?x4xf32>
  %1 = iree_tensor_ext.compute_barrier.end %0 : tensor<?x4xf32>{%n} -> tensor<?x4xf32>
  util.return %1 : tensor<?x4xf32>
}

// -----

// Nothing else changes.
// CHECK-LABEL: util.func public @no_barriers(
// CHECK-NEXT:    %[[SUM:.+]] = arith.addi
// CHECK-NEXT:    util.return %[[SUM]]
util.func public @no_barriers(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  util.return %0 : i32
}
