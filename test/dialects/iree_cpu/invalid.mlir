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

// A resolved layout is checked against the tensor type it is attached to (the
// resolver alone, in an executable target say, is not), as IREE checks it.
#layout = #iree_cpu.cpu_encoding_resolver<configuration = {encoding_info = {innerDimsPos = [0, 1], innerTileSizes = [8, 1], outerDimsPerm = [0, 128]}}>
// expected-error @+1 {{outerDimsPerm index 128 is out of bounds for tensor rank 2}}
func.func @f(%arg0: tensor<?x?xf32, #layout>) {
  return
}
