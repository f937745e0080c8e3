// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics
// RUN: not mini-iree-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=ERR

// Every designator form of MLIR's --verify-diagnostics.

func.func @same_line() -> i32 {
  %0 = "test.op"() : () -> i64
  return %0 : i64 // expected-error {{'func.return' op}}
}
// ERR: verify-diagnostics.mlir:8:3: error: 'func.return' op

// -----

func.func @next_line() -> i32 {
  %0 = "test.op"() : () -> i64
  // expected-error @+1 {{Expected arguments to have the same types}}
  return %0 : i64
}

// -----

func.func @previous_line() -> i32 {
  %0 = "test.op"() : () -> i64
  return %0 : i64
  // expected-error @-1 {{'func.return' op}}
}

// -----

func.func @below() -> i32 {
  %0 = "test.op"() : () -> i64
  // expected-error @below {{'func.return' op}}
  return %0 : i64
}

// -----

func.func @above() -> i32 {
  %0 = "test.op"() : () -> i64
  return %0 : i64
  // expected-error @above {{'func.return' op}}
}

// -----

func.func @absolute_line() -> i32 {
  %0 = "test.op"() : () -> i64
  // expected-error @49 {{'func.return' op}}
  return %0 : i64
}

// -----

// expected-error @+1 {{operation name expected}}
%0 = ???
