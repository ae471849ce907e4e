class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 16]", arg1_1: "f32[8, 16]"):
        # File: /work/main/.device-carry/import10/dump_complex.py:29 in misc, code: p = torch.polar(x.abs() + 0.5, a)
        abs_1: "f32[8, 16]" = torch.ops.aten.abs.default(arg0_1);  arg0_1 = None
        add: "f32[8, 16]" = torch.ops.aten.add.Tensor(abs_1, 0.5);  abs_1 = None
        polar: "c64[8, 16]" = torch.ops.aten.polar.default(add, arg1_1);  add = arg1_1 = None

        # File: /work/main/.device-carry/import10/dump_complex.py:30 in misc, code: q = p * p.conj() + p
        _conj: "c64[8, 16]" = torch.ops.aten._conj.default(polar)
        clone: "c64[8, 16]" = torch.ops.aten.clone.default(_conj);  _conj = None
        mul: "c64[8, 16]" = torch.ops.aten.mul.Tensor(polar, clone);  clone = None
        add_1: "c64[8, 16]" = torch.ops.aten.add.Tensor(mul, 0);  mul = None
        add_2: "c64[8, 16]" = torch.ops.aten.add.Tensor(polar, 0)
        view: "f32[8, 32]" = torch.ops.aten.view.dtype(add_1, torch.float32);  add_1 = None
        view_1: "f32[8, 16, 2]" = torch.ops.aten.view.default(view, [8, 16, 2]);  view = None
        view_2: "f32[8, 32]" = torch.ops.aten.view.dtype(add_2, torch.float32);  add_2 = None
        view_3: "f32[8, 16, 2]" = torch.ops.aten.view.default(view_2, [8, 16, 2]);  view_2 = None
        add_3: "f32[8, 16, 2]" = torch.ops.aten.add.Tensor(view_1, view_3);  view_1 = view_3 = None
        view_4: "f32[8, 32]" = torch.ops.aten.view.default(add_3, [8, 32]);  add_3 = None
        view_5: "c64[8, 16]" = torch.ops.aten.view.dtype(view_4, torch.complex64);  view_4 = None

        # File: /work/main/.device-carry/import10/dump_complex.py:31 in misc, code: return torch.view_as_real(q).sum(-1), q.abs(), q.real - q.imag, torch.angle(p)
        view_as_real_2: "f32[8, 16, 2]" = torch.ops.aten.view_as_real.default(view_5)
        sum_1: "f32[8, 16]" = torch.ops.aten.sum.dim_IntList(view_as_real_2, [-1]);  view_as_real_2 = None
        abs_2: "f32[8, 16]" = torch.ops.aten.abs.default(view_5)
        view_as_real_3: "f32[8, 16, 2]" = torch.ops.aten.view_as_real.default(view_5)
        select_2: "f32[8, 16]" = torch.ops.aten.select.int(view_as_real_3, 2, 0);  view_as_real_3 = None
        view_as_real_4: "f32[8, 16, 2]" = torch.ops.aten.view_as_real.default(view_5);  view_5 = None
        select_3: "f32[8, 16]" = torch.ops.aten.select.int(view_as_real_4, 2, 1);  view_as_real_4 = None
        sub: "f32[8, 16]" = torch.ops.aten.sub.Tensor(select_2, select_3);  select_2 = select_3 = None
        view_as_real_5: "f32[8, 16, 2]" = torch.ops.aten.view_as_real.default(polar)
        select_4: "f32[8, 16]" = torch.ops.aten.select.int(view_as_real_5, 2, 0);  view_as_real_5 = None
        isnan: "b8[8, 16]" = torch.ops.aten.isnan.default(select_4);  select_4 = None
        view_as_real_6: "f32[8, 16, 2]" = torch.ops.aten.view_as_real.default(polar)
        select_5: "f32[8, 16]" = torch.ops.aten.select.int(view_as_real_6, 2, 1);  view_as_real_6 = None
        view_as_real_7: "f32[8, 16, 2]" = torch.ops.aten.view_as_real.default(polar);  polar = None
        select_6: "f32[8, 16]" = torch.ops.aten.select.int(view_as_real_7, 2, 0);  view_as_real_7 = None
        atan2: "f32[8, 16]" = torch.ops.aten.atan2.default(select_5, select_6);  select_5 = select_6 = None
        full_default: "f32[]" = torch.ops.aten.full.default([], nan, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[8, 16]" = torch.ops.aten.where.self(isnan, full_default, atan2);  isnan = full_default = atan2 = None
        return (sum_1, abs_2, sub, where)
