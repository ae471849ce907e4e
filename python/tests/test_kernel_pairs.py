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


if __name__ == "__main__":
    unittest.main()
