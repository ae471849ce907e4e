class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s77)", arg1_1: "Sym(s27)", arg2_1: "Sym(s53)", arg3_1: "f32[s77, s27, s53]", arg4_1: "Sym(s34)", arg5_1: "c64[s27, s34]"):
        # File: /work/main/.device-carry/import10/complex_more.py:32 in rope, code: xc = torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2))
        view: "f32[s77, s27, (s53//2), (s53//((s53//2)))]" = torch.ops.aten.view.default(arg3_1, [arg0_1, arg1_1, -1, 2]);  arg3_1 = None
        sym_size_int_5: "Sym((s53//2))" = torch.ops.aten.sym_size.int(view, 2)
        view_as_complex: "c64[s77, s27, (s53//2)]" = torch.ops.aten.view_as_complex.default(view);  view = None

        # File: /work/main/.device-carry/import10/complex_more.py:33 in rope, code: return torch.view_as_real(xc * fr).flatten(-2)
        mul_16: "c64[s77, s27, (s53//2)]" = torch.ops.aten.mul.Tensor(view_as_complex, arg5_1);  view_as_complex = arg5_1 = None
        view_as_real: "f32[s77, s27, (s53//2), 2]" = torch.ops.aten.view_as_real.default(mul_16);  mul_16 = None
        mul_24: "Sym(2*((s53//2)))" = sym_size_int_5 * 2;  sym_size_int_5 = None
        view_1: "f32[s77, s27, 2*((s53//2))]" = torch.ops.aten.view.default(view_as_real, [arg0_1, arg1_1, mul_24]);  view_as_real = arg0_1 = arg1_1 = mul_24 = None
        return (view_1,)
