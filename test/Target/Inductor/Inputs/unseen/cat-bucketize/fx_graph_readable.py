class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 8]", arg1_1: "f32[1000]", arg2_1: "f32[64, 8]"):
        # File: /work/main/.device-carry/import8/probe2.py:14 in bucketize_first, code: s = x.sum(1)
        sum_1: "f32[64]" = torch.ops.aten.sum.dim_IntList(arg0_1, [1]);  arg0_1 = None

        # File: /work/main/.device-carry/import8/probe2.py:15 in bucketize_first, code: i = torch.bucketize(v, s)
        bucketize: "i64[1000]" = torch.ops.aten.bucketize.Tensor(arg1_1, sum_1);  arg1_1 = None

        # File: /work/main/.device-carry/import8/probe2.py:16 in bucketize_first, code: return torch.cat([y.sum(1), s]), i
        sum_2: "f32[64]" = torch.ops.aten.sum.dim_IntList(arg2_1, [1]);  arg2_1 = None
        cat: "f32[128]" = torch.ops.aten.cat.default([sum_2, sum_1]);  sum_2 = sum_1 = None
        return (cat, bucketize)
