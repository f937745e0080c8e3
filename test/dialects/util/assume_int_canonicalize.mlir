// RUN: mini-iree-opt %s --split-input-file -p canonicalize | filecheck %s

// util.assume.int's canonicalization (IREE's DeduplicateOperands): an operand listed
// twice with the same assumption keeps one entry, and the uses of the dropped result
// read the kept one (walkthrough dumps 19 -> 21: four operands become two).

// CHECK-LABEL: func.func @repeated_pairs(
// CHECK-SAME:      %[[A:.+]]: index, %[[B:.+]]: index)
// CHECK-NEXT:    %[[R:.+]]:2 = util.assume.int
// CHECK-NEXT:        %[[A]]<umin = 0, umax = 9007199254740991>,
// CHECK-NEXT:        %[[B]]<umin = 0, umax = 9007199254740991>
// CHECK-NEXT:      : index, index
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1, %[[R]]#0, %[[R]]#1 : index, index, index, index
func.func @repeated_pairs(%a: index, %b: index) -> (index, index, index, index) {
  %0:4 = util.assume.int
      %a<umin = 0, umax = 9007199254740991>,
      %b<umin = 0, umax = 9007199254740991>,
      %a<umin = 0, umax = 9007199254740991>,
      %b<umin = 0, umax = 9007199254740991>
    : index, index, index, index
  return %0#0, %0#1, %0#2, %0#3 : index, index, index, index
}

// -----

// The same operand with different assumptions: one entry holding both facts (the larger
// minimum, the smaller maximum, the lcm of the divisors), as IREE's getUnionedRange;
// entries keep the order of their operands' first occurrence.

// CHECK-LABEL: func.func @different_assumptions(
// CHECK-SAME:      %[[A:.+]]: index, %[[B:.+]]: index)
// CHECK-NEXT:    %[[R:.+]]:2 = util.assume.int
// CHECK-NEXT:        %[[B]]<udiv = 8192>,
// CHECK-NEXT:        %[[A]]<umin = 2, umax = 10, udiv = 12>
// CHECK-NEXT:      : index, index
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1, %[[R]]#1 : index, index, index
func.func @different_assumptions(%a: index, %b: index) -> (index, index, index) {
  %0:3 = util.assume.int
      %b<udiv = 8192>,
      %a<umin = 0, umax = 10, udiv = 4>,
      %a<umin = 2, umax = 20, udiv = 6>
    : index, index, index
  return %0#0, %0#1, %0#2 : index, index, index
}

// -----

// Rows of several assumptions (one per call site) are unioned position by position; a
// single assumption broadcasts against them.

// CHECK-LABEL: func.func @rows(
// CHECK-NEXT:    %[[R:.+]] = util.assume.int %{{.+}}[<umin = 4, umax = 64>, <umin = 16, umax = 64>] : i32
// CHECK-NEXT:    return %[[R]], %[[R]] : i32, i32
func.func @rows(%a: i32) -> (i32, i32) {
  %0:2 = util.assume.int
      %a[<umin = 0, umax = 100>, <umin = 16, umax = 200>],
      %a<umin = 4, umax = 64>
    : i32, i32
  return %0#0, %0#1 : i32, i32
}

// -----

// Distinct operands are left as they are.

// CHECK-LABEL: func.func @distinct(
// CHECK-NEXT:    %[[R:.+]]:2 = util.assume.int
// CHECK-NEXT:        %{{.+}}<umin = 0>,
// CHECK-NEXT:        %{{.+}}<umin = 0>
// CHECK-NEXT:      : index, index
// CHECK-NEXT:    return %[[R]]#0, %[[R]]#1 : index, index
func.func @distinct(%a: index, %b: index) -> (index, index) {
  %0:2 = util.assume.int %a<umin = 0>, %b<umin = 0> : index, index
  return %0#0, %0#1 : index, index
}

// -----

// IREE's canonicalizeAssumeIntOp: an assumption fixing the value (umin == umax) becomes a
// constant, a constant operand needs no assumption, a row of identical assumptions is one,
// and results nothing reads are dropped once the op is rebuilt.

// CHECK-LABEL: func.func @fixed_values(
// CHECK-SAME:      %[[A:[^:]+]]: index, %[[B:[^:]+]]: index, %[[C:[^:]+]]: index, %[[D:[^:]+]]: i32)
// CHECK-DAG:     %[[K:.+]] = arith.constant 5 : index
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C7:.+]] = arith.constant 7 : i32
// CHECK:         %[[R:.+]] = util.assume.int %[[B]]<udiv = 4> : index
// CHECK-NEXT:    return %[[C0]], %[[R]], %[[C7]], %[[K]] : index, index, i32, index
func.func @fixed_values(%a: index, %b: index, %c: index, %d: i32) -> (index, index, i32, index) {
  %k = arith.constant 5 : index
  %0:5 = util.assume.int
      %a<umin = 0, umax = 0>,
      %b[<udiv = 4>, <udiv = 4>],
      %c<umin = 1>,
      %d<umin = 7, umax = 7>,
      %k<umin = 5>
    : index, index, index, i32, index
  return %0#0, %0#1, %0#3, %0#4 : index, index, i32, index
}

// -----

// Nothing to normalize: an unused result stays (IREE only rebuilds the op when it must).

// CHECK-LABEL: func.func @unused_result_stays(
// CHECK-NEXT:    %[[R:.+]]:2 = util.assume.int
// CHECK-NEXT:        %{{.+}}<umin = 1>,
// CHECK-NEXT:        %{{.+}}<udiv = 2>
// CHECK-NEXT:      : index, index
// CHECK-NEXT:    return %[[R]]#0 : index
func.func @unused_result_stays(%a: index, %b: index) -> index {
  %0:2 = util.assume.int %a<umin = 1>, %b<udiv = 2> : index, index
  return %0#0 : index
}
