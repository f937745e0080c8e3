// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @forall_wrong_num_results(%out: tensor<100xf32>) {
  %c100 = arith.constant 100 : index
  // expected-error @+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %0:2 = scf.forall (%i) in (%c100) shared_outs(%o = %out) -> (tensor<100xf32>, tensor<100xf32>) {
  }
  return
}

// -----

func.func @forall_results_outputs_mismatch(%out: tensor<100xf32>) {
  // expected-error @+1 {{'scf.forall' op produces 0 results, but has only 1 outputs}}
  "scf.forall"(%out) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %o: tensor<100xf32>):
    scf.forall.in_parallel {
    }
  }) : (tensor<100xf32>) -> ()
  return
}

// -----

func.func @forall_region_arg_count(%n: index) {
  // expected-error @+1 {{'scf.forall' op region expects 1 arguments}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %j: index):
    scf.forall.in_parallel {
    }
  }) : (index) -> ()
  return
}

// -----

func.func @forall_induction_var_type(%n: index) {
  // expected-error @+1 {{'scf.forall' op expects 0-th block argument to be an index}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: i32):
    scf.forall.in_parallel {
    }
  }) : (index) -> ()
  return
}

// -----

func.func @forall_output_arg_type(%out: tensor<100xf32>) -> tensor<100xf32> {
  // expected-error @+1 {{'scf.forall' op type mismatch between 0-th output and corresponding block argument}}
  %0 = "scf.forall"(%out) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index, %o: tensor<4xf32>):
    scf.forall.in_parallel {
    }
  }) : (tensor<100xf32>) -> tensor<100xf32>
  return %0 : tensor<100xf32>
}

// -----

func.func @forall_mapping_size(%n: index) {
  // expected-error @+1 {{'scf.forall' op mapping attribute size must match op rank}}
  scf.forall (%i, %j) in (%n, %n) {
  } {mapping = [#iree_codegen.workgroup_mapping<x>, #iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<z>]}
  return
}

// -----

func.func @forall_bound_count(%n: index) {
  // expected-error @+1 {{'scf.forall' op expected 1 upper bound values, got 2}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808, 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {
    }
  }) : (index) -> ()
  return
}

// -----

func.func @forall_dynamic_bound_count(%n: index) {
  // expected-error @+1 {{'scf.forall' op expected 0 dynamic upper bound values}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: 4>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index):
    scf.forall.in_parallel {
    }
  }) : (index) -> ()
  return
}

// -----

func.func @forall_wrong_terminator(%n: index) {
  // expected-error @+1 {{'scf.forall' op expects regions to end with 'scf.forall.in_parallel', found 'scf.yield'}}
  "scf.forall"(%n) <{operandSegmentSizes = array<i32: 0, 1, 0, 0>, staticLowerBound = array<i64: 0>, staticUpperBound = array<i64: -9223372036854775808>, staticStep = array<i64: 1>}> ({
  ^bb0(%i: index):
    scf.yield
  }) : (index) -> ()
  return
}

// -----

func.func @in_parallel_only_combining_ops(%t: tensor<1xf32>, %out: tensor<100xf32>) -> tensor<100xf32> {
  %0 = scf.forall (%i) in (100) shared_outs(%o = %out) -> (tensor<100xf32>) {
    // expected-error @+1 {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%i] [1] [1] : tensor<1xf32> into tensor<100xf32>
      %c1 = arith.constant 1 : index
    }
  }
  return %0 : tensor<100xf32>
}

// -----

func.func @in_parallel_insert_into_output_arg(%t: tensor<1xf32>, %out: tensor<100xf32>) -> tensor<100xf32> {
  %0 = scf.forall (%i) in (100) shared_outs(%o = %out) -> (tensor<100xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{'tensor.parallel_insert_slice' op may only insert into an output block argument}}
      tensor.parallel_insert_slice %t into %out[%i] [1] [1] : tensor<1xf32> into tensor<100xf32>
    }
  }
  return %0 : tensor<100xf32>
}

// -----

func.func @in_parallel_parent() {
  "test.op"() ({
    // expected-error @+1 {{'scf.forall.in_parallel' op expects parent op 'scf.forall'}}
    scf.forall.in_parallel {
    }
  }) : () -> ()
  return
}
