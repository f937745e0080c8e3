// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// Splat and fill patterns are whole bytes: i8, i16, i32 or i64 (encode-host-tensors widens the rest).
util.func public @splat_i1(%size: index, %v: i1) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.splat' op operand #0 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer, but got 'i1'}}
  %0 = stream.async.splat %v : i1 -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @splat_await_f32(%size: index, %t: !stream.timepoint, %v: f32) -> !stream.resource<*> {
  // expected-error @+1 {{'stream.async.splat' op operand #1 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer, but got 'f32'}}
  %0 = stream.async.splat await(%t) %v : f32 -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

util.func public @fill_f32(%r: !stream.resource<*>, %size: index, %v: f32) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.fill' op operand #5 must be 8-bit signless integer or 16-bit signless integer or 32-bit signless integer or 64-bit signless integer, but got 'f32'}}
  %0 = stream.async.fill %v, %r[%c0 to %size for %size] : f32 -> %r as !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// A slice is a copy of the same lifetime (a transfer changes lifetimes).
util.func public @slice_lifetime(%r: !stream.resource<*>, %size: index) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.slice' op failed to verify that all of {source, result} have same type}}
  %0 = stream.async.slice %r[%c0 to %size] : !stream.resource<*>{%size} -> !stream.resource<transient>{%size}
  util.return %0 : !stream.resource<transient>
}

// -----

// Loads and stores read host-visible (staging) memory.
util.func public @load_not_staging(%r: !stream.resource<*>, %size: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.tensor.load' op operand #0 must be staging resource, but got '!stream.resource<*>'}}
  %0 = stream.tensor.load %r[%c0] : tensor<4xf32> in !stream.resource<*>{%size} -> f32
  util.return %0 : f32
}

// -----

util.func public @load_rank(%r: !stream.resource<staging>, %size: index) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.tensor.load' op indices rank mismatch}}
  %0 = stream.tensor.load %r[%c0, %c0] : tensor<4xf32> in !stream.resource<staging>{%size} -> f32
  util.return %0 : f32
}

// -----

util.func public @async_store_not_staging(%r: !stream.resource<transient>, %size: index, %v: f32) -> !stream.resource<transient> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.store' op operand #0 must be staging resource, but got '!stream.resource<transient>'}}
  %0 = stream.async.store %v, %r[%c0] : f32 -> %r as !stream.resource<transient>{%size}
  util.return %0 : !stream.resource<transient>
}

// -----

util.func public @trace_not_staging(%r: !stream.resource<*>, %size: index) {
  // expected-error @+1 {{'stream.tensor.trace' op operand #0 must be variadic of staging resource, but got '!stream.resource<*>'}}
  stream.tensor.trace "K" = [%r : tensor<4xf32> in !stream.resource<*>{%size}]
  util.return
}
