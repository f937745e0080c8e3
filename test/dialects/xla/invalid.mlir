// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{invalid XLA layout '{1,0:E(4)T(2,2)}': expects layout to end with kRbrace}}
func.func @attributes_out_of_order(%arg0: tensor<4x4xf32, #xla.layout<"{1,0:E(4)T(2,2)}">>) {
  return
}

// -----

// expected-error @+1 {{invalid XLA layout '{1,0:T(-1,2)}': Tile dimension size needs to be minimum int64_t value if it's negative. Value is -1}}
func.func @negative_tile(%arg0: tensor<4x4xf32, #xla.layout<"{1,0:T(-1,2)}">>) {
  return
}

// -----

func.func @rank_mismatch() {
  // expected-error @+1 {{XLA layout {1,0:T(8,128)} has 2 dimensions in minor_to_major but the tensor has rank 1}}
  %0 = "test.op"() : () -> tensor<8xf32, #xla.layout<"{1,0:T(8,128)}">>
  return
}

// -----

func.func @duplicate_minor_to_major() {
  // expected-error @+1 {{layout minor_to_major field has duplicate values: {0, 0}; shape: f32[4,4]}}
  %0 = "test.op"() : () -> tensor<4x4xf32, #xla.layout<"{0,0}">>
  return
}

// -----

func.func @zero_tile() {
  // expected-error @+1 {{layout has invalid tiles: f32[4,4]}}
  %0 = "test.op"() : () -> tensor<4x4xf32, #xla.layout<"{1,0:T(0,2)}">>
  return
}

// -----

func.func @combine_in_most_minor_position() {
  // expected-error @+1 {{'*' in the most-minor tile position has no dimension to combine with}}
  %0 = "test.op"() : () -> tensor<4x4xf32, #xla.layout<"{1,0:T(2,*)}">>
  return
}
