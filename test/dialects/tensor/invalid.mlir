// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @empty_dynamic_sizes(%m: index) {
  // expected-error @+1 {{incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.empty(%m) : tensor<?x?xf32>
  return
}

// -----

func.func @expand_shape_static_dims(%t: tensor<16xf32>) {
  // expected-error @+1 {{expected number of static shape dims to be equal to the output rank (2) but found 3 inputs instead}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [2, 8, 1] : tensor<16xf32> into tensor<2x8xf32>
  return
}

// -----

func.func @expand_shape_dynamic_dims(%t: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 1 dynamic dims while output_shape has 0 values}}
  %0 = "tensor.expand_shape"(%t) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 8>}> : (tensor<?xf32>) -> tensor<?x8xf32>
  return
}

// -----

func.func @expand_shape_dynamic_count(%t: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{incorrect number of dynamic sizes, has 1, expected 2}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [%n, 8] : tensor<?xf32> into tensor<?x?xf32>
  return
}

// -----

func.func @expand_shape_output_shape(%t: tensor<?xf32>, %n: index) {
  // expected-error @+1 {{invalid output shape provided at pos 1}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [%n, 4] : tensor<?xf32> into tensor<?x8xf32>
  return
}

// -----

func.func @expand_shape_lower_rank(%t: tensor<2x2xf32>) {
  // expected-error @+1 {{expected the expanded type, 'tensor<4xf32>' to have a higher (or same) rank than the collapsed type, 'tensor<2x2xf32>'.}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [4] : tensor<2x2xf32> into tensor<4xf32>
  return
}

// -----

func.func @expand_shape_static_mismatch(%t: tensor<16xf32>) {
  // expected-error @+1 {{expected dimension 0 of collapsed type to be static value of 12}}
  %0 = tensor.expand_shape %t [[0, 1]] output_shape [3, 4] : tensor<16xf32> into tensor<3x4xf32>
  return
}

// -----

func.func @collapse_shape_num_groups(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected collapsed rank (2) to equal the number of reassociation maps (1).}}
  %0 = tensor.collapse_shape %t [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  return
}

// -----

func.func @collapse_shape_map_size(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected reassociation map #0 to have size equal to the expanded rank (3), but it is  2.}}
  %0 = tensor.collapse_shape %t [[0], [1]] : tensor<2x3x4xf32> into tensor<2x3xf32>
  return
}

// -----

func.func @collapse_shape_not_contiguous(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected reassociation map #1 to be valid and contiguous.}}
  %0 = tensor.collapse_shape %t [[0], [2, 1]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  return
}

// -----

func.func @collapse_shape_expected_dynamic(%t: tensor<2x?x4xf32>) {
  // expected-error @+1 {{expected dimension 1 of collapsed type to be dynamic since one or more of the corresponding dimensions in the expanded type is dynamic}}
  %0 = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x?x4xf32> into tensor<2x12xf32>
  return
}

// -----

func.func @collapse_shape_expected_static(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected dimension 1 of collapsed type to be static value of 12}}
  %0 = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x10xf32>
  return
}

// -----

func.func @collapse_shape_element_type(%t: tensor<2x3x4xf32>) {
  // expected-error @+1 {{expected collapsed type to be 'tensor<2x12xf32>', but got 'tensor<2x12xf16>'}}
  %0 = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf16>
  return
}

// -----

func.func @collapse_shape_empty_group(%t: tensor<2x3xf32>) {
  // expected-error @+1 {{reassociation indices must not be empty}}
  %0 = tensor.collapse_shape %t [[0, 1], []] : tensor<2x3xf32> into tensor<6x1xf32>
  return
}

// -----

func.func @parallel_insert_slice_parent(%t: tensor<4xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{expected InParallelOpInterface parent, got:}}
  tensor.parallel_insert_slice %t into %d[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return
}

// -----

func.func @parallel_insert_slice_size_mismatch(%init: tensor<8x4xf32>, %s: tensor<2x4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected type to be 'tensor<1x4xf32>' or a rank-reduced version. (size mismatch)}}
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 4] [1, 1] : tensor<2x4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_rank(%init: tensor<8x4xf32>, %s: tensor<1x1x4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected rank to be smaller or equal to the other rank.}}
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 4] [1, 1] : tensor<1x1x4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_element_type(%init: tensor<8x4xf32>, %s: tensor<1x4xf16>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected element type to be 'f32'}}
      tensor.parallel_insert_slice %s into %o[%i, 0] [1, 4] [1, 1] : tensor<1x4xf16> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_offset_out_of_bounds(%init: tensor<8x4xf32>, %s: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{offset 0 is out-of-bounds: 8 >= 8}}
      tensor.parallel_insert_slice %s into %o[8, 0] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_runs_out_of_bounds(%init: tensor<8x4xf32>, %s: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{slice along dimension 1 runs out-of-bounds: 4 >= 4}}
      tensor.parallel_insert_slice %s into %o[%i, 1] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_mixed_ranks(%init: tensor<8x4xf32>, %s: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected mixed offsets rank to match mixed sizes rank (1 vs 2) so the rank of the result type is well-formed.}}
      tensor.parallel_insert_slice %s into %o[%i] [1, 4] [1, 1] : tensor<1x4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_list_size(%init: tensor<8x4xf32>, %s: tensor<4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected 2 offset values, got 1}}
      tensor.parallel_insert_slice %s into %o[%i] [4] [1] : tensor<4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @parallel_insert_slice_negative_size(%init: tensor<8x4xf32>, %s: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %0 = scf.forall (%i) in (8) shared_outs(%o = %init) -> (tensor<8x4xf32>) {
    scf.forall.in_parallel {
      // expected-error @+1 {{expected sizes to be non-negative, but got -1}}
      tensor.parallel_insert_slice %s into %o[%i, 0] [-1, 4] [1, 1] : tensor<1x4xf32> into tensor<8x4xf32>
    }
  }
  return %0 : tensor<8x4xf32>
}

// -----

func.func @bitcast_width(%t: tensor<4xi32>) {
  // expected-error @+1 {{operand type 'tensor<4xi32>' and result type 'tensor<4xf16>' are cast incompatible}}
  %0 = tensor.bitcast %t : tensor<4xi32> to tensor<4xf16>
  return
}
