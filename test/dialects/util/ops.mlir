// RUN: mini-iree-opt %s --split-input-file | mini-iree-opt --split-input-file | filecheck %s
// RUN: mini-iree-opt %s --split-input-file --mlir-print-op-generic | mini-iree-opt --split-input-file | filecheck %s

// CHECK-LABEL: util.func public @abi_function(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @abi_function(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)"}} {
util.func public @abi_function(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @abi_function(%input0: tensor<4xf32>) -> (%output0: tensor<4xf32>)"}} {
  // CHECK-NEXT: util.return %arg0 : !hal.buffer_view
  util.return %arg0 : !hal.buffer_view
}

// -----

// Without a visibility keyword a function is public; IREE always prints it.
// CHECK-LABEL: util.func public @default_visibility() {
util.func @default_visibility() {
  // CHECK-NEXT: util.return{{$}}
  util.return
}

// -----

// Declarations name their arguments too.
// CHECK-LABEL: util.func private @declaration(%arg0: index, %arg1: i32 {some.attr}) -> (index, i32)
util.func private @declaration(index, i32 {some.attr}) -> (index, i32)

// -----

// Several results need no parentheses when parsed, but get them when printed.
// CHECK-LABEL: util.func public @multiple_results(%arg0: index, %arg1: i64) -> (index, i64) {
util.func public @multiple_results(%arg0 : index, %arg1 : i64) -> index, i64 {
  // CHECK-NEXT: util.return %arg0, %arg1 : index, i64
  util.return %arg0, %arg1 : index, i64
}

// -----

// CHECK-LABEL: util.func private @result_attributes(%arg0: index) -> (index {some.attr})
util.func private @result_attributes(%arg0: index) -> (index {some.attr})

// -----

// CHECK-LABEL: util.func public @named_arguments(%arg0: index, %arg1: index) -> index {
util.func public @named_arguments(%d0: index, %d1: index) -> index {
  // CHECK-NEXT: util.return %arg1 : index
  util.return %d1 : index
}

// -----

// CHECK: util.func private @callee(%arg0: index, %arg1: i32) -> (index, i32)
util.func private @callee(index, i32) -> (index, i32)
// CHECK: util.func private @unary(%arg0: index) -> index
util.func private @unary(index) -> index
// CHECK: util.func private @nullary()
util.func private @nullary()
// CHECK-LABEL: util.func public @calls
util.func public @calls(%arg0: index, %arg1: i32) {
  // CHECK: %[[R:.+]]:2 = util.call @callee(%arg0, %arg1) : (index, i32) -> (index, i32)
  %0:2 = util.call @callee(%arg0, %arg1) : (index, i32) -> (index, i32)
  // CHECK: util.call @unary(%[[R]]#0) : (index) -> index
  %1 = util.call @unary(%0#0) : (index) -> index
  // CHECK: util.call @nullary() : () -> ()
  util.call @nullary() : () -> ()
  util.return
}

// -----

// A typed initial value gives the global its type.
// CHECK: #device_target_local = #hal.device.target<"local"> : !hal.device
// CHECK: util.global private @__device_0 = #device_target_local
util.global private @__device_0 = #hal.device.target<"local"> : !hal.device
// CHECK: util.global public @v_initialized = 4 : i32
util.global @v_initialized = 4 : i32
// CHECK: util.global private @weight = dense<1.000000e+00> : tensor<4xf32>
util.global private @weight = dense<1.0> : tensor<4xf32>
// CHECK: util.global public @v_initialized_cast : tensor<4xf32> = dense<4> : tensor<4xi32>
util.global public @v_initialized_cast : tensor<4xf32> = dense<4> : tensor<4xi32>
// CHECK: util.global public @v_same_type = dense<4> : tensor<4xi32>
util.global public @v_same_type : tensor<4xi32> = dense<4> : tensor<4xi32>
// CHECK: util.global private mutable @v_mutable : i32
util.global private mutable @v_mutable : i32
// CHECK: util.global private @__hoisted_tensor_256x512xf32 {stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<256x512xf32>
util.global private @__hoisted_tensor_256x512xf32 {stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<256x512xf32>

// -----

util.global private @__hoisted_tensor_256x512xf32 : tensor<256x512xf32>
// CHECK: util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  // CHECK-NEXT: %[[CST:.+]] = arith.constant
  %cst = arith.constant dense<1.0> : tensor<256x512xf32>
  // CHECK-NEXT: util.global.store %[[CST]], @__hoisted_tensor_256x512xf32 : tensor<256x512xf32>
  util.global.store %cst, @__hoisted_tensor_256x512xf32 : tensor<256x512xf32>
  // CHECK-NEXT: util.return
  util.return
}
// CHECK: util.initializer {
util.initializer {
  util.return
}

// -----

// A load is named after its global, as IREE names it.
util.global private @__hoisted_tensor_256x512xf32__encoded : tensor<256x512xf32>
util.global private mutable @counter : i32
util.global private @dynamic : tensor<?xf32>
// CHECK-LABEL: util.func public @global_load_store
util.func public @global_load_store() -> tensor<256x512xf32> {
  // CHECK: %__hoisted_tensor_256x512xf32__encoded = util.global.load immutable @__hoisted_tensor_256x512xf32__encoded : tensor<256x512xf32>
  %0 = util.global.load immutable @__hoisted_tensor_256x512xf32__encoded : tensor<256x512xf32>
  // CHECK: %counter = util.global.load @counter : i32
  %1 = util.global.load @counter : i32
  // CHECK: util.global.store %counter, @counter : i32
  util.global.store %1, @counter : i32
  // A load may refine the shape of a dynamically shaped global.
  // CHECK: %dynamic = util.global.load @dynamic : tensor<4xf32>
  %2 = util.global.load @dynamic : tensor<4xf32>
  util.return %0 : tensor<256x512xf32>
}

// -----

// CHECK-LABEL: util.func public @assume_int_single
util.func public @assume_int_single(%arg0: index) -> index {
  // CHECK: %[[A:.+]] = util.assume.int %arg0<umin = 0, umax = 9007199254740991> : index
  %0 = util.assume.int %arg0<umax = 9007199254740991, umin = 0> : index
  // CHECK: util.assume.int %[[A]][<umin = 0>, <udiv = 5>] : index
  %1 = util.assume.int %0[<umin=0>, #util.int.assumption<udiv = 5>] : index
  util.return %1 : index
}

// -----

// With several operands, each goes on its own line, indented two levels deeper
// than the op, and the types one level deeper (with a trailing space after the
// mnemonic and after each comma, as IREE prints it).
// CHECK-LABEL: util.func public @assume_int_multi
util.func public @assume_int_multi(%arg0: index, %arg1: i64) -> (index, i64) {
  // CHECK:      {{^    }}%[[R:.+]]:2 = util.assume.int {{$}}
  // CHECK-NEXT: {{^        }}%arg0<udiv = 8192>, {{$}}
  // CHECK-NEXT: {{^        }}%arg1[<umin = 0, umax = 9223372036854775808, udiv = 64>, <>]{{$}}
  // CHECK-NEXT: {{^      }}: index, i64{{$}}
  %0:2 = util.assume.int %arg0<udiv = 8192>, %arg1[<umin = 0, umax = 9223372036854775808, udiv = 64>, <>] : index, i64
  // CHECK-NEXT: util.return %[[R]]#0, %[[R]]#1 : index, i64
  util.return %0#0, %0#1 : index, i64
}

// -----

// CHECK-LABEL: util.func public @optimization_barrier
util.func public @optimization_barrier(%arg0: tensor<4xf32>, %arg1: i32) {
  // CHECK: util.optimization_barrier %arg0 : tensor<4xf32>
  %0 = util.optimization_barrier %arg0 : tensor<4xf32>
  // CHECK: util.optimization_barrier {some.attr} %arg0, %arg1 : tensor<4xf32>, i32
  %1:2 = util.optimization_barrier {some.attr} %arg0, %arg1 : tensor<4xf32>, i32
  util.return
}

// -----

// CHECK-LABEL: util.func private @null_fence
// CHECK: %{{.+}} = util.null : !hal.fence
util.func private @null_fence() -> !hal.fence {
  %0 = util.null : !hal.fence
  util.return %0 : !hal.fence
}
