// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// arith comes from xDSL, plus arith.index_castui; the messages are xDSL's
// except where the op is ours.

func.func @index_castui_between_integers(%a: i32) -> i64 {
  // expected-error @+1 {{'arith.index_castui' op operand type 'i32' and result type 'i64' are cast incompatible}}
  %0 = arith.index_castui %a : i32 to i64
  return %0 : i64
}

// -----

func.func @index_castui_between_indices(%a: index) -> index {
  // expected-error @+1 {{are cast incompatible}}
  %0 = arith.index_castui %a : index to index
  return %0 : index
}

// -----

func.func @extui_narrowing(%b: i64) -> i32 {
  // expected-error @+1 {{'arith.extui' op operand type 'i64' and result type 'i32' are cast incompatible}}
  %0 = arith.extui %b : i64 to i32
  return %0 : i32
}

// -----

func.func @constant_out_of_range() -> i8 {
  // expected-error @+1 {{integer constant out of range for attribute}}
  %0 = arith.constant 300 : i8
  return %0 : i8
}

// -----

func.func @scaling_extf_narrows(%a: f32, %s: f8E8M0FNU) -> f16 {
  // expected-error @+1 {{result type f16 must be wider than operand type f32}}
  %0 = arith.scaling_extf %a, %s : f32, f8E8M0FNU to f16
  return %0 : f16
}

// -----

func.func @scaling_truncf_widens(%a: f16, %s: f8E8M0FNU) -> f32 {
  // expected-error @+1 {{result type f32 must be shorter than operand type f16}}
  %0 = arith.scaling_truncf %a, %s : f16, f8E8M0FNU to f32
  return %0 : f32
}

// -----

func.func @scaling_extf_shapes(%a: tensor<4xf16>, %s: tensor<2xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{requires the same shape for all operands and results}}
  %0 = arith.scaling_extf %a, %s : tensor<4xf16>, tensor<2xf16> to tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Integer extensions and truncation take tensors too (MLIR's signless-integer-like), one shape on both sides.
func.func @trunci_tensor_shapes(%t: tensor<4xi8>) -> tensor<5xi1> {
  // expected-error @+1 {{'arith.trunci' op failed to verify that input and output have the same tensor dimensions}}
  %0 = arith.trunci %t : tensor<4xi8> to tensor<5xi1>
  return %0 : tensor<5xi1>
}

// -----

func.func @trunci_tensor_widening(%t: tensor<4xi8>) -> tensor<4xi16> {
  // expected-error @+1 {{'arith.trunci' op operand type 'tensor<4xi8>' and result type 'tensor<4xi16>' are cast incompatible}}
  %0 = arith.trunci %t : tensor<4xi8> to tensor<4xi16>
  return %0 : tensor<4xi16>
}
