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
  // expected-error @+1 {{'arith.extui' op Destination bit-width must be larger than the input bit-width}}
  %0 = arith.extui %b : i64 to i32
  return %0 : i32
}

// -----

func.func @constant_out_of_range() -> i8 {
  // expected-error @+1 {{Integer value 300 is out of range for type i8}}
  %0 = arith.constant 300 : i8
  return %0 : i8
}
