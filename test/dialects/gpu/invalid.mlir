// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{Expected `x`, `y`, `z`, `linear_dim_0`}}
func.func @unknown_mapping() attributes {mapping = [#gpu.thread<linear_dim_99>]} {
  return
}

// -----

// expected-error @+1 {{Expected `global`, `workgroup`, or `private`.}}
func.func @unknown_address_space(%m: memref<4xf32, #gpu.address_space<shared>>) {
  return
}
