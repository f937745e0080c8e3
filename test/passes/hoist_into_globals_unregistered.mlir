// RUN: mini-iree-opt %s -p iree-util-hoist-into-globals --allow-unregistered-dialect | filecheck %s

// Not executable (the interpreter runs no unregistered op), so kept apart from
// hoist_into_globals.mlir, whose every case runs before and after the pass.

// Ops of unregistered dialects have unknown effects and are never const-expr,
// except the stand-ins IREE's analysis knows: `const_expr` (hoistable),
// `non_leaf_const_expr` (part of a tree, never a global alone) and
// `var_expr` (never constant). A nested region's capture of a constant comes
// along into the initializer.

util.func public @unregistered_stand_ins() -> (i32, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  %0 = "iree_unregistered.non_leaf_const_expr"(%c1) : (i32) -> i32
  %1 = "iree_unregistered.const_expr"(%0) ({
  ^bb0(%x: i32):
    %s = arith.addi %x, %c5 : i32
    "iree_unregistered.yield"(%s) : (i32) -> ()
  }) : (i32) -> i32
  %2 = "iree_unregistered.var_expr"(%c1) : (i32) -> i32
  %3 = "some_dialect.op"(%c1) : (i32) -> i32
  %4 = "iree_unregistered.non_leaf_const_expr"(%c5) : (i32) -> i32
  util.return %1, %2, %3, %4 : i32, i32, i32, i32
}

// CHECK:      util.global private @__hoisted_i32 : i32
// CHECK-NEXT: util.initializer {
// CHECK-DAG:    %[[C1:.+]] = arith.constant 1 : i32
// CHECK-DAG:    %[[C5:.+]] = arith.constant 5 : i32
// CHECK:        %[[NL:.+]] = "iree_unregistered.non_leaf_const_expr"(%[[C1]])
// CHECK-NEXT:   %[[CE:.+]] = "iree_unregistered.const_expr"(%[[NL]]) ({
// CHECK-NEXT:   ^bb0(%[[X:.+]]: i32):
// CHECK-NEXT:     arith.addi %[[X]], %[[C5]] : i32
// CHECK:        util.global.store %[[CE]], @__hoisted_i32 : i32
// CHECK-NOT:  util.global
// CHECK-LABEL: util.func public @unregistered_stand_ins(
// CHECK:        %[[G:.+]] = util.global.load immutable @__hoisted_i32 : i32
// CHECK:        %[[V:.+]] = "iree_unregistered.var_expr"
// CHECK-NEXT:   %[[O:.+]] = "some_dialect.op"
// CHECK-NEXT:   %[[N:.+]] = "iree_unregistered.non_leaf_const_expr"
// CHECK-NEXT:   util.return %[[G]], %[[V]], %[[O]], %[[N]]

