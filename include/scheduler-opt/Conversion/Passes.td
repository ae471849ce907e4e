//===- Passes.td - Lowerings of the fusion dialect ---------*- tablegen -*-===//
//
// Conversions out of the fusion dialect: to GPU kernels (gpu + scf + memref,
// then upstream NVVM lowering to PTX) and to CPU loops the LLVM JIT runs.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_CONVERSION_PASSES_TD
#define SCHEDULER_OPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertFusionToGPUPass : Pass<"convert-fusion-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower every fusion.graph to GPU kernels launched from a host function";
  let description = [{
    Each `fusion.graph @g` becomes a host `func.func @g` that takes one
    1-D memref per graph input and per graph output (the buffers' storage,
    indexed by the flat offsets of the dialect), allocates the
    intermediate buffers with `gpu.alloc`, and runs the graph's top-level
    scheduler nodes in their order: each kernel (an unfused `fusion.node` or
    a `fusion.fused` group) is one `gpu.func` of `gpu.module @g_kernels`,
    launched with `gpu.launch_func`; each `fusion.extern` is a `func.call` to
    a declared external function; outputs that alias inputs or other outputs
    are filled with `gpu.memcpy`. Members of `fusion.foreach` and
    `fusion.group` become separate kernels.

    Kernels follow Inductor's Triton backend: a kernel runs over
    `(numel, rnumel)`. Pointwise kernels map the flattened index space to
    threads, four adjacent elements each (16-byte accesses where
    contiguous). Reduction kernels give each row a power of two of threads
    (part of a warp for short rows, several rows per block; up to a block
    for long ones), keep the row in registers when each thread holds at
    most `max-persistent-elements` of it (else loop over it), and combine
    partial results with a tree of `gpu.shuffle xor` steps and, across
    warps, shared memory. f32 exponentials and divisions are Triton's (`approx-exp`,
    `f32-division`). A buffer produced and consumed inside a
    `fusion.fused` group lives in registers and is stored only if something
    outside the group reads it; pointwise members after a reduction reuse
    the reduced value of their row.

    The pass also records a launch manifest per graph (kernels in order,
    grid and block sizes, argument storages, tensor shapes, strides and
    dtypes) in the module attribute `fusion.launch_manifests`, which
    `fusion-write-gpu-artifacts` writes out as JSON.

    A graph the lowering cannot handle (an op without a lowering, members
    that do not map onto the group's iteration space, an in-group read at an
    index the producer did not write) fails with a diagnostic on that op.
    The pass runs on the module because it creates functions and GPU
    modules next to the graphs it replaces. See docs/Lowering.md.

    Before:

    ```mlir
    fusion.graph @add_sum(%arg0_1: !fusion.buffer<64x4096xf32>,
                          %arg1_1: !fusion.buffer<64x4096xf32>)
        -> (!fusion.buffer<64xf32>) attributes {device = "cuda:0"} {
      %buf0 = fusion.node "op0" (%p0, %p1) in [64] reduce [4096]
          writes(%out : !fusion.buffer<64xf32>) {
        %0 = fusion.load %arg0_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
        %1 = fusion.load %arg1_1[%p0 * 4096 + %p1] : !fusion.buffer<64x4096xf32>
        %2 = arith.addf %0, %1 : f32
        %3 = fusion.reduce sum %2 : f32 -> f32
        fusion.store %3, %out[%p0] : !fusion.buffer<64xf32>
      }
      fusion.output %buf0 : !fusion.buffer<64xf32>
    }
    ```

    After (abridged):

    ```mlir
    gpu.module @add_sum_kernels {
      gpu.func @kernel_op0(%arg0_1: memref<262144xf32>, %arg1_1: memref<262144xf32>,
                           %buf0: memref<64xf32>)
          workgroup(%smem: memref<16xf32, #gpu.address_space<workgroup>>)
          kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
        // per thread: 8 loads of each input, then a shuffle/shared-memory tree
        %shfl, %valid = gpu.shuffle xor %acc, %c16_i32, %c32_i32 : f32
        ...
      }
    }
    func.func @add_sum(%arg0_1: memref<262144xf32>, %arg1_1: memref<262144xf32>,
                       %output0: memref<64xf32>) {
      gpu.launch_func @add_sum_kernels::@kernel_op0 blocks in (%c64, %c1, %c1)
          threads in (%c512, %c1, %c1) args(%arg0_1 : memref<262144xf32>, ...)
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    // llvm.inline_asm (Inductor's inline_asm_elementwise), llvm.call_intrinsic
    // (div.full.f32).
    "::mlir::LLVM::LLVMDialect",
    // Cluster barriers and mapa (split reductions on a cluster).
    "::mlir::NVVM::NVVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"pointwiseBlockSize", "pointwise-block-size", "int64_t", "256",
           "Threads per block of pointwise kernels">,
    Option<"pointwiseVectorWidth", "pointwise-vector-width", "int64_t", "4",
           "Adjacent elements each thread of a pointwise kernel takes (vector "
           "accesses where contiguous); 1 for one element per thread">,
    Option<"reductionLanes", "reduction-lanes", "int64_t", "0",
           "Threads per row of every reduction kernel (a power of two); 0 "
           "chooses per kernel">,
    Option<"reductionRowsPerBlock", "reduction-rows-per-block", "int64_t", "0",
           "Rows per block of every reduction kernel (a power of two); 0 "
           "chooses per kernel">,
    Option<"reductionRowsPerThread", "reduction-rows-per-thread", "int64_t",
           "0",
           "Rows each thread of a reduction computes at the same element "
           "positions (1, 2 or 4; a weight along the row is loaded once for "
           "them); 0 chooses per kernel by the register budget">,
    Option<"reductionSplit", "reduction-split", "int64_t", "0",
           "Blocks per row of reductions with few long rows (a power of two "
           "up to 32; their last block merges the partials); 0 chooses by "
           "the row count against num-sms, 1 never splits">,
    Option<"reductionCluster", "reduction-cluster", "int64_t", "8",
           "Most blocks of a split row on one thread block cluster (sm_90 "
           "and later; a power of two up to 8, the portable cluster size): "
           "their partials merge through distributed shared memory instead "
           "of global memory and an atomic counter; 0 never uses clusters">,
    Option<"vectorAtomics", "vector-atomics", "bool", "true",
           "A thread's adjacent f32 atomic adds (a scatter-add of a row into "
           "a gradient at 256 * token + r) become one vector atomic, "
           "red.global.add.v4.f32 (sm_90 and PTX 8.1: the --fusion-to-ptx "
           "pipeline turns it off for older chips and PTX versions); false "
           "adds element by element">,
    Option<"blockScans", "block-scans", "bool", "true",
           "Scans along rows (cumsum, cummax, any combine function) run on "
           "a thread block per row, as Triton's tl.associative_scan does "
           "(BlockScan.h); false scans each row on one thread, element by "
           "element (and so do kernels with a sort that block-sorts leaves "
           "on one thread)">,
    Option<"scanElementsPerThread", "scan-elements-per-thread", "int64_t",
           "4",
           "Adjacent row elements each thread of a block scan takes per "
           "chunk (the block size follows, 32 to 1024 threads)">,
    Option<"blockSorts", "block-sorts", "bool", "true",
           "Sorts along static rows of 16 elements or more that fit in "
           "shared memory run on a lane group or thread block per row, a "
           "bitonic network as Triton's tl.sort (BlockSort.h); false, and "
           "other rows, sort each row on one thread (an insertion sort)">,
    Option<"registerSortRow", "register-sort-row", "int64_t", "512",
           "Block sorts of rows of up to this many elements (padded to a "
           "power of two) run on a lane group of up to a warp and sort in "
           "registers (BlockSort.h); longer rows on a block in shared "
           "memory. A power of two, 128 to 1024">,
    Option<"sortElementsPerLane", "sort-elements-per-lane", "int64_t", "8",
           "Adjacent elements each lane of a block sort in registers holds: "
           "a row padded to N takes N / this many lanes, 4 to 32 (a power "
           "of two, 2 to 64)">,
    Option<"earlyLoads", "early-loads", "bool", "false",
           "Threads of rows held in registers issue the loads a pass's "
           "stores need (a normalization's weight and bias) for all of "
           "their element groups before computing the first group, instead "
           "of each group's where it is first needed">,
    Option<"hoistLoads", "hoist-loads", "bool", "true",
           "In kernels whose threads are all resident at once (at most "
           "1024 a SM), threads of one row held in registers issue, before "
           "their first reduction, the loads of later passes that do not "
           "depend on the row and that the first pass does not load (a "
           "normalization's weight and bias: Triton's order), so that their "
           "trip to memory overlaps the row's loads and reductions">,
    Option<"kernelConfigs", "kernel-configs", "std::string", "\"\"",
           "Per-kernel settings that replace the options above for the "
           "kernels named: 'kernel_a:reduction-lanes=64,early-loads=1;"
           "kernel_b:...' (keys: pointwise-block-size, "
           "pointwise-vector-width, reduction-lanes, "
           "reduction-rows-per-block, reduction-rows-per-thread, "
           "reduction-split, reduction-cluster, elements-per-thread, "
           "max-persistent-elements, loop-unroll, early-loads, hoist-loads); what the compile-time autotuner of "
           "the torch.compile backend chooses">,
    Option<"numSMs", "num-sms", "int64_t", "132",
           "Streaming multiprocessors of the target GPU (132 on an H100 or "
           "H200), for the choice of split reductions, rows per thread and "
           "the threads a row takes when rows are few and short">,
    Option<"reductionTiles", "reduction-tiles", "bool", "true",
           "Reductions over an outer dimension (accesses contiguous across "
           "rows rather than along them) take 2-D tiles: rows along the "
           "threads of a warp, each row's threads across warps">,
    Option<"transposeTiles", "transpose-tiles", "bool", "true",
           "Pointwise kernels whose loads and stores are contiguous along "
           "different dimensions take 2-D tiles through shared memory "
           "(TransposeTiles.h)">,
    Option<"approxExp", "approx-exp", "bool", "true",
           "f32 exponentials as Triton computes them (ex2.approx of x * "
           "log2(e)) rather than libdevice's expf">,
    Option<"f32Division", "f32-division", "std::string", "\"full\"",
           "How f32 divisions of the graph compute: 'full' as Triton's `/` "
           "(div.full.f32, 2 ulp, what Inductor's kernels run), 'ieee' as "
           "PyTorch eager (div.rn.f32), 'approx' as div.approx.f32 (for "
           "measurement only)">,
    Option<"maxReductionBlockSize", "max-reduction-block-size", "int64_t",
           "512",
           "Most threads per block of a kernel that reduces one row per block">,
    Option<"elementsPerThread", "elements-per-thread", "int64_t", "8",
           "Row elements each thread of a one-row-per-block kernel aims at "
           "(the block size follows)">,
    Option<"warpReductionMaxSize", "warp-reduction-max-size", "int64_t", "256",
           "Rows of at most this many elements are reduced by at most one "
           "warp each (several rows per warp when short)">,
    Option<"maxPersistentElements", "max-persistent-elements", "int64_t", "16",
           "Most row elements per thread kept in registers; longer rows are "
           "looped over">,
    Option<"loopUnroll", "loop-unroll", "int64_t", "8",
           "Row elements each thread handles per iteration of a reduction loop">
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Number of GPU kernels created">,
    Statistic<"numRegisterBuffers", "register-buffers",
              "Number of fused-internal buffers kept in registers">,
    Statistic<"numExternCalls", "extern-calls",
              "Number of extern kernel calls">
  ];
}

def ConvertFusionToLoopsPass : Pass<"convert-fusion-to-loops", "::mlir::ModuleOp"> {
  let summary = "Lower every fusion.graph to scf loops over memrefs for the CPU";
  let description = [{
    Each `fusion.graph @g` becomes `func.func @g` taking one 1-D memref per
    graph input and per graph output, as `convert-fusion-to-gpu` produces,
    with each kernel as a private function `@g__kernel_<node>` holding a
    loop over the kernel's rows (`numel`) and, in reduction kernels, loops
    over the row (`rnumel`) that carry the reduction accumulators. Kernels
    are planned exactly as on the GPU: a `fusion.fused` group is one loop
    nest, its internal buffers live in SSA values (recomputed in a later
    loop over the row when needed), and only buffers read outside the group
    are stored. Externs are calls to declared external functions.

    This is the lowering the differential tests run with `mlir-runner`:
    the same graph before and after fusion must give the same outputs. Like
    `convert-fusion-to-gpu`, it runs on the module and fails with a
    diagnostic on graphs it cannot lower.

    Before: the `fusion.graph @add_sum` of `convert-fusion-to-gpu`.

    After (abridged):

    ```mlir
    func.func private @add_sum__kernel_op0(%arg0_1: memref<262144xf32>,
        %arg1_1: memref<262144xf32>, %buf0: memref<64xf32>) {
      scf.for %x = %c0 to %c64 step %c1 {
        %sum = scf.for %r = %c0 to %c4096 step %c1 iter_args(%acc = %cst) -> (f32) {
          ...
          %s = arith.addf %acc, %v : f32
          scf.yield %s : f32
        }
        memref.store %sum, %buf0[%x] : memref<64xf32>
      }
      return
    }
    func.func @add_sum(%arg0_1: memref<262144xf32>, %arg1_1: memref<262144xf32>,
                       %output0: memref<64xf32>) {
      call @add_sum__kernel_op0(%arg0_1, %arg1_1, %output0) : (...) -> ()
      return
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let statistics = [
    Statistic<"numKernels", "kernels", "Number of kernel functions created">,
    Statistic<"numRegisterBuffers", "register-buffers",
              "Number of fused-internal buffers kept in SSA values">,
    Statistic<"numExternCalls", "extern-calls",
              "Number of extern kernel calls">
  ];
}

def FusionWriteGPUArtifactsPass
    : Pass<"fusion-write-gpu-artifacts", "::mlir::ModuleOp"> {
  let summary = "Write each graph's PTX (or cubin) and launch manifest to files";
  let description = [{
    Runs after `gpu-module-to-binary`. For every graph lowered by
    `convert-fusion-to-gpu`, writes `<output-dir>/<graph>.ptx` (or `.cubin`
    / `.fatbin`, from the `gpu.binary @<graph>_kernels` object) and
    `<output-dir>/<graph>.json`, the launch manifest recorded in the module
    attribute `fusion.launch_manifests`: what a runtime without MLIR (the
    Python harness in `python/`) needs to allocate the buffers and launch
    the kernels in order. When the binary is PTX and `ptxas` is found, it
    also assembles `<graph>.cubin` for `chip`. The IR is not changed.

    ```json
    {"graph": "softmax", "module": "softmax_kernels",
     "storages": [{"name": "arg0_1", "role": "input", "dtype": "f32",
                   "elements": 4194304}, ...],
     "inputs": [...], "outputs": [...],
     "steps": [{"kind": "kernel", "name": "kernel_op0_op1_op2",
                "grid": [4096, 1, 1], "block": [256, 1, 1],
                "args": ["arg0_1", "buf2"]} ]}
    ```
  }];
  let options = [
    Option<"outputDir", "output-dir", "std::string", "\".\"",
           "Directory the files are written to (created if missing)">,
    Option<"chip", "chip", "std::string", "\"sm_90\"",
           "Architecture ptxas assembles PTX for">,
    Option<"ptxas", "ptxas", "std::string", "\"\"",
           "ptxas to assemble PTX into <graph>.cubin with (default: found on "
           "PATH or under CUDA_HOME, CUDA_PATH, /usr/local/cuda; none: no "
           "cubin)">
  ];
  let statistics = [
    Statistic<"numFilesWritten", "files-written", "Number of files written">
  ];
}

#endif // SCHEDULER_OPT_CONVERSION_PASSES_TD
