// RUN: not mini-iree-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s

// A diagnostic nobody expected, and an expectation nothing produced, both fail.

func.func @unexpected() -> i32 {
  %0 = "test.op"() : () -> i64
  return %0 : i64
}
// CHECK: verify-diagnostics-mismatch.mlir:7:3: error: unexpected error: 'func.return' op

// -----

// CHECK: verify-diagnostics-mismatch.mlir:[[# @LINE + 1]]:4: error: expected error "never happens" was not produced
// expected-error @+1 {{never happens}}
func.func @fine() {
  return
}
