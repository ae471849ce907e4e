class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "b8[64, 32]", arg1_1: "f4e2m1fnx2[64, 32]", arg2_1: "f4e2m1fnx2[64, 32]"):
        # File: /work/main/.device-carry/lowerops5/discover.py:56 in <lambda>, code: "f4_where": (lambda m, a, b: torch.where(m, a, b), lambda: [torch.rand(64, 32, device=D) > 0.5, u8().view(F4), u8().view(F4)]),
        where: "f4e2m1fnx2[64, 32]" = torch.ops.aten.where.self(arg0_1, arg1_1, arg2_1);  arg0_1 = arg1_1 = arg2_1 = None
        return (where,)
