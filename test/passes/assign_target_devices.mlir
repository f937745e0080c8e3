// RUN: mini-iree-opt %s --split-input-file -p 'iree-hal-assign-target-devices{targetDevices=gfx942}' | filecheck %s --check-prefix=GFX942
// RUN: mini-iree-opt %s --split-input-file -p 'iree-hal-assign-target-devices{targetDevices=vmvx,x86_64:+avx,+avx2,+fma}' | filecheck %s --check-prefix=TWO
// RUN: mini-iree-opt %s --split-input-file -p 'iree-hal-assign-target-devices' | filecheck %s --check-prefix=NONE
// RUN: mini-iree-opt %s --split-input-file -p 'iree-hal-assign-target-devices{targetDevices=gpu=gfx942,cpu=x86_64}' | filecheck %s --check-prefix=NAMED
// RUN: not mini-iree-opt %s -p 'iree-hal-assign-target-devices{targetDevices=gpu=gfx942,x86_64}' 2>&1 | filecheck %s --check-prefix=HALF-NAMED
// RUN: not mini-iree-opt %s -p 'iree-hal-assign-target-devices{targetDevices=gfx1234}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not mini-iree-opt %s -p 'iree-hal-assign-target-devices{targetDevices=x86_64:avx}' 2>&1 | filecheck %s --check-prefix=BAD

// The walkthrough's GPU: a hip device running the full gfx942 target, with its
// encoding resolver and the tuning spec IREE ships for it.

// GFX942:      #executable_target_rocm_hsaco_fb = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip", iree.encoding.resolver = #iree_gpu.gpu_encoding_resolver<>, iree_codegen.default_tuning_spec = #rocm.builtin.tuning_module<"iree_default_tuning_spec_gfx942.mlir">, iree_codegen.target_info = #iree_gpu.target<arch = "gfx942", features = "", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8,
// GFX942:      #device_target_hip = #hal.device.target<"hip", [#executable_target_rocm_hsaco_fb]> : !hal.device
// GFX942:      module attributes {hal.device.targets = [#device_target_hip]} {
// GFX942-NEXT:   util.func public @empty()

// Two devices, one per listed target; `+avx2` and `+fma` continue x86_64's
// feature list. CPU and VMVX executables run on "local" devices, told apart by
// their ordinals.

// TWO-DAG: #executable_target_vmvx_bytecode_fb = #hal.executable.target<"vmvx", "vmvx-bytecode-fb", {iree.encoding.resolver = #iree_cpu.vmvx_encoding_resolver<>}>
// TWO-DAG: #executable_target_embedded_elf_x86_64 = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu_features = "+avx,+avx2,+fma",
// TWO:     #device_target_local_0_ = #hal.device.target<"local", {ordinal = 0 : index}, [#executable_target_vmvx_bytecode_fb]> : !hal.device
// TWO:     #device_target_local_1_ = #hal.device.target<"local", {ordinal = 1 : index}, [#executable_target_embedded_elf_x86_64]> : !hal.device
// TWO:     module attributes {hal.device.targets = [#device_target_local_0_, #device_target_local_1_]}

// No devices given: nothing to do.

// NONE:      module {
// NONE-NEXT:   util.func public @empty()

// Named devices: a dictionary (all devices named, or none).

// NAMED: module attributes {hal.device.targets = {cpu = #device_target_local, gpu = #device_target_hip}}
// HALF-NAMED: <cmdline>:1:1: error: invalid options for pass 'iree-hal-assign-target-devices': if any target device spec has a name then all must be named

// BAD: <cmdline>:1:1: error: invalid options for pass 'iree-hal-assign-target-devices': {{.*}}accepted targets: '#hal.executable.target<...>' IR text; 'ARCH' or 'ARCH:+feat1,+feat2,...'

util.func public @empty() {
  util.return
}

// -----

// Targets already chosen, or devices already declared: the pass keeps out.

// GFX942: module attributes {hal.device.targets = [#device_target_local]}
// TWO:    module attributes {hal.device.targets = [#device_target_local]}
// NAMED:  module attributes {hal.device.targets = [#device_target_local]}
module attributes {hal.device.targets = [#hal.device.target<"local"> : !hal.device]} {
}

// -----

// GFX942:      module {
// GFX942-NEXT:   util.global private @device = #device_target_local
// TWO:         module {
// TWO-NEXT:      util.global private @device = #device_target_local
// NAMED:       module {
// NAMED-NEXT:    util.global private @device = #device_target_local
util.global private @device = #hal.device.target<"local"> : !hal.device
