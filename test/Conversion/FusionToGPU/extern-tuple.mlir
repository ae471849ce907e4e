// An extern returning a tuple (Inductor's FallbackKernel with a
// MultiOutputLayout, e.g. attention returning output and log-sum-exp)
// writes the buffers of the `multi_output` externs extracting its elements;
// those run nothing. The call recorded on the extern (`fusion.call`) goes
// verbatim into its manifest step, with the storage of every buffer it
// names.
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/attention.json
// RUN: scheduler-opt %s --convert-fusion-to-loops | FileCheck %s --check-prefix=HOST

// HOST-LABEL: func.func @attention(
// HOST-SAME: %[[Q:[^:]*]]: memref<64xf32> {fusion.name = "q", fusion.role = "input"}
// HOST-SAME: %[[K:[^:]*]]: memref<64xf32> {fusion.name = "k", fusion.role = "input"}
// HOST-SAME: %[[OUT:[^:]*]]: memref<64xf32> {fusion.name = "buf3", fusion.role = "output"}
// HOST-SAME: %[[LSE:[^:]*]]: memref<8xf32> {fusion.name = "buf2", fusion.role = "output"}
// The tuple has no storage; its elements are the call's last operands, in
// element order, whatever order the graph lists the extractions in.
// HOST: %[[O:.*]] = memref.alloc() : memref<64xf32>
// HOST: call @aten.attention(%[[Q]], %[[K]], %[[O]], %[[LSE]])
// HOST-NOT: call @multi_output
// HOST: call @{{.*}}kernel_op4(

// The graph's buffers by name; the tuple has no storage.
// MANIFEST: "buffers": {
// MANIFEST-NEXT: "buf1": "buf1",
// MANIFEST-NEXT: "buf2": "buf2",
// MANIFEST-NEXT: "buf3": "buf3",
// MANIFEST-NEXT: "k": "k",
// MANIFEST-NEXT: "q": "q"
// MANIFEST-NEXT: },
// MANIFEST: "steps": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "args": [
// MANIFEST-NEXT: "q",
// MANIFEST-NEXT: "k",
// MANIFEST-NEXT: "buf1",
// MANIFEST-NEXT: "buf2"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "buffers": {
// MANIFEST-NEXT: "buf1": "buf1",
// MANIFEST-NEXT: "buf2": "buf2",
// MANIFEST-NEXT: "k": "k",
// MANIFEST-NEXT: "q": "q"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: "call": {
// MANIFEST-NEXT: "args": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "buffer": "q",
// MANIFEST-NEXT: "offset": 0,
// MANIFEST-NEXT: "size": [
// MANIFEST:      "kwargs": {
// MANIFEST-NEXT: "dropout": 0,
// MANIFEST-NEXT: "is_causal": true,
// MANIFEST-NEXT: "mask": null,
// MANIFEST-NEXT: "scale": 0.125
// MANIFEST-NEXT: }
// MANIFEST-NEXT: },
// MANIFEST-NEXT: "inputs": [
// MANIFEST-NEXT: "q",
// MANIFEST-NEXT: "k"
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "kind": "extern",
// MANIFEST-NEXT: "name": "aten.attention",
// MANIFEST-NEXT: "node": "op0",
// MANIFEST-NEXT: "outputs": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "buffer": "buf1",
// MANIFEST-NEXT: "index": 0,
// MANIFEST-NEXT: "storage": "buf1"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "buffer": "buf2",
// MANIFEST-NEXT: "index": 1,
// MANIFEST-NEXT: "storage": "buf2"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ]
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "args": [
// MANIFEST-NEXT: "buf1",
// MANIFEST-NEXT: "buf3"
// MANIFEST: "kind": "kernel",

fusion.graph @attention(%q: !fusion.buffer<8x8xf32>, %k: !fusion.buffer<8x8xf32>) -> (!fusion.buffer<8x8xf32>, !fusion.buffer<8xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.extern "op0" "aten.attention"(%q, %k) {fusion.call = {args = [{buffer = "q", offset = 0, size = [8, 8], stride = [8, 1]}, {buffer = "k", offset = 0, size = [8, 8], stride = [8, 1]}], kwargs = {dropout = 0, is_causal = true, mask, scale = 1.250000e-01 : f64}}} : (!fusion.buffer<8x8xf32>, !fusion.buffer<8x8xf32>) -> !fusion.multi_output
  %buf2 = fusion.extern "op2" "multi_output"(%buf0) {index = 1 : i64} : (!fusion.multi_output) -> !fusion.buffer<8xf32>
  %buf1 = fusion.extern "op1" "multi_output"(%buf0) {index = 0 : i64} : (!fusion.multi_output) -> !fusion.buffer<8x8xf32>
  %buf3 = fusion.node "op4" (%p0) in [64] writes(%out : !fusion.buffer<8x8xf32>) attributes {buffer_names = ["buf3"]} {
    %0 = fusion.load %buf1[%p0] : !fusion.buffer<8x8xf32>
    %1 = arith.addf %0, %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<8x8xf32>
  }
  fusion.output %buf3, %buf2 : !fusion.buffer<8x8xf32>, !fusion.buffer<8xf32>
}
