class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "u8[64, 32]"):
        # File: /work/main/.device-carry/lowerops5/discover.py:49 in <lambda>, code: "u8_to_f4": (lambda x: (x + 1).view(F4), lambda: [u8()]),
        add: "u8[64, 32]" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
        view: "f4e2m1fnx2[64, 32]" = torch.ops.aten.view.dtype(add, torch.float4_e2m1fn_x2);  add = None
        return (view,)
