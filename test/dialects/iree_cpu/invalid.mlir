// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{expected encoding_info to be a dictionary with integer arrays innerDimsPos, innerTileSizes and outerDimsPerm, and an optional swizzle}}
func.func @cpu_encoding_resolver_missing_outer_dims_perm() attributes {r = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1]}}>} {
  return
}

// -----

// expected-error @+1 {{expected encoding_info to be a dictionary with integer arrays innerDimsPos, innerTileSizes and outerDimsPerm, and an optional swizzle}}
func.func @vmvx_encoding_resolver_bad_tile_sizes() attributes {r = #iree_cpu.vmvx_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = "8x1", outerDimsPerm = [0, 1]}}>} {
  return
}

// -----

// expected-error @+1 {{duplicate or unknown struct parameter name: config}}
func.func @cpu_encoding_resolver_unknown_parameter() attributes {r = #iree_cpu.cpu_encoding_resolver<config = {}>} {
  return
}

// -----

// expected-error @+1 {{invalid encoding_info: outerDimsPerm [0, 128] is not a permutation of 2 dims}}
#target = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 128]}}>}>
func.func @f() attributes {hal.executable.target = #target} {
  return
}
