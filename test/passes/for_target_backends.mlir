// RUN: mini-iree-opt %s -p 'for-target-backends{backends=rocm pass-name=iree-codegen-gpu-generalize-named-ops}' | filecheck %s
// RUN: mini-iree-opt %s -p 'for-target-backends{backends=rocm pass-name=canonicalize}' | filecheck %s --check-prefix=CANON
// RUN: mini-iree-opt %s -p 'for-target-backends{backends=llvm-cpu,rocm pass-name=iree-codegen-gpu-generalize-named-ops}' | filecheck %s --check-prefix=BOTH
// RUN: not mini-iree-opt %s -p 'for-target-backends{backends=rocm pass-name=no-such-pass}' 2>&1 | filecheck %s --check-prefix=ERROR

// A pass runs on the executables of the named backends only: the rocm variant's
// transpose is generalized and its assumptions deduplicated, the llvm-cpu variant
// and the host function stay as they are.

#rocm = #hal.executable.target<"rocm", "rocm-hsaco-fb", {abi = "hip"}>
#cpu = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {target_triple = "x86_64-unknown-unknown-eabi-elf"}>

// CHECK-LABEL:  hal.executable private @gpu
// CHECK:          func.func @gpu_transpose
// CHECK-NEXT:       linalg.generic
// CHECK-LABEL:  hal.executable private @cpu
// CHECK:          func.func @cpu_transpose
// CHECK-NEXT:       linalg.transpose
// CHECK:        func.func @host
// CHECK-NEXT:     linalg.transpose

// CANON-LABEL:  func.func @gpu_transpose
// CANON-NEXT:     linalg.transpose
// CANON-NEXT:     util.assume.int %{{.+}}<umin = 0> : index
// CANON-LABEL:  func.func @cpu_transpose
// CANON-NEXT:     linalg.transpose
// CANON-NEXT:     util.assume.int
// CANON-NEXT:       %{{.+}}<umin = 0>,
// CANON-NEXT:       %{{.+}}<umin = 0>
// CANON-LABEL:  func.func @host
// CANON-NEXT:     linalg.transpose
// CANON-NEXT:     util.assume.int
// CANON-NEXT:       %{{.+}}<umin = 0>,
// CANON-NEXT:       %{{.+}}<umin = 0>

// BOTH:         func.func @gpu_transpose
// BOTH-NEXT:      linalg.generic
// BOTH:         func.func @cpu_transpose
// BOTH-NEXT:      linalg.generic
// BOTH:         func.func @host
// BOTH-NEXT:      linalg.transpose

// ERROR: pass-name 'no-such-pass' does not name a registered pass

module {
  hal.executable private @gpu {
    hal.executable.variant public @rocm_hsaco_fb target(#rocm) {
      builtin.module {
        func.func @gpu_transpose(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %n: index) -> (tensor<3x2xf32>, index) {
          %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
          %0:2 = util.assume.int %n<umin = 0>, %n<umin = 0> : index, index
          %1 = arith.addi %0#0, %0#1 : index
          return %t, %1 : tensor<3x2xf32>, index
        }
      }
    }
  }
  hal.executable private @cpu {
    hal.executable.variant public @embedded_elf_x86_64 target(#cpu) {
      builtin.module {
        func.func @cpu_transpose(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %n: index) -> (tensor<3x2xf32>, index) {
          %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
          %0:2 = util.assume.int %n<umin = 0>, %n<umin = 0> : index, index
          %1 = arith.addi %0#0, %0#1 : index
          return %t, %1 : tensor<3x2xf32>, index
        }
      }
    }
  }
  func.func @host(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %n: index) -> (tensor<3x2xf32>, index) {
    %t = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%b : tensor<3x2xf32>) permutation = [1, 0]
    %0:2 = util.assume.int %n<umin = 0>, %n<umin = 0> : index, index
    %1 = arith.addi %0#0, %0#1 : index
    return %t, %1 : tensor<3x2xf32>, index
  }
}
