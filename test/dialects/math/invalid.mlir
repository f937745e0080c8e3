// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// The messages are xDSL's (the dialect is xDSL's).

func.func @absi_on_float(%a: f32) -> f32 {
  // expected-error @+1 {{'math.absi' op operand 'operand' at position 0 does not verify:}}
  %0 = "math.absi"(%a) : (f32) -> f32
  return %0 : f32
}
