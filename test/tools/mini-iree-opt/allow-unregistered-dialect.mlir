// RUN: mini-iree-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: not mini-iree-opt %s 2>&1 | filecheck %s --check-prefix=ERR
// RUN: mini-iree-opt --version | filecheck %s --check-prefix=VERSION

// Ops of unknown dialects are kept (in the generic form) only when allowed.

// CHECK: %0 = "foo.bar"() : () -> i32
// CHECK: "foo.baz"(%0) {attr = #foo.opaque<"x">} : (i32) -> ()
// ERR: allow-unregistered-dialect.mlir:[[# @LINE + 1]]:15: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
%0 = "foo.bar"() : () -> i32
"foo.baz"(%0) {attr = #foo.opaque<"x">} : (i32) -> ()

// VERSION: mini-iree-opt {{[0-9.]+}} (xDSL 0.74.0)
