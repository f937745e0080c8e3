// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// Bounds and steps mix constants and values; without shared_outs the empty
// `scf.forall.in_parallel` terminator is implicit and not printed.
// CHECK-LABEL: func.func @forall_bounds_no_results
// CHECK: scf.forall (%[[I:.+]], %[[J:.+]]) = (%{{.*}}, 0) to (%{{.*}}, %{{.*}}) step (1, 64) {
// CHECK-NEXT: "test.op"(%[[I]], %[[J]]) : (index, index) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @forall_bounds_no_results(%lb: index, %ub0: index, %ub1: index) {
  scf.forall (%i, %j) = (%lb, 0) to (%ub0, %ub1) step (1, 64) {
    "test.op"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Zero lower bounds and unit steps print in the normalized `in` form.
// CHECK-LABEL: func.func @forall_normalized
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (%{{.*}}, 16) {
func.func @forall_normalized(%n: index) {
  scf.forall (%i, %j) = (0, 0) to (%n, 16) step (1, 1) {
    "test.op"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Bounds defined by constant ops count for the normalized form too, as in MLIR.
// CHECK-LABEL: func.func @forall_normalized_constant_values
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) {
func.func @forall_normalized_constant_values(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%i) = (%c0) to (%n) step (%c1) {
    "test.op"(%i) : (index) -> ()
  }
  return
}

// -----

// The mapping attribute goes in the trailing dictionary, sorted with the
// discardable attributes.
// CHECK-LABEL: func.func @forall_mapping
// CHECK: } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>], some_attr}
func.func @forall_mapping(%m: index, %n: index) {
  scf.forall (%i, %j) in (%m, %n) {
    "test.op"(%i, %j) : (index, index) -> ()
  } {some_attr, mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}

// -----

// CHECK-LABEL: func.func @forall_shared_outs
// CHECK: %[[R:.+]] = scf.forall (%[[I:.+]], %[[J:.+]]) = (0, 0) to (%{{.*}}, %{{.*}}) step (64, 64) shared_outs(%[[O:.+]] = %{{.*}}) -> (tensor<?x?xf32>) {
// CHECK-NEXT: %[[T:.+]] = "test.op"() : () -> tensor<64x64xf32>
// CHECK-NEXT: scf.forall.in_parallel {
// CHECK-NEXT: tensor.parallel_insert_slice %[[T]] into %[[O]][%[[I]], %[[J]]] [64, 64] [1, 1] : tensor<64x64xf32> into tensor<?x?xf32>
// CHECK-NEXT: }
// CHECK-NEXT: } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
// CHECK-NEXT: return %[[R]]
func.func @forall_shared_outs(%init: tensor<?x?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {
  %0 = scf.forall (%i, %j) = (0, 0) to (%m, %n) step (64, 64) shared_outs(%o = %init) -> (tensor<?x?xf32>) {
    %t = "test.op"() : () -> tensor<64x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i, %j] [64, 64] [1, 1] : tensor<64x64xf32> into tensor<?x?xf32>
    }
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return %0 : tensor<?x?xf32>
}

// -----

// A nested loop writing into its parent's shared output, with dynamic slice sizes.
// CHECK-LABEL: func.func @forall_nested_shared_outs
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (%{{.*}}, %{{.*}}) shared_outs(%[[O:.+]] = %{{.*}}) -> (tensor<?x?xf32>) {
// CHECK: %[[INNER:.+]] = scf.forall (%{{.*}}) in (256) shared_outs(%[[O2:.+]] = %[[O]]) -> (tensor<?x?xf32>) {
// CHECK: tensor.parallel_insert_slice %{{.*}} into %[[O2]][0, 0] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
// CHECK: tensor.parallel_insert_slice %[[INNER]] into %[[O]][0, 0] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
func.func @forall_nested_shared_outs(%init: tensor<?x?xf32>, %t: tensor<?x?xf32>, %m: index, %n: index) -> tensor<?x?xf32> {
  %0 = scf.forall (%i, %j) in (%m, %n) shared_outs(%o = %init) -> (tensor<?x?xf32>) {
    %1 = scf.forall (%k) in (256) shared_outs(%o2 = %o) -> (tensor<?x?xf32>) {
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %t into %o2[0, 0] [%m, %n] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
      }
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %1 into %o[0, 0] [%m, %n] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
    }
  }
  return %0 : tensor<?x?xf32>
}

// -----

// A rank-reducing insert: the unit dimension of the slice is dropped from the source.
// CHECK-LABEL: func.func @parallel_insert_slice_rank_reducing
// CHECK: tensor.parallel_insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<100x4xf32>
func.func @parallel_insert_slice_rank_reducing(%init: tensor<100x4xf32>, %t: tensor<4xf32>) -> tensor<100x4xf32> {
  %0 = scf.forall (%i) in (100) shared_outs(%o = %init) -> (tensor<100x4xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i, 0] [1, 4] [1, 1] : tensor<4xf32> into tensor<100x4xf32>
    }
  }
  return %0 : tensor<100x4xf32>
}

// -----

// xDSL's scf.for/if/yield already print like MLIR.
// CHECK-LABEL: func.func @for_iter_args
// CHECK: %[[R:.+]] = scf.for %[[IV:.+]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.+]] = %{{.*}}) -> (tensor<4xf32>) {
// CHECK-NEXT: scf.yield %[[A]] : tensor<4xf32>
// CHECK-NEXT: }
func.func @for_iter_args(%lb: index, %ub: index, %step: index, %t: tensor<4xf32>) -> tensor<4xf32> {
  %0 = scf.for %iv = %lb to %ub step %step iter_args(%a = %t) -> (tensor<4xf32>) {
    scf.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @for_if_no_results
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @for_if_no_results(%lb: index, %ub: index, %step: index, %cond: i1, %m: memref<?xf32>, %v: f32) {
  scf.for %iv = %lb to %ub step %step {
    scf.if %cond {
      memref.store %v, %m[%iv] : memref<?xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @if_results
// CHECK: %{{.*}}:2 = scf.if %{{.*}} -> (tensor<4xf32>, index) {
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}} : tensor<4xf32>, index
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %{{.*}}, %{{.*}} : tensor<4xf32>, index
// CHECK-NEXT: }
func.func @if_results(%cond: i1, %a: tensor<4xf32>, %b: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  %0:2 = scf.if %cond -> (tensor<4xf32>, index) {
    scf.yield %a, %i : tensor<4xf32>, index
  } else {
    scf.yield %b, %i : tensor<4xf32>, index
  }
  return %0#0 : tensor<4xf32>
}

// -----

// With shared_outs the terminator is printed even when it is empty.
// CHECK-LABEL: func.func @forall_empty_in_parallel
// CHECK: scf.forall (%{{.*}}) in (4) shared_outs(%{{.*}} = %{{.*}}) -> (tensor<4xf32>) {
// CHECK-NEXT: scf.forall.in_parallel {
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @forall_empty_in_parallel(%init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %0 : tensor<4xf32>
}

// -----

// Dump 23's padding loops: a workgroup-level forall holding a thread-level one whose
// bounds are the workgroup tile's, each with its own mapping.
// CHECK-LABEL: func.func @forall_thread_mapping
// CHECK:       scf.forall (%[[I:.+]], %[[J:.+]]) = (%{{.+}}, 0) to (%{{.+}}, %{{.+}}) step (1, 64) {
// CHECK-NEXT:    %[[U:.+]] = affine.min
// CHECK-NEXT:    %[[V:.+]] = affine.min
// CHECK-NEXT:    scf.forall (%[[TI:.+]], %[[TJ:.+]]) = (%[[I]], %[[J]]) to (%[[U]], %[[V]]) step (1, 1) {
// CHECK-NEXT:      "test.op"(%[[TI]], %[[TJ]]) : (index, index) -> ()
// CHECK-NEXT:    } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
// CHECK-NEXT:  } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>]}
func.func @forall_thread_mapping(%lo: index, %m: index, %n: index) {
  scf.forall (%i, %j) = (%lo, 0) to (%m, %n) step (1, 64) {
    %u = affine.min affine_map<(d0)[s0] -> (d0 + 1, s0)>(%i)[%m]
    %v = affine.min affine_map<(d0)[s0] -> (d0 + 64, s0)>(%j)[%n]
    scf.forall (%ti, %tj) = (%i, %j) to (%u, %v) step (1, 1) {
      "test.op"(%ti, %tj) : (index, index) -> ()
    } {mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]}
  } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>]}
  return
}

// -----

// MLIR reads a single result type without parentheses after `->` (IREE's tests write it so);
// it prints them.
// CHECK-LABEL: func.func @single_result_types_unparenthesized
// CHECK:         scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %{{.+}}) -> (tensor<4xf32>) {
// CHECK:         scf.if %{{.+}} -> (tensor<4xf32>) {
func.func @single_result_types_unparenthesized(%a: tensor<4xf32>, %n: index, %c: i1) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<4xf32> {
    scf.yield %acc : tensor<4xf32>
  }
  %s = scf.if %c -> tensor<4xf32> {
    scf.yield %r : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  return %s : tensor<4xf32>
}
