// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics -p iree-hal-materialize-target-devices | filecheck %s

// An array of devices: @__device_0, @__device_1 in order at the top of the
// module; the first is the default affinity.

// CHECK-LABEL: module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK-NEXT:    util.global private @__device_0 = #device_target_local_0_
// CHECK-NEXT:    util.global private @__device_1 = #device_target_local_1_
// CHECK-NEXT:    util.func public @f()
module attributes {hal.device.targets = [#hal.device.target<"local", {ordinal = 0 : index}> : !hal.device, #hal.device.target<"local", {ordinal = 1 : index}> : !hal.device]} {
  util.func public @f() {
    util.return
  }
}

// -----

// Named devices, and a default chosen by name.

// CHECK-LABEL: module attributes {stream.affinity.default = #hal.device.affinity<@device_b>} {
// CHECK-NEXT:    util.global private @device_a = #device_target_a
// CHECK-NEXT:    util.global private @device_b = #device_target_b
module attributes {hal.device.targets = {device_a = #hal.device.target<"a"> : !hal.device, device_b = #hal.device.target<"b"> : !hal.device}, hal.device.default = "device_b"} {
}

// -----

// A default chosen by ordinal.

// CHECK-LABEL: module attributes {stream.affinity.default = #hal.device.affinity<@__device_1>} {
// CHECK-NEXT:    util.global private @__device_0
// CHECK-NEXT:    util.global private @__device_1
module attributes {hal.device.targets = [#hal.device.target<"a"> : !hal.device, #hal.device.target<"b"> : !hal.device], hal.device.default = 1 : index} {
}

// -----

// Devices already materialized: nothing new (running the pass twice is safe).

// CHECK-LABEL: module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
// CHECK-NEXT:    util.global private @__device_0 = #device_target_local
// CHECK-NEXT:  }
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local"> : !hal.device
}

// -----

// expected-error @+1 {{module has invalid device targets specified; expected hal.device.targets to be an array of !hal.device initialization attributes or a dictionary with named values}}
module attributes {hal.device.targets = ["wrong_type"]} {
}
