// --fusion-to-ptx lowers a graph to PTX for sm_90 and, with output-dir,
// writes the PTX and the launch manifest the Python harness reads.
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="output-dir=%t" -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: FileCheck %s --check-prefix=PTX < %t/add_sum.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/add_sum.json
// RUN: env PYTHONDONTWRITEBYTECODE=1 %python -c "import sys; sys.path.insert(0, '%src_root/python'); \
// RUN:   from scheduler_opt import manifest; m = manifest.load('%t/add_sum.json'); \
// RUN:   print(m.graph, [(k.name, k.grid, k.block, k.args) for k in m.kernels()], m.min_bytes())" \
// RUN: | FileCheck %s --check-prefix=PY

// The host function calls the GPU runtime; the kernels are a gpu.binary
// holding PTX; the manifest stays on the module.
// IR: module attributes {fusion.launch_manifests = {add_sum = {{{.*}}}}, gpu.container_module}
// IR: gpu.binary @add_sum_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81"{{.*}}>, {{.*}}assembly = "
// IR: llvm.func @add_sum(
// IR: gpu.launch_func @add_sum_kernels::@kernel_op0

// PTX: .version 8.1
// PTX: .target sm_90
// The bare-pointer calling convention: one pointer per storage; inputs are
// read through the read-only cache (the pointers do not alias); no cache
// hints by default (cache-hints.mlir).
// PTX: .visible .entry kernel_op0(
// PTX-NEXT: .param .u64 .ptr .align 1 kernel_op0_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 kernel_op0_param_1,
// PTX-NEXT: .param .u64 .ptr .align 1 kernel_op0_param_2
// PTX-NEXT: )
// PTX: .maxntid 512, 1, 1
// PTX: ld.global.nc.v4.b32
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX: st.global.b32

// MANIFEST: "binary": "add_sum.ptx",
// MANIFEST: "format": "ptx",
// MANIFEST: "graph": "add_sum",
// MANIFEST: "steps": [
// MANIFEST: "args": [
// MANIFEST-NEXT: "arg0_1",
// MANIFEST-NEXT: "arg1_1",
// MANIFEST-NEXT: "buf0"
// MANIFEST: "block": [
// MANIFEST-NEXT: 512,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 64,
// MANIFEST: "name": "kernel_op0",
// MANIFEST: "target": "#nvvm.target<O = 3, chip = \"sm_90\", features = \"+ptx81\"

// Two 64x4096 inputs read once, 64 sums written: 2 * 1 MiB + 256 bytes.
// PY: add_sum [('kernel_op0', (64, 1, 1), (512, 1, 1), ('arg0_1', 'arg1_1', 'buf0'))] 2097408
fusion.graph @add_sum(%arg0_1: !fusion.buffer<64x4096xf32>, %arg1_1: !fusion.buffer<64x4096xf32>) -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [4096] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %arg0_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %1 = fusion.load %arg1_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
    %2 = arith.addf %0, %1 : f32
    %3 = fusion.reduce sum %2 : f32 -> f32
    fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
  }
  fusion.output %buf0 : !fusion.buffer<64xf32>
}
