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
