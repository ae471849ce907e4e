class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4096]", arg1_1: "f32[4096]"):
        # File: /work/main/.device-carry/lowerops2/gen_dumps.py:18 in <lambda>, code: "special": (lambda a, b: (torch.special.gammainc(a, b), torch.special.gammaincc(a, b), torch.igamma(a, b), torch.igammac(a, b), torch.special.airy_ai(b - 3)), (a, a.flip(0))),
        igamma: "f32[4096]" = torch.ops.aten.igamma.default(arg0_1, arg1_1)
        igammac: "f32[4096]" = torch.ops.aten.igammac.default(arg0_1, arg1_1)
        igamma_1: "f32[4096]" = torch.ops.aten.igamma.default(arg0_1, arg1_1)
        igammac_1: "f32[4096]" = torch.ops.aten.igammac.default(arg0_1, arg1_1);  arg0_1 = None
        sub: "f32[4096]" = torch.ops.aten.sub.Tensor(arg1_1, 3);  arg1_1 = None
        special_airy_ai: "f32[4096]" = torch.ops.aten.special_airy_ai.default(sub);  sub = None
        return (igamma, igammac, igamma_1, igammac_1, special_airy_ai)
