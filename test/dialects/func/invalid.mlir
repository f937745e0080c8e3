// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

func.func @callee(%x: i32) -> i32 {
  return %x : i32
}

func.func @call_operand_count() {
  // expected-error @+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = func.call @callee() : () -> i32
  return
}

// -----

// MLIR rejects a use before its definition in an SSACFG block; xDSL only checks
// that the value is defined somewhere.
func.func @use_before_def(%a: i32) -> i32 {
  // expected-error @+1 {{operand #0 does not dominate this use}}
  %1 = arith.addi %0, %a : i32
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = arith.addi %a, %a : i32
  return %1 : i32
}

// -----

func.func @self_use(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{operand #2 does not dominate this use}}
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %0 = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @use_in_a_region_before_def(%c: i1, %a: i32) -> i32 {
  scf.if %c {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %1 = arith.addi %0, %a : i32
    scf.yield
  }
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}

// -----

// An op's results are not available inside its own regions.
func.func @result_used_in_its_own_region(%a: i32) -> i32 {
  // expected-note @+1 {{operand defined here (op in a parent region)}}
  %0 = scf.execute_region -> i32 {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %1 = arith.addi %0, %a : i32
    scf.yield %1 : i32
  }
  return %0 : i32
}

// -----

// Across blocks, the defining block must dominate the using one.
func.func @def_in_a_sibling_block(%a: i32) -> i32 {
  "test.termop"() [^bb1, ^bb2] : () -> ()
^bb1:
  // expected-note @+1 {{operand defined here (op in the same region)}}
  %0 = arith.addi %a, %a : i32
  "test.termop"(%0) [^bb3] : (i32) -> ()
^bb2:
  "test.termop"(%a) [^bb3] : (i32) -> ()
^bb3(%r: i32):
  // expected-error @+1 {{operand #1 does not dominate this use}}
  %1 = arith.addi %r, %0 : i32
  return %1 : i32
}

// -----

// A module body is a graph region: its ops may come in any order.
module {
  "test.op"(%0) : (i32) -> ()
  %0 = "test.op"() : () -> i32
}
