class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f4e2m1fnx2[64, 32]", arg1_1: "f4e2m1fnx2[64, 32]"):
        # File: /work/main/.device-carry/lowerops5/discover.py:53 in <lambda>, code: "f4_cat": (lambda a, b: torch.cat([a, b]), lambda: [u8().view(F4), u8().view(F4)]),
        cat: "f4e2m1fnx2[128, 32]" = torch.ops.aten.cat.default([arg0_1, arg1_1]);  arg0_1 = arg1_1 = None
        return (cat,)
