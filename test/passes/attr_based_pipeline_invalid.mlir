// RUN: not mini-iree-opt %s -p iree-preprocessing-attr-based-pipeline 2>&1 | filecheck %s

// A pipeline that does not parse is an error at the function.

// CHECK: attr_based_pipeline_invalid.mlir:[[# @LINE + 1]]:1: error: 'util.func' op failed to populate pass manager specified by : iree-no-such-pass
util.func public @unknown_pass() attributes {preprocessing_pipeline = #util.preprocessing_pipeline<"iree-no-such-pass">} {
  util.return
}
