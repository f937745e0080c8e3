// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=3.13}' --split-input-file | filecheck %s --check-prefix=IREE313
// RUN: mini-iree-opt %s -p 'iree-dispatch-creation-form-dispatch-regions{era=walkthrough}' --split-input-file | filecheck %s --check-prefix=WALK

// IREE 3.13 on a device whose one target is an x86_64 (or aarch64) llvm-cpu target: the
// bit extend feeding the matmul is not cloned into the matmul's dispatch; it gets its own.
// The walkthrough's IREE leaves it outside, for clone-producers to clone in.

#x86 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {target_triple = "x86_64-unknown-unknown-eabi-elf"}>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#x86]> : !hal.device
  util.func public @extend_then_matmul(%a: tensor<?x2xi32>, %b: tensor<2x?xi8>, %n: index, %m: index) -> tensor<?x?xi32> {
    %e = tensor.empty(%n) : tensor<2x?xi32>
    %ext = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x?xi8>) outs(%e : tensor<2x?xi32>) {
    ^bb0(%in: i8, %out: i32):
      %x = arith.extui %in : i8 to i32
      linalg.yield %x : i32
    } -> tensor<2x?xi32>
    %init = tensor.empty(%m, %n) : tensor<?x?xi32>
    %mm = linalg.matmul ins(%a, %ext : tensor<?x2xi32>, tensor<2x?xi32>) outs(%init : tensor<?x?xi32>) -> tensor<?x?xi32>
    util.return %mm : tensor<?x?xi32>
  }
}
// IREE313-LABEL: @extend_then_matmul(
// IREE313:         %[[EXT:.+]] = flow.dispatch.region -> (tensor<2x?xi32>{%{{.+}}})
// IREE313:           arith.extui
// IREE313:         flow.dispatch.region -> (tensor<?x?xi32>{%{{.+}}, %{{.+}}})
// IREE313-NEXT:      linalg.matmul ins(%{{.+}}, %[[EXT]] :
// WALK-LABEL:    @extend_then_matmul(
// WALK-NOT:        flow.dispatch.region -> (tensor<2x?xi32>
// WALK:            %[[EXT:.+]] = linalg.generic
// WALK:            flow.dispatch.region -> (tensor<?x?xi32>{%{{.+}}, %{{.+}}})
// WALK-NEXT:         linalg.matmul ins(%{{.+}}, %[[EXT]] :

// -----

// Two executable targets on the device (or a riscv64 one, or a GPU): IREE 3.13 clones as before.

#x86 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {target_triple = "x86_64-unknown-unknown-eabi-elf"}>
#arm = #hal.executable.target<"llvm-cpu", "embedded-elf-arm_64", {target_triple = "aarch64-unknown-unknown-eabi-elf"}>
module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#x86, #arm]> : !hal.device
  util.func public @two_targets(%a: tensor<?x2xi32>, %b: tensor<2x?xi8>, %n: index, %m: index) -> tensor<?x?xi32> {
    %e = tensor.empty(%n) : tensor<2x?xi32>
    %ext = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<2x?xi8>) outs(%e : tensor<2x?xi32>) {
    ^bb0(%in: i8, %out: i32):
      %x = arith.extui %in : i8 to i32
      linalg.yield %x : i32
    } -> tensor<2x?xi32>
    %init = tensor.empty(%m, %n) : tensor<?x?xi32>
    %mm = linalg.matmul ins(%a, %ext : tensor<?x2xi32>, tensor<2x?xi32>) outs(%init : tensor<?x?xi32>) -> tensor<?x?xi32>
    util.return %mm : tensor<?x?xi32>
  }
}
// IREE313-LABEL: @two_targets(
// IREE313-NOT:     flow.dispatch.region -> (tensor<2x?xi32>
// IREE313:         flow.dispatch.region -> (tensor<?x?xi32>
