// REQUIRES: capi
// The C API of the installed package (libSchedulerOpt-C.so) runs a pipeline
// that mixes fusion and upstream passes. Inductor fuses
// ../../layernorm_gelu.mlir's five nodes into the one kernel
// op0_op1_op3_op4_op5 (its post-fusion dump, corpus/inductor/layernorm_gelu).
//
// RUN: downstream-capi %examples/layernorm_gelu.mlir \
// RUN:   'builtin.module(fusion-schedule, convert-fusion-to-loops, canonicalize, cse)' \
// RUN:   | FileCheck %s

// CHECK-NOT: fusion.graph
// CHECK: func.func private @layernorm_gelu__kernel_op0_op1_op3_op4_op5(
// CHECK: func.func @layernorm_gelu(
// CHECK: call @layernorm_gelu__kernel_op0_op1_op3_op4_op5(
// CHECK-NOT: call
// CHECK: return

// A pipeline naming an unknown pass fails with the parser's message.
// RUN: not downstream-capi %examples/layernorm_gelu.mlir 'builtin.module(fusion-no-such-pass)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: 'fusion-no-such-pass' does not refer to a registered pass or pass pipeline
