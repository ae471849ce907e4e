//===- Passes.td - Scheduling passes of the fusion dialect -*- tablegen -*-===//
//
// The passes of Inductor's Scheduler._init that run before fusion:
// topological sort, dead-node elimination and loop reordering. Each mirrors
// one function of torch/_inductor/scheduler.py and is anchored on
// fusion.graph.
//
//===----------------------------------------------------------------------===//

#ifndef SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD
#define SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

// A pass on `fusion.graph`. The dialect is a dependent dialect of every such
// pass, so that a pass manager loads it before it resolves its anchor: a
// pass manager that resolved `fusion.graph` while the dialect was not loaded
// kept an unregistered name, which loading the dialect frees, and a later
// run then matched no graph (unittests/Transforms/PipelineReuseTest.cpp).
class GraphPass<string passArg> : Pass<passArg, "::mlir::fusion::GraphOp"> {
  let dependentDialects = ["::mlir::fusion::FusionDialect"];
}

def TopologicalSortPass
    : GraphPass<"fusion-topological-sort"> {
  let summary = "Orders scheduler nodes so that every dependence comes first "
                "(Inductor's topological_sort_schedule)";
  let description = [{
    Reorders the scheduler nodes of a `fusion.graph` so that every node comes
    after the nodes it depends on: the producers of the buffers it reads
    (MemoryDep and StarDep) and, for a node that overwrites a buffer in
    place, every other reader of the overwritten version (WeakDep). The
    edges are those of the `DependenceGraph` analysis.

    The order is stable: among the nodes whose dependences are met, the one
    that came first in the input goes first (Kahn's algorithm with the input
    position as priority). An already sorted graph is left unchanged, and the
    same input always gives the same output. The members of `fusion.fused`,
    `fusion.foreach` and `fusion.group` are ordered the same way by their
    dependences on each other (a member reading a buffer version must come
    before the member overwriting it), and the container's results follow
    its members.

    A dependence cycle (which only mutation order can create: a node reading
    both the old and the new version of a buffer) is an error naming the
    nodes on the cycle.

    Before (the body of a graph is a graph region, so any order parses):

    ```mlir
    %buf1 = fusion.node "op1" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %buf0[%p0] : !fusion.buffer<64xf32>
      ...
    }
    %buf0 = fusion.node "op0" (%p0) in [64] writes(%out : !fusion.buffer<64xf32>) {
      %0 = fusion.load %arg0[%p0] : !fusion.buffer<64xf32>
      ...
    }
    ```

    After:

    ```mlir
    %buf0 = fusion.node "op0" ...
    %buf1 = fusion.node "op1" ...
    ```
  }];
  let statistics = [
    Statistic<"numMoved", "num-moved",
              "Number of scheduler nodes that changed position">
  ];
}

def DeadNodeEliminationPass
    : GraphPass<"fusion-dead-node-elimination"> {
  let summary = "Removes scheduler nodes none of whose buffers is used "
                "(Inductor's dead_node_elimination)";
  let description = [{
    Removes every scheduler node whose buffers are not used by a node that
    stays, nor by the graph's output, and that has no side effect. A node
    has a side effect when it is an extern marked `side_effects`, or when it
    overwrites in place the storage of a graph input (directly, through a
    `fusion.nop` view, or through an earlier in-place version): the caller
    sees that write. A node that only orders itself after a reader (a
    WeakDep) does not keep that reader alive.

    Inductor walks its topologically sorted nodes backwards once; this pass
    computes the same fixpoint with a worklist from the live roots, so it
    gives the same result on a graph in any order. Dead nodes are erased
    through the IR; the analyses are kept only when nothing was removed.

    Before:

    ```mlir
    %buf0 = fusion.node "op0" ... // read only by op1
    %buf1 = fusion.node "op1" ... // read by nobody
    %buf2 = fusion.node "op2" ...
    fusion.output %buf2 : ...
    ```

    After:

    ```mlir
    %buf2 = fusion.node "op2" ...
    fusion.output %buf2 : ...
    ```
  }];
  let statistics = [
    Statistic<"numRemoved", "num-removed",
              "Number of dead scheduler nodes removed">
  ];
}

def ReorderLoopsPass
    : GraphPass<"fusion-reorder-loops"> {
  let summary = "Picks each node's loop order from its memory strides and "
                "merges contiguous loops (Inductor's pick_loop_order and "
                "merge_loops)";
  let description = [{
    Rewrites the loop nest of `fusion.node`s in place, preserving exactly
    which elements are read and written:

    * `pick-loop-order` (Inductor's `pick_loop_order`, applied as
      `ComputedBuffer.simplify_and_reorder` does): orders the pointwise loops,
      and separately the reduction loops, by the strides of the node's
      stores and loads so that the innermost loop walks contiguous memory.
      Reduction loops stay after the pointwise loops. Applied to top-level
      nodes only: the members of a fused node must keep a common order.
    * `merge-loops` (Inductor's `LoopBody.merge_loops` /
      `SizeVarAllocator._simplify_loops`): drops loops of size 1 and merges
      two adjacent loops of the same kind when every index of the node
      depends on them only through `size(inner) * outer + inner`, e.g.
      `[64, 4096]` accessed at `4096 * p0 + p1` everywhere becomes `[262144]`.
      Applied to every node, including the members of fused nodes, as
      Inductor's `Scheduler.merge_loops`.

    A permutation or merge changes `ranges` / `reduction_ranges`, the loop
    variables of the body and every index map of its `fusion.load`,
    `fusion.store` and `fusion.index_expr` ops (including those in
    `fusion.masked` regions). Loops whose variables are used other than as
    index dimensions are never merged or dropped.

    Before (the input is read transposed):

    ```mlir
    %buf0 = fusion.node "op0" (%p0, %p1) in [8, 16] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
      %0 = fusion.load %x[%p1 * 8 + %p0] : !fusion.buffer<16x8xf32>
      fusion.store %0, %out[%p1 * 8 + %p0] : !fusion.buffer<8x16xf32, strides = [1, 8]>
    }
    ```

    After `fusion-reorder-loops{merge-loops=false}`:

    ```mlir
    %buf0 = fusion.node "op0" (%p0, %p1) in [16, 8] writes(%out : !fusion.buffer<8x16xf32, strides = [1, 8]>) {
      %0 = fusion.load %x[%p0 * 8 + %p1] : !fusion.buffer<16x8xf32>
      fusion.store %0, %out[%p0 * 8 + %p1] : !fusion.buffer<8x16xf32, strides = [1, 8]>
    }
    ```

    and with merging, `in [128]` and `%x[%p0]`.
  }];
  let options = [
    Option<"pickLoopOrder", "pick-loop-order", "bool", /*default=*/"true",
           "Order each node's loops by the strides of its memory accesses">,
    Option<"mergeLoops", "merge-loops", "bool", /*default=*/"true",
           "Drop size-1 loops and merge adjacent contiguous loops">
  ];
  let statistics = [
    Statistic<"numReordered", "num-reordered",
              "Number of nodes whose loop order changed">,
    Statistic<"numMerged", "num-merged",
              "Number of adjacent loop pairs merged into one loop">,
    Statistic<"numUnitLoopsRemoved", "num-unit-loops-removed",
              "Number of loops of size 1 removed">
  ];
}

def FuseNodesPass : GraphPass<"fusion-fuse-nodes"> {
  let summary = "Fuses scheduler nodes into kernels with Inductor's "
                "algorithm and rules (Scheduler.fuse_nodes)";
  let description = [{
    Groups the scheduler nodes of a topologically sorted `fusion.graph` into
    `fusion.fused` kernels exactly as Inductor's `Scheduler.fuse_nodes`
    does: in rounds (at most `max-rounds`, until nothing changes), every
    pair of fusable nodes sharing a buffer (each node with at most
    `pairwise-attempts` later ones per buffer; with `aggressive-fusion`,
    also nodes of the same iteration sizes) that `can_fuse` allows is
    scored by `score_fusion_key` (fusion priority, bytes of shared memory
    accesses, proximity) and fused, best first, unless the fusion would
    create a cycle. Each round starts with `prune_redundant_deps`. The
    rules are Inductor's: externs and nops never fuse; at most
    `max-fusion-size` nodes per kernel; a consumer fuses into its producer
    only where every read matches a write of the producer; pointwise and
    reduction kernels must have compatible (numel, rnumel) iteration spaces
    and tilings (`SIMDScheduling.can_fuse`); independent nodes fuse
    horizontally only when they share at least
    `score-fusion-memory-threshold` bytes and lie within 64 nodes of each
    other; mutation order (WeakDep) is respected. With
    `reorder-loops=after-fixpoint` (the default, Inductor 2.10+), once the
    rounds change nothing, one more round may reorder a node's loops to
    match the access order of a buffer it shares (`is_reorder_round`);
    `every-round` reorders in every round as older Inductor did, `off`
    never.

    Beyond Inductor: with `peak-memory=traffic-bounded` (the default), no
    fusion raises the graph's peak live bytes above those of the unfused
    schedule by more than the memory traffic the fusion saves (its
    `score_fusion_memory`; Inductor's lower-bound heuristic allows 32 times
    that, and stretching lifetimes can raise the peak far more:
    pytorch#138685); `peak-memory=never-raise` allows no raise at all;
    `peak-memory=inductor` applies only Inductor's own heuristics, for side
    by side comparison. A WeakDep that `prune_redundant_deps` dropped still
    refuses a fusion whose kernel would overwrite in place what the other
    node reads at another index (Inductor would fuse it and race). Ties are
    broken by input order, so the result is deterministic. With `explain`,
    every pair of final kernels a candidate pair was refused between gets a
    remark naming the rule of the last refusal (Inductor's WhyNoFuse), and
    the graph a summary remark.

    Members keep their names and Inductor's order (node1's members, then
    node2's, a dependence order), so the result compares directly with the
    kernels of Inductor's `ir_post_fusion.txt` (`op4_op6_op3_op7`).

    A top-level `fusion.foreach` is Inductor's `ForeachKernelSchedulerNode`:
    its members are its parts, and it fuses by
    `ForeachKernelSchedulerNode.can_fuse` and `fuse`: with another foreach
    of as many parts, part by part; with a node it produces, into the one
    part the node reads from; with a node producing for it, into the part
    that reads the node's output; each pair must pass every rule above, and
    no part may come to read what another part writes. The result is a
    `fusion.foreach` of `fusion.fused` parts. With `combo-kernels`
    (Inductor's `config.combo_kernels`, off by default as there), once
    fusion is done, independent kernels of the same dependence level are
    combined, eight at most, into `fusion.foreach` kernels
    (`create_combo_kernel_nodes`); unless `peak-memory=inductor`, a combo
    that would raise the peak is not made (a combo saves no traffic). With
    `combo-max-part-bytes`, a kernel whose buffers take more bytes stays
    out of combo kernels (not Inductor's rule).

    Before:

    ```mlir
    %buf0 = fusion.node "op0" (%p0, %p1) in [4096] reduce [1024] writes(%out : !fusion.buffer<4096xf32>) {
      %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = fusion.reduce max %0 : f32 -> f32
      fusion.store %1, %out[%p0] : !fusion.buffer<4096xf32>
    }
    %buf1 = fusion.node "op1" (%p0, %p1) in [4096, 1024] writes(%out : !fusion.buffer<4096x1024xf32>) {
      %0 = fusion.load %x[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
      %1 = fusion.load %buf0[%p0] : !fusion.buffer<4096xf32>
      %2 = arith.subf %0, %1 : f32
      fusion.store %2, %out[%p0 * 1024 + %p1] : !fusion.buffer<4096x1024xf32>
    }
    ```

    After:

    ```mlir
    %buf0, %buf1 = fusion.fused -> !fusion.buffer<4096xf32>, !fusion.buffer<4096x1024xf32> {
      %buf0_0 = fusion.node "op0" ... attributes {buffer_names = ["buf0"]} {...}
      %buf1_1 = fusion.node "op1" ... attributes {buffer_names = ["buf1"]} {
        ...
        %1 = fusion.load %buf0_0[%p0] : !fusion.buffer<4096xf32>
        ...
      }
      fusion.yield %buf0_0, %buf1_1 : !fusion.buffer<4096xf32>, !fusion.buffer<4096x1024xf32>
    }
    ```
  }];
  let options = [
    Option<"maxFusionSize", "max-fusion-size", "unsigned", /*default=*/"64",
           "Most nodes in one kernel (config.max_fusion_size)">,
    Option<"scoreFusionMemoryThreshold", "score-fusion-memory-threshold",
           "int64_t", /*default=*/"10",
           "Fewest shared bytes for a horizontal fusion "
           "(config.score_fusion_memory_threshold)">,
    Option<"maxRounds", "max-rounds", "unsigned", /*default=*/"10",
           "Most rounds of fusion">,
    Option<"pairwiseAttempts", "pairwise-attempts", "unsigned",
           /*default=*/"64",
           "Later nodes sharing a buffer each node is paired with "
           "(config.max_fusion_buffer_group_pairwise_attempts)">,
    Option<"horizontal", "horizontal", "bool", /*default=*/"true",
           "Fuse independent nodes that share inputs">,
    Option<"aggressiveFusion", "aggressive-fusion", "bool",
           /*default=*/"false",
           "Also consider pairs of nodes with the same iteration sizes "
           "(config.aggressive_fusion)">,
    Option<"reorderLoops", "reorder-loops", "::mlir::fusion::LoopReorderPolicy",
           /*default=*/"::mlir::fusion::LoopReorderPolicy::AfterFixpoint",
           "When to reorder a node's loops to match a shared buffer's access "
           "order (config.loop_ordering_after_fusion)",
           [{::mlir::fusion::loopReorderPolicyValues()}]>,
    Option<"peakMemory", "peak-memory", "::mlir::fusion::PeakMemoryPolicy",
           /*default=*/"::mlir::fusion::PeakMemoryPolicy::TrafficBounded",
           "Peak memory policy of fusion",
           [{::mlir::fusion::peakMemoryPolicyValues()}]>,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark for every candidate pair left unfused, naming the "
           "rule, and a summary remark">,
    Option<"comboKernels", "combo-kernels", "bool", /*default=*/"false",
           "Once fusion is done, combine independent kernels into foreach "
           "(combo) kernels (config.combo_kernels)">,
    Option<"comboMaxPartBytes", "combo-max-part-bytes", "int64_t",
           /*default=*/"0",
           "With combo-kernels, only kernels whose buffers take at most this "
           "many bytes join combo kernels (0: any, as Inductor)">
  ];
  let statistics = [
    Statistic<"numCandidates", "num-candidates",
              "Number of candidate pairs scored">,
    Statistic<"numFusions", "num-fusions", "Number of fusions made">,
    Statistic<"numRounds", "num-rounds", "Number of fusion rounds">,
    Statistic<"numRefused", "num-refused",
              "Number of candidate pairs refused">,
    Statistic<"numRefusedPeakMemory", "num-refused-peak-memory",
              "Number of fusions refused because they raise peak memory">
  ];
}

def PlaceConcatInputsPass : GraphPass<"fusion-place-concat-inputs"> {
  let summary = "Moves the inputs of each concatenation into its storage "
                "(Inductor's NonOwningLayout views), for the lowering";
  let description = [{
    Inductor computes the inputs of a `torch.cat` straight into the
    output's storage when it can (`ConcatKernel.realize_into`): each input
    buffer gets a `NonOwningLayout`, a view of part of the output, and its
    indices stay relative to its own start. The scheduler reasons on that
    form, as Inductor does. A lowering needs the storage each access
    touches: for every `fusion.nop` with `input_offsets`, this pass gives
    each input the offset of its part (its type's `offset`) and adds the
    offset to every `fusion.load` of it and every `fusion.store` into it,
    through the fused, foreach and group containers that re-export it,
    then records the inputs as placed (all offsets 0: each input's storage
    starts where the result's does). A placed graph is left unchanged.

    ```mlir
    %buf1 = fusion.node "op1" (%p0) in [512] writes(%out : !fusion.buffer<512x1xf32, strides = [303, 1]>) {
      ...
      fusion.store %v, %out[%p0 * 303] : !fusion.buffer<512x1xf32, strides = [303, 1]>
    }
    %buf5 = fusion.nop "op5"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 1)>} : ...
    ```

    becomes

    ```mlir
    %buf1 = fusion.node "op1" (%p0) in [512] writes(%out : !fusion.buffer<512x1xf32, strides = [303, 1], offset = 1>) {
      ...
      fusion.store %v, %out[%p0 * 303 + 1] : !fusion.buffer<512x1xf32, strides = [303, 1], offset = 1>
    }
    %buf5 = fusion.nop "op5"(%buf0, %buf1) {input_offsets = affine_map<() -> (0, 0)>} : ...
    ```

    An input the lowering could not then address is an error naming it: one
    that a `fusion.node` does not produce (an extern, a graph input), that
    overwrites a buffer in place, that another concatenation also places,
    that the graph returns, or that a view (`fusion.nop`) or a
    `fusion.opaque` reads whole from its start.
  }];
  let statistics = [
    Statistic<"numPlaced", "num-placed",
              "Number of concatenation inputs moved into their storage">
  ];
}

#endif // SCHEDULER_OPT_DIALECT_FUSION_TRANSFORMS_PASSES_TD
