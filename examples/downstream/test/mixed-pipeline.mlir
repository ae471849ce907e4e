// One pipeline mixing scheduler-opt's passes, MLIR's and this compiler's own,
// on ../../layernorm_gelu.mlir (Inductor's gelu(layer_norm(x)) graph).
// Inductor fuses its five nodes into one kernel: the post-fusion dump
// (corpus/inductor/layernorm_gelu) holds the single node
// `op0_op1_op3_op4_op5: FusedSchedulerNode(...)`.
//
// RUN: downstream-opt %examples/layernorm_gelu.mlir \
// RUN:   -mlir-print-op-on-diagnostic=false --pass-pipeline='builtin.module(fusion-schedule, fusion.graph(downstream-print-kernels), convert-fusion-to-loops, canonicalize, cse, loop-invariant-code-motion)' \
// RUN:   2>&1 | FileCheck %s

// CHECK: remark: op0_op1_op3_op4_op5: FusedSchedulerNode
// CHECK-NOT: remark:
// CHECK-NOT: fusion.graph
// CHECK: func.func private @layernorm_gelu__kernel_op0_op1_op3_op4_op5(
// CHECK: scf.for
// CHECK: func.func @layernorm_gelu(
// CHECK: call @layernorm_gelu__kernel_op0_op1_op3_op4_op5(
// CHECK-NOT: call
// CHECK: return

// The tool also runs scheduler-opt's registered pipelines unchanged: the
// same schedule with the installed scheduler-opt.
// RUN: downstream-opt %examples/layernorm_gelu.mlir --fusion-schedule > %t.downstream.mlir
// RUN: scheduler-opt %examples/layernorm_gelu.mlir --fusion-schedule > %t.scheduler-opt.mlir
// RUN: diff %t.downstream.mlir %t.scheduler-opt.mlir
