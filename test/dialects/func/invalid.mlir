// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @callee(%x: i32) -> i32 {
  return %x : i32
}

func.func @call_operand_count() {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = func.call @callee() : () -> i32
  return
}
