// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// MLIR reports the missing keyword, then the struct's error, at the same place.
// expected-error @+2 {{expected valid keyword}}
// expected-error @+1 {{expected a parameter name in struct}}
#encoding = #iree_encoding.matmul_k<>
func.func @no_k_dims(%arg0: tensor<?x?xf32, #encoding>) {
  return
}

// -----

// expected-error @+1 {{Expected integer literal}}
#encoding = #iree_encoding.matmul_k<k_dims = [1, ?]>
func.func @dynamic_k_dim(%arg0: tensor<?x?xf32, #encoding>) {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: n_dims}}
#encoding = #iree_encoding.matmul_k<n_dims = [1]>
func.func @unknown_parameter(%arg0: tensor<?x?xf32, #encoding>) {
  return
}
