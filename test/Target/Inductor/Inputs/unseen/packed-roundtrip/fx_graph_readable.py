class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f4e2m1fnx2[64, 32]"):
        # File: /work/main/.device-carry/lowerops5/discover.py:55 in <lambda>, code: "f4_roundtrip": (lambda x: (x.view(U8) ^ 0x11).view(F4).t().contiguous(), lambda: [u8().view(F4)]),
        view: "u8[64, 32]" = torch.ops.aten.view.dtype(arg0_1, torch.uint8);  arg0_1 = None
        bitwise_xor: "u8[64, 32]" = torch.ops.aten.bitwise_xor.Scalar(view, 17);  view = None
        view_1: "f4e2m1fnx2[64, 32]" = torch.ops.aten.view.dtype(bitwise_xor, torch.float4_e2m1fn_x2);  bitwise_xor = None
        permute: "f4e2m1fnx2[32, 64]" = torch.ops.aten.permute.default(view_1, [1, 0]);  view_1 = None
        clone: "f4e2m1fnx2[32, 64]" = torch.ops.aten.clone.default(permute, memory_format = torch.contiguous_format);  permute = None
        return (clone,)
