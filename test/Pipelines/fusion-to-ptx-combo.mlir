// A foreach (combo) kernel through --fusion-to-ptx: one PTX entry and one
// kernel step in the manifest (as the runtime's manifest reader sees it),
// whose block 0 runs the first pointwise part's 512 elements and block 1
// the second's 1000 (4 elements per thread).
// RUN: rm -rf %t && scheduler-opt %s --fusion-to-ptx="output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/combo.ptx
// RUN: env PYTHONDONTWRITEBYTECODE=1 %python -c "import sys; sys.path.insert(0, '%src_root/python'); \
// RUN:   from scheduler_opt import manifest; m = manifest.load('%t/combo.json'); \
// RUN:   print(m.graph, [(k.name, k.grid, k.block, k.args) for k in m.kernels()])" \
// RUN: | FileCheck %s --check-prefix=PY
// With combo-kernels, two independent kernels become one.
// RUN: rm -rf %t.two && scheduler-opt %s --fusion-to-ptx="combo-kernels=1 output-dir=%t.two" -o /dev/null
// RUN: env PYTHONDONTWRITEBYTECODE=1 %python -c "import sys; sys.path.insert(0, '%src_root/python'); \
// RUN:   from scheduler_opt import manifest; m = manifest.load('%t.two/two.json'); \
// RUN:   print(m.graph, [(k.name, k.grid, k.block) for k in m.kernels()])" \
// RUN: | FileCheck %s --check-prefix=COMBO
// RUN: rm -rf %t.plain && scheduler-opt %s --fusion-to-ptx="output-dir=%t.plain" -o /dev/null
// RUN: env PYTHONDONTWRITEBYTECODE=1 %python -c "import sys; sys.path.insert(0, '%src_root/python'); \
// RUN:   from scheduler_opt import manifest; m = manifest.load('%t.plain/two.json'); \
// RUN:   print(m.graph, len(m.kernels()))" \
// RUN: | FileCheck %s --check-prefix=PLAIN

// PTX: .visible .entry kernel_op0_op1(
// PTX-NOT: .entry
// PY: combo [('kernel_op0_op1', (2, 1, 1), (256, 1, 1), ('x', 'buf0', 'y', 'buf1'))]
// COMBO: two [('kernel_op0_op1', (2, 1, 1), (64, 1, 1))]
// PLAIN: two 2

fusion.graph @combo(%x: !fusion.buffer<512xf32>, %y: !fusion.buffer<1000xf32>) -> (!fusion.buffer<512xf32>, !fusion.buffer<1000xf32>) attributes {device = "cuda:0"} {
  %buf0, %buf1 = fusion.foreach -> !fusion.buffer<512xf32>, !fusion.buffer<1000xf32> {
    %0 = fusion.node "op0" (%p0) in [512] writes(%out : !fusion.buffer<512xf32>) attributes {buffer_names = ["buf0"]} {
      %a = fusion.load %x[%p0] : !fusion.buffer<512xf32>
      %r = math.tanh %a : f32
      fusion.store %r, %out[%p0] : !fusion.buffer<512xf32>
    }
    %1 = fusion.node "op1" (%p0) in [1000] writes(%out : !fusion.buffer<1000xf32>) attributes {buffer_names = ["buf1"]} {
      %a = fusion.load %y[%p0] : !fusion.buffer<1000xf32>
      %e = math.exp %a : f32
      fusion.store %e, %out[%p0] : !fusion.buffer<1000xf32>
    }
    fusion.yield %0, %1 : !fusion.buffer<512xf32>, !fusion.buffer<1000xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<512xf32>, !fusion.buffer<1000xf32>
}

fusion.graph @two(%x: !fusion.buffer<64xf32>, %y: !fusion.buffer<32xf32>) -> (!fusion.buffer<64xf32>, !fusion.buffer<32xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
    %0 = fusion.load %x[%p0] : !fusion.buffer<64xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<64xf32>
  }
  %buf1 = fusion.node "op1" (%p0) in [32] writes(%out : !fusion.buffer<32xf32>) {
    %0 = fusion.load %y[%p0] : !fusion.buffer<32xf32>
    %1 = math.exp %0 : f32
    fusion.store %1, %out[%p0] : !fusion.buffer<32xf32>
  }
  fusion.output %buf0, %buf1 : !fusion.buffer<64xf32>, !fusion.buffer<32xf32>
}
