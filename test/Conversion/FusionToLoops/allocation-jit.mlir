// A fusion.nop that reads nothing is an allocation: Inductor's torch.empty
// (a ComputedBuffer whose ranges it set to 0, printed as a
// NopKernelSchedulerNode without reads) that a later node or extern writes
// in place. It gets a storage of its own; here a node fills it (x * 2 at
// the reversed position) and the graph returns the update. The expected
// values are computed from the input the JIT prints (print-inputs).

// RUN: scheduler-opt %s --convert-fusion-to-loops --test-fusion-jit-main=print-inputs=1 \
// RUN:   --fusion-loops-to-llvm | %jit_run > %t
// RUN: %python -c "import re, sys; t = open(sys.argv[1]).read(); b = [[float(v) for v in re.findall(r'-?\d+(?:\.\d+)?(?:e[-+]?\d+)?', blk.split('data =')[1])] for blk in t.split('Unranked Memref')[1:]]; o, x = b[0], b[1]; print('OK' if o == [2 * v for v in reversed(x)] else 'BAD %%r %%r' % (o, x))" %t | FileCheck %s
// CHECK: OK
// The storage plan gives the allocation a storage of its own (buf0), which
// the update is copied from into the output, as for any update in place.
// RUN: rm -rf %t.gpu && scheduler-opt %s --fusion-to-ptx="output-dir=%t.gpu" -o /dev/null
// RUN: %python -c "import json, sys; m = json.load(open(sys.argv[1])); print([(s['name'], s['role']) for s in m['storages']])" %t.gpu/alloc.json | FileCheck %s --check-prefix=STORAGES
// STORAGES: [('x', 'input'), ('output0', 'output'), ('buf0', 'temp')]

fusion.graph @alloc(%x: !fusion.buffer<4xf32>) -> (!fusion.buffer<4xf32>) attributes {device = "cuda:0", input_names = ["x"]} {
  %empty = fusion.nop "op0"() {buffer_names = ["buf0"]} : () -> !fusion.buffer<4xf32>
  %filled = fusion.node "op1" (%p0) in [4] writes(%out : !fusion.buffer<4xf32> mutates %empty) attributes {buffer_names = ["buf1"]} {
    %v = fusion.load %x[3 - %p0] : !fusion.buffer<4xf32>
    %two = arith.constant 2.0 : f32
    %w = arith.mulf %v, %two : f32
    fusion.store %w, %out[%p0] : !fusion.buffer<4xf32>
  }
  fusion.output %filled : !fusion.buffer<4xf32>
}
