// RUN: mini-iree-opt %s --split-input-file --verify-diagnostics

// A function that names a lifetime takes only resources of that lifetime.
stream.async.func private @transient_only(%arg0: !stream.resource<transient>, %arg1: index) -> %arg0

util.func private @narrow(%r: !stream.resource<external>, %size: index) -> !stream.resource<external> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{function argument type mismatch; expected '!stream.resource<external>' but callee provides '!stream.resource<transient>'}}
  %0 = stream.async.call @transient_only(%r[%c0 to %size for %size], %size) : (!stream.resource<external>{%size}, index) -> %r{%size}
  util.return %0 : !stream.resource<external>
}

// -----

stream.async.func private @one(%arg0: index) -> !stream.resource<*>

util.func private @arity(%size: index) -> !stream.resource<*> {
  // expected-error @+1 {{function type mismatch; expected '(index, index) -> !stream.resource<*>' but callee is '(index) -> !stream.resource<*>'}}
  %0 = stream.async.call @one(%size, %size) : (index, index) -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

util.func private @missing(%size: index) -> !stream.resource<*> {
  // expected-error @+1 {{undefined external call: missing}}
  %0 = stream.async.call @missing(%size) : (index) -> !stream.resource<*>{%size}
  util.return %0 : !stream.resource<*>
}

// -----

// A broadcast names its source rank; an all_gather names none (written generically to leave it out).
util.func private @broadcast_without_source(%channel: !stream.channel, %r: !stream.resource<*>, %size: index) -> !stream.resource<*> {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'stream.async.collective' op collective operation requires a source parameter but none present}}
  %0 = "stream.async.collective"(%r, %size, %c0, %size, %size, %r, %size, %c0, %size, %size, %size, %channel) <{op = #stream.collective<broadcast : f32>}> : (!stream.resource<*>, index, index, index, index, !stream.resource<*>, index, index, index, index, index, !stream.channel) -> !stream.resource<*>
  util.return %0 : !stream.resource<*>
}
