class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f4e2m1fnx2[64, 32]"):
        # File: /work/main/.device-carry/lowerops5/discover.py:50 in <lambda>, code: "f4_to_u8": (lambda x: x.view(U8) * 3, lambda: [u8().view(F4)]),
        view: "u8[64, 32]" = torch.ops.aten.view.dtype(arg0_1, torch.uint8);  arg0_1 = None
        mul: "u8[64, 32]" = torch.ops.aten.mul.Tensor(view, 3);  view = None
        return (mul,)
