// Split reductions on thread block clusters in PTX (sm_90): the kernel
// declares its cluster shape (.explicitcluster, .reqnctapercluster), arrives
// at the cluster barrier when it starts, maps the first block's slots into
// the cluster's shared window (mapa.shared::cluster) and stores its partial
// there (st.shared::cluster) between cluster barriers; the manifest records
// the cluster, which the Python reader gives the launch. Chips before
// sm_90 have no clusters: there the same kernel exchanges through global
// memory.
// RUN: rm -rf %t %t80 && scheduler-opt %s --fusion-to-ptx="chip=sm_90 output-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/one_row.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/one_row.json
// RUN: env PYTHONDONTWRITEBYTECODE=1 %python -c "import sys; sys.path.insert(0, '%src_root/python'); \
// RUN:   from scheduler_opt import manifest; m = manifest.load('%t/one_row.json'); \
// RUN:   print([(k.name, k.grid, k.block, k.cluster) for k in m.kernels()])" \
// RUN: | FileCheck %s --check-prefix=PY
// RUN: scheduler-opt %s --fusion-to-ptx="chip=sm_80 output-dir=%t80" -o /dev/null
// RUN: FileCheck %s --check-prefix=SM80 < %t80/one_row.ptx
// RUN: FileCheck %s --check-prefix=SM80-MANIFEST < %t80/one_row.json
// A kernel's own reduction-cluster on a chip without clusters is an error
// at the node.
// RUN: not scheduler-opt %s --fusion-to-ptx="chip=sm_80 kernel-configs=kernel_op0:reduction-cluster=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCLUSTERS
// NOCLUSTERS: cluster-ptx.mlir:[[@LINE+32]]:11: error: 'nvvm.cluster.arrive.relaxed' op is not supported on sm_80

// PTX: .visible .entry kernel_op0(
// PTX: .maxntid 64, 1, 1
// PTX-NEXT: .explicitcluster
// PTX-NEXT: .reqnctapercluster 8, 1, 1
// PTX: .shared .align 4 .b8 [[SLOTS:kernel_op0_cluster0_partial0]][32];
// PTX: barrier.cluster.arrive.relaxed.aligned;
// PTX: bar.sync
// PTX: barrier.cluster.wait.aligned;
// PTX: mapa.shared::cluster.u64 {{.*}}, 0;
// PTX: st.shared::cluster.b32
// PTX: barrier.cluster.arrive.aligned;
// PTX-NEXT: barrier.cluster.wait.aligned;
// PTX: ld.shared.b32
// PTX: st.global.b32
// PTX-NOT: barrier.cluster
// PTX-NOT: atom.

// MANIFEST: "cluster": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// PY: [('kernel_op0', (8, 1, 1), (64, 1, 1), (8, 1, 1))]

// SM80: .target sm_80
// SM80-NOT: cluster
// SM80: atom.global.add.u32
// SM80-NOT: cluster
// SM80-MANIFEST-NOT: cluster

fusion.graph @one_row(%a: !fusion.buffer<1x4096xf32>, %b: !fusion.buffer<1x4096xf32>, %c: !fusion.buffer<1x4096xf32>) -> (!fusion.buffer<1xf32>) attributes {device = "cuda:0"} {
  %buf0 = fusion.node "op0" (%p0, %p1) in [1] reduce [4096] writes(%out : !fusion.buffer<1xf32>) {
    %0 = fusion.load %a[%p0 * 4096 + %p1] : !fusion.buffer<1x4096xf32>
    %1 = fusion.load %b[%p0 * 4096 + %p1] : !fusion.buffer<1x4096xf32>
    %2 = fusion.load %c[%p0 * 4096 + %p1] : !fusion.buffer<1x4096xf32>
    %3 = arith.addf %0, %1 : f32
    %4 = arith.mulf %3, %2 : f32
    %5 = fusion.reduce sum %4 : f32 -> f32
    fusion.store %5, %out[%p0] : !fusion.buffer<1xf32>
  }
  fusion.output %buf0 : !fusion.buffer<1xf32>
}
