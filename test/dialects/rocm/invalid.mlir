// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// The file name is a string literal.
// expected-error @+1 {{string literal expected}}
func.func @builtin_tuning_module_bare_name() attributes {spec = #rocm.builtin.tuning_module<iree_default_tuning_spec_gfx942>} {
  return
}
