"""Pairing a step's generated kernels with Inductor's (no GPU needed)."""
import unittest

from scheduler_opt.harness import kernel_pairs


class PairKernelsTest(unittest.TestCase):
    def test_pairs_by_position_between_anchors(self):
        # Two convolutions (the same extern on both sides) with generated
        # kernels between them: one each before, two each after.
        ours = [["kernel_op0", 6.0], ["sm90_xmma_fprop", 10.0],
                ["kernel_op3_op4", 2.5], ["kernel_op5", 1.0],
                ["Memcpy DtoD (Device -> Device)", 1.2]]
        inductor = [["triton_poi_fused_convolution_0", 6.8],
                    ["sm90_xmma_fprop", 10.1],
                    ["triton_per_fused_relu_1", 2.0],
                    ["triton_poi_fused_add_2", 1.5],
                    ["Memcpy DtoD (Device -> Device)", 1.2]]
        rows = kernel_pairs.pair_kernels(ours, inductor)
        self.assertEqual([(r["ours"], r["inductor"]) for r in rows], [
            ("kernel_op0", "triton_poi_fused_convolution_0"),
            ("kernel_op3_op4", "triton_per_fused_relu_1"),
            ("kernel_op5", "triton_poi_fused_add_2")])
        worst = kernel_pairs.largest_losses(rows, top=1)[0]
        self.assertEqual(worst["ours"], "kernel_op3_op4")
        self.assertEqual((worst["ours_us"], worst["inductor_us"]), (2.5, 2.0))

    def test_unequal_counts_pair_the_stretch(self):
        ours = [["kernel_op1", 1.0], ["kernel_op2", 2.0], ["gemm", 5.0]]
        inductor = [["triton_red_fused_0", 2.5], ["gemm", 5.0]]
        rows = kernel_pairs.pair_kernels(ours, inductor)
        self.assertEqual(rows, [{"ours": "kernel_op1 + kernel_op2",
                                 "inductor": "triton_red_fused_0",
                                 "ours_us": 3.0, "inductor_us": 2.5}])

    def test_different_anchors_pair_nothing(self):
        ours = [["gemm", 5.0], ["kernel_op1", 1.0], ["conv", 3.0]]
        inductor = [["conv", 3.0], ["triton_poi_0", 1.0], ["gemm", 5.0]]
        self.assertIsNone(kernel_pairs.pair_kernels(ours, inductor))


# An output code as Inductor writes it, cut to what inductor_writes reads:
# a zero fill, a kernel that writes a fresh buffer in place of another
# (in_out_ptr0) and adds into the fill (a mutated out_ptr), and an extern.
OUTPUT_CODE = """
triton_poi_fused_embedding_dense_backward_0 = async_compile.triton('triton_poi_fused_embedding_dense_backward_0', '''
@triton_heuristics.pointwise(
    inductor_meta={'kernel_name': 'x', 'mutated_arg_names': [], 'num_load': 0},
)
@triton.jit
def triton_poi_fused_embedding_dense_backward_0(out_ptr0, xnumel, XBLOCK : tl.constexpr):
    tl.store(out_ptr0 + x0, 0.0, None)
''', device_str='cuda')

triton_per_fused_add_embedding_dense_backward_1 = async_compile.triton('triton_per_fused_add_embedding_dense_backward_1', '''
@triton_heuristics.persistent_reduction(
    inductor_meta={'mutated_arg_names': ['in_out_ptr0', 'out_ptr1']},
)
@triton.jit
def triton_per_fused_add_embedding_dense_backward_1(in_out_ptr0, in_ptr0, out_ptr1, xnumel, r0_numel, XBLOCK : tl.constexpr):
    pass
''', device_str='cuda')

def call(args):
    buf4 = empty_strided_cuda((64, 8), (8, 1), torch.float32)
    triton_poi_fused_embedding_dense_backward_0.run(buf4, 512, stream=stream0)
    buf3 = buf1; del buf1  # reuse
    triton_per_fused_add_embedding_dense_backward_1.run(buf3, reinterpret_tensor(buf0, (8, 8), (1, 8), 0), buf4, 8, 8, stream=stream0)
    extern_kernels.mm(buf3, primals_1, out=buf5)
"""


class PairByBuffersTest(unittest.TestCase):
    def test_inductor_writes_leave_out_mutated_outputs(self):
        launches = kernel_pairs.inductor_writes(OUTPUT_CODE, 1)
        self.assertEqual(launches, [
            ("triton_poi_fused_embedding_dense_backward_0",
             frozenset({"1:buf4"})),
            ("triton_per_fused_add_embedding_dense_backward_1",
             frozenset({"1:buf3"}))])

    def test_manifest_writes_leave_out_aliases(self):
        # op5 adds into op4's zero fill: buf5 lies in buf4's storage.
        manifest = {"buffers": {"buf3": "buf3", "buf4": "buf4",
                                "buf5": "buf4"},
                    "steps": [
                        {"kind": "kernel", "name": "kernel_op4",
                         "node": "op4"},
                        {"kind": "extern", "name": "mm", "node": "op6"},
                        {"kind": "kernel", "name": "kernel_op2_op3_op5",
                         "node": "op2_op3_op5"}]}
        self.assertEqual(kernel_pairs.manifest_writes(manifest, 1), [
            ("kernel_op4", frozenset({"1:buf4"})),
            # buf2 lies in no storage (fused away): kept, it matches none.
            ("kernel_op2_op3_op5", frozenset({"1:buf2", "1:buf3"}))])

    def test_reordered_stretch_pairs_by_buffers(self):
        # As many kernels on each side between the anchors, in another
        # order: by position the fill would meet the layer norm.
        ours = [["kernel_op2_op3_op5", 2.1], ["kernel_op4", 3.0],
                ["kernel_op7", 1.4], ["gemm", 9.0]]
        inductor = [["triton_poi_fused_embedding_dense_backward_0", 2.9],
                    ["triton_per_fused_add_embedding_dense_backward_1", 2.3],
                    ["triton_poi_fused_sum_2", 1.3], ["gemm", 9.0]]
        ours_writes = [frozenset({"0:buf2", "0:buf3"}),
                       frozenset({"0:buf4"}), frozenset()]
        ind_writes = [frozenset({"0:buf4"}), frozenset({"0:buf3"}),
                      frozenset()]
        rows = kernel_pairs.pair_kernels(ours, inductor, ours_writes,
                                         ind_writes)
        self.assertEqual([(r["ours"], r["inductor"]) for r in rows], [
            ("kernel_op2_op3_op5",
             "triton_per_fused_add_embedding_dense_backward_1"),
            ("kernel_op4", "triton_poi_fused_embedding_dense_backward_0"),
            # Sharing no buffer with the other side: one pair of sums.
            ("kernel_op7", "triton_poi_fused_sum_2")])
        by_position = kernel_pairs.pair_kernels(ours, inductor)
        self.assertEqual(by_position[0]["inductor"],
                         "triton_poi_fused_embedding_dense_backward_0")

    def test_kernels_split_differently_pair_as_groups(self):
        # Ours writes buf1 and buf2 in two kernels, Inductor in one.
        ours = [["kernel_op1", 1.0], ["kernel_op2", 1.5]]
        inductor = [["triton_red_fused_0", 2.0]]
        rows = kernel_pairs.pair_kernels(
            ours, inductor, [frozenset({"0:buf1"}), frozenset({"0:buf2"})],
            [frozenset({"0:buf1", "0:buf2"})])
        self.assertEqual(rows, [{"ours": "kernel_op1 + kernel_op2",
                                 "inductor": "triton_red_fused_0",
                                 "ours_us": 2.5, "inductor_us": 2.0}])

    def test_launch_writes_follow_the_profile_or_give_up(self):
        launches = [("kernel_op1", frozenset({"0:buf1"})),
                    ("kernel_op2", frozenset({"0:buf2"}))]
        seq = [["kernel_op1", 1.0], ["gemm", 3.0], ["kernel_op2", 1.0]]
        self.assertEqual(kernel_pairs.launch_writes(seq, launches),
                         [frozenset({"0:buf1"}), frozenset({"0:buf2"})])
        # Our runtime may launch a graph's kernels in another order than
        # its manifest's; a later graph (here 1) may launch the same name.
        again = [("kernel_op2", frozenset({"0:buf2"})),
                 ("kernel_op1", frozenset({"0:buf1"})),
                 ("kernel_op1", frozenset({"1:buf1"}))]
        twice = seq + [["kernel_op1", 1.0]]
        self.assertEqual(kernel_pairs.launch_writes(twice, again),
                         [frozenset({"0:buf1"}), frozenset({"0:buf2"}),
                          frozenset({"1:buf1"})])
        # A name is a name, not a prefix (kernel_op1 is not kernel_op12),
        # but for names the profile cut.
        long = "triton_per_fused_" + "x" * 100
        self.assertEqual(kernel_pairs.launch_writes(
            [["kernel_op1", 1.0], ["kernel_op12", 1.0], [long[:100], 1.0]],
            [("kernel_op12", frozenset({"0:buf12"})),
             ("kernel_op1", frozenset({"0:buf1"})),
             (long, frozenset({"0:buf3"}))]),
            [frozenset({"0:buf1"}), frozenset({"0:buf12"}),
             frozenset({"0:buf3"})])
        # A launch the graphs lack, or graphs' launches left over: none
        # (the pairs go by position).
        self.assertIsNone(kernel_pairs.launch_writes(seq, launches[:1]))
        self.assertIsNone(kernel_pairs.launch_writes(seq[:1], launches))
        # Writes that do not cover the sequence: by position.
        rows = kernel_pairs.pair_kernels(seq, seq, [frozenset()],
                                         [frozenset()])
        self.assertEqual([(r["ours"], r["inductor"]) for r in rows],
                         [("kernel_op1", "kernel_op1"),
                          ("kernel_op2", "kernel_op2")])


class GeneratedTimeTest(unittest.TestCase):
    def test_split_time_separates_generated_kernels(self):
        seq = [["kernel_op0", 2.0], ["sm90_xmma_gemm", 10.0],
               ["kernel_op1_op2", 3.5], ["Memcpy DtoD (Device -> Device)",
                                         1.0]]
        self.assertEqual(kernel_pairs.split_time(seq), (5.5, 11.0))

    def test_table_ratios_and_geomean(self):
        models = [
            {"model": "a", "ours_profile": {"sequence": [
                ["kernel_op0", 2.0], ["gemm", 50.0]]},
             "inductor_profile": {"sequence": [
                 ["triton_poi_fused_0", 4.0], ["gemm", 50.0]]}},
            {"model": "b", "ours_profile": {"sequence": [
                ["kernel_op0", 8.0]]},
             "inductor_profile": {"sequence": [
                 ["triton_red_fused_0", 4.0]]}},
            # No generated kernel on one side, or no profile: left out.
            {"model": "c", "ours_profile": {"sequence": [["gemm", 1.0]]},
             "inductor_profile": {"sequence": [["gemm", 1.0]]}},
            {"model": "d", "ours_error": "failed"}]
        rows = kernel_pairs.generated_rows(models)
        self.assertEqual([(r["model"], r["ratio"]) for r in rows],
                         [("a", 0.5), ("b", 2.0)])
        self.assertEqual(rows[0]["ours_other_us"], 50.0)
        table = kernel_pairs.generated_table(models)
        self.assertIn("| a | 2.0 / 4.0 | 0.500 | 50.0 / 50.0 |", table)
        # sqrt(0.5 * 2.0) = 1.
        self.assertIn("| geomean (2 models) | | **1.000** | |", table)


if __name__ == "__main__":
    unittest.main()
