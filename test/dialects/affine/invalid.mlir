// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @apply_dims_symbols_mismatch(%i: index) -> index {
  // expected-error @+1 {{dimension or symbol index mismatch}}
  %0 = affine.apply affine_map<(d0) -> (d0)>()[%i]
  return %0 : index
}

// -----

func.func @apply_operand_count(%i: index) -> index {
  // expected-error @+1 {{'affine.apply' op operand count and affine map dimension and symbol count must match}}
  %0 = "affine.apply"(%i, %i) <{map = affine_map<(d0) -> (d0)>}> : (index, index) -> index
  return %0 : index
}

// -----

func.func @apply_multi_result(%i: index) -> index {
  // expected-error @+1 {{'affine.apply' op mapping must produce one value}}
  %0 = "affine.apply"(%i) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index
  return %0 : index
}

// -----

func.func @min_operand_count(%i: index, %j: index) -> index {
  // expected-error @+1 {{'affine.min' op operand count and affine map dimension and symbol count must match}}
  %0 = affine.min affine_map<(d0) -> (d0)>(%i, %j)
  return %0 : index
}

// -----

func.func @max_operand_count(%i: index) -> index {
  // expected-error @+1 {{'affine.max' op operand count and affine map dimension and symbol count must match}}
  %0 = affine.max affine_map<()[s0] -> (s0)>()
  return %0 : index
}

// -----

func.func @max_no_result(%i: index) -> index {
  // expected-error @+1 {{'affine.max' op affine map expect at least one result}}
  %0 = affine.max affine_map<(d0) -> ()>(%i)
  return %0 : index
}

// -----

func.func @linearize_basis_count(%i: index, %j: index, %k: index) -> index {
  // expected-error @+1 {{'affine.linearize_index' op should be passed a basis element for each index except possibly the first}}
  %0 = affine.linearize_index [%i, %j, %k] by (4) : index
  return %0 : index
}

// -----

func.func @linearize_non_positive(%i: index, %j: index) -> index {
  // expected-error @+1 {{'affine.linearize_index' op no basis element may be statically non-positive}}
  %0 = affine.linearize_index [%i, %j] by (4, 0) : index
  return %0 : index
}

// -----

func.func @linearize_dynamic_basis_mismatch(%i: index, %n: index) -> index {
  // expected-error @+1 {{'affine.linearize_index' op mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite}}
  %0 = "affine.linearize_index"(%i, %n) <{operandSegmentSizes = array<i32: 1, 1>, static_basis = array<i64: 4>}> : (index, index) -> index
  return %0 : index
}

// -----

func.func @delinearize_result_count(%idx: index) -> index {
  // expected-error @+1 {{'affine.delinearize_index' op should return an index for each basis element and up to one extra index}}
  %0:4 = affine.delinearize_index %idx into (4, 8) : index, index, index, index
  return %0#0 : index
}

// -----

func.func @delinearize_non_positive(%idx: index) -> index {
  // expected-error @+1 {{'affine.delinearize_index' op no basis element may be statically non-positive}}
  %0:2 = affine.delinearize_index %idx into (-1, 8) : index, index
  return %0#0 : index
}

// -----

func.func @delinearize_dynamic_basis_mismatch(%idx: index) -> index {
  // expected-error @+1 {{'affine.delinearize_index' op mismatch between dynamic and static basis (kDynamic marker but no corresponding dynamic basis entry) -- this can only happen due to an incorrect fold/rewrite}}
  %0:2 = "affine.delinearize_index"(%idx) <{static_basis = array<i64: -9223372036854775808, 8>}> : (index) -> (index, index)
  return %0#0 : index
}
