class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f4e2m1fnx2[64, 32]", arg1_1: "i64[16]"):
        # File: /work/main/.device-carry/lowerops5/discover.py:54 in <lambda>, code: "f4_gather": (lambda x, i: x[i], lambda: [u8().view(F4), torch.randint(0, 64, (16,), device=D)]),
        index: "f4e2m1fnx2[16, 32]" = torch.ops.aten.index.Tensor(arg0_1, [arg1_1]);  arg0_1 = arg1_1 = None
        return (index,)
