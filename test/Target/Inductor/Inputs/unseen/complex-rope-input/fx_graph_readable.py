class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 64, 32]", arg1_1: "c64[64, 16]"):
        # File: /work/main/.device-carry/import10/dump_complex.py:26 in rope_input, code: xc = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
        view: "f32[2, 64, 16, 2]" = torch.ops.aten.view.default(arg0_1, [2, 64, -1, 2]);  arg0_1 = None
        view_as_complex: "c64[2, 64, 16]" = torch.ops.aten.view_as_complex.default(view);  view = None

        # File: /work/main/.device-carry/import10/dump_complex.py:27 in rope_input, code: return torch.view_as_real(xc * f).flatten(-2) * 2.0 + 1.0
        mul: "c64[2, 64, 16]" = torch.ops.aten.mul.Tensor(view_as_complex, arg1_1);  view_as_complex = arg1_1 = None
        view_as_real: "f32[2, 64, 16, 2]" = torch.ops.aten.view_as_real.default(mul);  mul = None
        view_1: "f32[2, 64, 32]" = torch.ops.aten.view.default(view_as_real, [2, 64, 32]);  view_as_real = None
        mul_1: "f32[2, 64, 32]" = torch.ops.aten.mul.Tensor(view_1, 2.0);  view_1 = None
        add: "f32[2, 64, 32]" = torch.ops.aten.add.Tensor(mul_1, 1.0);  mul_1 = None
        return (add,)
