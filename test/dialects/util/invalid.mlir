// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

util.func public @assume_int_rank_mismatch(%arg0: index, %arg1: i64) -> (index, i64) {
  // expected-error @+1 {{expected operand #1 to have 3 assumptions but it has 2}}
  %0:2 = util.assume.int %arg0[<umin = 0>, <umax = 2>, <udiv = 16>], %arg1[<umax = 10>, <udiv = 6>] : index, i64
  util.return %0#0, %0#1 : index, i64
}

// -----

util.func public @assume_int_missing_rows(%arg0: index, %arg1: i64) -> (index, i64) {
  // expected-error @+1 {{expected 2 assumption rows to match number of operands}}
  %0:2 = "util.assume.int"(%arg0, %arg1) <{assumptions = []}> : (index, i64) -> (index, i64)
  util.return %0#0, %0#1 : index, i64
}

// -----

util.func public @assume_int_result_type(%arg0: index) -> i64 {
  // expected-error @+1 {{failed to verify that all of {operands, results} have same type}}
  %0 = "util.assume.int"(%arg0) <{assumptions = [[#util.int.assumption<umin = 0>]]}> : (index) -> i64
  util.return %0 : i64
}

// -----

util.func public @assume_int_duplicate_key(%arg0: index) -> index {
  // expected-error @+1 {{duplicate or unknown struct parameter name: umin}}
  %0 = util.assume.int %arg0<umin = 0, umin = 1> : index
  util.return %0 : index
}

// -----

util.func public @assume_int_missing_key(%arg0: index) -> index {
  // expected-error @+2 {{expected valid keyword}}
  // expected-error @+1 {{expected a parameter name in struct}}
  %0 = util.assume.int %arg0<umin = 0, > : index
  util.return %0 : index
}

// -----

util.func public @assume_int_negative(%arg0: index) -> index {
  // expected-error @+1 {{expected a 64-bit unsigned integer for 'umin'}}
  %0 = util.assume.int %arg0<umin = -1> : index
  util.return %0 : index
}

// -----

// expected-error @+1 {{symbol declaration cannot have public visibility}}
util.func public @public_declaration(index) -> index

// -----

// expected-error @+1 {{type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')}}
"util.func"() <{function_type = (i32) -> (), sym_name = "wrong_argument_type", sym_visibility = "public"}> ({
^bb0(%arg0: f32):
  "util.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{entry block must have 1 arguments to match function signature}}
"util.func"() <{function_type = (i32) -> (), sym_name = "missing_argument", sym_visibility = "public"}> ({
  "util.return"() : () -> ()
}) : () -> ()

// -----

// expected-error @+1 {{'sym_name' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
util.func public @explicit_sym_name() attributes {sym_name = "other"} {
  util.return
}

// -----

// expected-error @+1 {{expected non-empty function body}}
util.func public @empty_body() {}

// -----

util.func public @return_too_many() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{has 1 operands, but enclosing function-like op returns 0}}
  util.return %c0 : index
}

// -----

util.func public @return_wrong_type(%arg0: f32) -> i32 {
  // expected-error @+1 {{type of return operand 0 ('f32') doesn't match function result type ('i32')}}
  util.return %arg0 : f32
}

// -----

func.func @return_outside_function() {
  // expected-error @+1 {{'util.return' expects parent op to be one of 'util.func', 'util.initializer'}}
  util.return
}

// -----

util.func public @call_undefined() {
  // expected-error @+1 {{undefined/incompatible callee: missing}}
  util.call @missing() : () -> ()
  util.return
}

// -----

util.func private @callee(f32) -> i32
util.func public @call_wrong_type(%arg0: i32) -> i32 {
  // expected-error @+1 {{function type mismatch; expected '(i32) -> i32' but callee is '(f32) -> i32'}}
  %0 = util.call @callee(%arg0) : (i32) -> i32
  util.return %0 : i32
}

// -----

// expected-error @+1 {{initial value type mismatch; global "g" is 'tensor<4xf32>' but initial value provided is 'tensor<8xf32>'}}
util.global private @g : tensor<4xf32> = dense<0.0> : tensor<8xf32>

// -----

// expected-error @+1 {{expected a typed initial value, or `: type` before `=`}}
util.global private @untyped = "value"

// -----

util.func public @load_undefined() -> i32 {
  // expected-error @+1 {{undefined global: @missing}}
  %0 = util.global.load @missing : i32
  util.return %0 : i32
}

// -----

util.global private @g : i32
util.func public @load_wrong_type() -> i64 {
  // expected-error @+1 {{global type mismatch; global "g" is 'i32' but load is 'i64'}}
  %0 = util.global.load @g : i64
  util.return %0 : i64
}

// -----

util.global private mutable @g : i32
util.func public @load_immutable_from_mutable() -> i32 {
  // expected-error @+1 {{is marked as immutable but the global is mutable}}
  %0 = util.global.load immutable @g : i32
  util.return %0 : i32
}

// -----

util.func public @store_undefined(%arg0: i32) {
  // expected-error @+1 {{undefined global: @missing}}
  util.global.store %arg0, @missing : i32
  util.return
}

// -----

util.global private mutable @g : i32
util.func public @store_wrong_type(%arg0: i64) {
  // expected-error @+1 {{global type mismatch; global "g" is 'i32' but store is 'i64'}}
  util.global.store %arg0, @g : i64
  util.return
}

// -----

// expected-error @+1 {{expects argument attribute array to have the same number of elements as the number of function arguments, got 0, but expected 1}}
"util.func"() <{function_type = (i32) -> (), sym_name = "missing_arg_attrs", sym_visibility = "private", arg_attrs = []}> ({
}) : () -> ()

// -----

// expected-error @+1 {{empty block: expect at least a terminator}}
util.func public @body_without_terminator(%arg0: index) {
}

// -----

// expected-error @+1 {{block with no terminator, has 'arith.constant'}}
util.initializer {
  %c0 = arith.constant 0 : index
}

// -----

// expected-error @+1 {{visibility expected to be one of ["public", "private", "nested"], but got "internal"}}
"util.global"() <{sym_name = "g", sym_visibility = "internal", type = i32}> : () -> ()
