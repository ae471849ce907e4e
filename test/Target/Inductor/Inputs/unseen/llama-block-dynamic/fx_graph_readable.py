class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s77)", arg1_1: "Sym(s27)", arg2_1: "f32[s77, s27, 256]", arg3_1: "f64[]", arg4_1: "f32[256]", arg5_1: "f32[768, 256]", arg6_1: "f32[256, 256]", arg7_1: "f64[]", arg8_1: "f32[256]", arg9_1: "f32[688, 256]", arg10_1: "f32[688, 256]", arg11_1: "f32[256, 688]"):
        # File: /work/main/.device-carry/lead5/unseen_models.py:59 in forward, code: return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) \
        pow_1: "f32[s77, s27, 256]" = torch.ops.aten.pow.Tensor_Scalar(arg2_1, 2)
        mean: "f32[s77, s27, 1]" = torch.ops.aten.mean.dim(pow_1, [-1], True);  pow_1 = None

        # No stacktrace found for following nodes
        convert_element_type_default_1: "f32[]" = torch.ops.prims.convert_element_type.default(arg3_1, torch.float32);  arg3_1 = None
        add_tensor: "f32[s77, s27, 1]" = torch.ops.aten.add.Tensor(mean, convert_element_type_default_1);  mean = convert_element_type_default_1 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:59 in forward, code: return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) \
        rsqrt: "f32[s77, s27, 1]" = torch.ops.aten.rsqrt.default(add_tensor);  add_tensor = None
        mul_9: "f32[s77, s27, 256]" = torch.ops.aten.mul.Tensor(arg2_1, rsqrt);  rsqrt = None
        mul_13: "f32[s77, s27, 256]" = torch.ops.aten.mul.Tensor(mul_9, arg4_1);  mul_9 = arg4_1 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:90 in forward, code: q, k, v = self.qkv(self.n1(x)).split(d, -1)
        permute: "f32[256, 768]" = torch.ops.aten.permute.default(arg5_1, [1, 0]);  arg5_1 = None
        mul_17: "Sym(s27*s77)" = arg0_1 * arg1_1
        view: "f32[s27*s77, 256]" = torch.ops.aten.view.default(mul_13, [mul_17, 256]);  mul_13 = None
        mm: "f32[s27*s77, 768]" = torch.ops.aten.mm.default(view, permute);  view = permute = None
        view_1: "f32[s77, s27, 768]" = torch.ops.aten.view.default(mm, [arg0_1, arg1_1, 768]);  mm = None
        split = torch.ops.aten.split.Tensor(view_1, 256, -1);  view_1 = None
        getitem: "f32[s77, s27, 256]" = split[0]
        getitem_1: "f32[s77, s27, 256]" = split[1]
        getitem_2: "f32[s77, s27, 256]" = split[2];  split = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:91 in <genexpr>, code: q, k, v = (z.view(b, t, self.heads, self.hd).transpose(1, 2)
        view_2: "f32[s77, s27, 4, 64]" = torch.ops.aten.view.default(getitem, [arg0_1, arg1_1, 4, 64]);  getitem = None
        permute_1: "f32[s77, 4, s27, 64]" = torch.ops.aten.permute.default(view_2, [0, 2, 1, 3]);  view_2 = None
        view_3: "f32[s77, s27, 4, 64]" = torch.ops.aten.view.default(getitem_1, [arg0_1, arg1_1, 4, 64]);  getitem_1 = None
        permute_2: "f32[s77, 4, s27, 64]" = torch.ops.aten.permute.default(view_3, [0, 2, 1, 3]);  view_3 = None
        view_4: "f32[s77, s27, 4, 64]" = torch.ops.aten.view.default(getitem_2, [arg0_1, arg1_1, 4, 64]);  getitem_2 = None
        permute_3: "f32[s77, 4, s27, 64]" = torch.ops.aten.permute.default(view_4, [0, 2, 1, 3]);  view_4 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:66 in rope_cos_sin, code: inv = 1.0 / base ** (torch.arange(0, dim, 2, device=device).float() / dim)
        iota: "i64[32]" = torch.ops.prims.iota.default(32, start = 0, step = 2, dtype = torch.int64, device = device(type='cuda', index=0), requires_grad = False)
        convert_element_type: "f32[32]" = torch.ops.prims.convert_element_type.default(iota, torch.float32);  iota = None
        div: "f32[32]" = torch.ops.aten.div.Tensor(convert_element_type, 64);  convert_element_type = None
        pow_2: "f32[32]" = torch.ops.aten.pow.Scalar(10000.0, div);  div = None
        reciprocal: "f32[32]" = torch.ops.aten.reciprocal.default(pow_2);  pow_2 = None
        mul_65: "f32[32]" = torch.ops.aten.mul.Tensor(reciprocal, 1.0);  reciprocal = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:67 in rope_cos_sin, code: freqs = torch.outer(torch.arange(t, device=device).float(), inv)
        iota_1: "i64[s27]" = torch.ops.prims.iota.default(arg1_1, start = 0, step = 1, dtype = torch.int64, device = device(type='cuda', index=0), requires_grad = False)
        convert_element_type_1: "f32[s27]" = torch.ops.prims.convert_element_type.default(iota_1, torch.float32);  iota_1 = None
        view_5: "f32[s27, 1]" = torch.ops.aten.view.default(convert_element_type_1, [arg1_1, 1]);  convert_element_type_1 = None
        mul_69: "f32[s27, 32]" = torch.ops.aten.mul.Tensor(view_5, mul_65);  view_5 = mul_65 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:68 in rope_cos_sin, code: emb = torch.cat([freqs, freqs], -1)
        unsqueeze: "f32[s27, 1, 32]" = torch.ops.aten.unsqueeze.default(mul_69, 1);  mul_69 = None
        expand: "f32[s27, 2, 32]" = torch.ops.aten.expand.default(unsqueeze, [arg1_1, 2, 32]);  unsqueeze = None
        clone: "f32[s27, 2, 32]" = torch.ops.aten.clone.default(expand, memory_format = torch.contiguous_format);  expand = None
        view_6: "f32[s27, 64]" = torch.ops.aten.view.default(clone, [arg1_1, 64]);  clone = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:69 in rope_cos_sin, code: return emb.cos(), emb.sin()
        cos: "f32[s27, 64]" = torch.ops.aten.cos.default(view_6)
        sin: "f32[s27, 64]" = torch.ops.aten.sin.default(view_6);  view_6 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:94 in forward, code: q = q * cos + rotate_half(q) * sin
        mul_82: "f32[s77, 4, s27, 64]" = torch.ops.aten.mul.Tensor(permute_1, cos)

        # File: /work/main/.device-carry/lead5/unseen_models.py:73 in rotate_half, code: a, b = x.chunk(2, -1)
        split_1 = torch.ops.aten.split.Tensor(permute_1, 32, -1);  permute_1 = None
        getitem_3: "f32[s77, 4, s27, 32]" = split_1[0]
        getitem_4: "f32[s77, 4, s27, 32]" = split_1[1];  split_1 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:74 in rotate_half, code: return torch.cat([-b, a], -1)
        neg: "f32[s77, 4, s27, 32]" = torch.ops.aten.neg.default(getitem_4);  getitem_4 = None
        cat: "f32[s77, 4, s27, 64]" = torch.ops.aten.cat.default([neg, getitem_3], -1);  neg = getitem_3 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:94 in forward, code: q = q * cos + rotate_half(q) * sin
        mul_99: "f32[s77, 4, s27, 64]" = torch.ops.aten.mul.Tensor(cat, sin);  cat = None
        add_127: "f32[s77, 4, s27, 64]" = torch.ops.aten.add.Tensor(mul_82, mul_99);  mul_82 = mul_99 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:95 in forward, code: k = k * cos + rotate_half(k) * sin
        mul_107: "f32[s77, 4, s27, 64]" = torch.ops.aten.mul.Tensor(permute_2, cos);  cos = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:73 in rotate_half, code: a, b = x.chunk(2, -1)
        split_2 = torch.ops.aten.split.Tensor(permute_2, 32, -1);  permute_2 = None
        getitem_5: "f32[s77, 4, s27, 32]" = split_2[0]
        getitem_6: "f32[s77, 4, s27, 32]" = split_2[1];  split_2 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:74 in rotate_half, code: return torch.cat([-b, a], -1)
        neg_1: "f32[s77, 4, s27, 32]" = torch.ops.aten.neg.default(getitem_6);  getitem_6 = None
        cat_1: "f32[s77, 4, s27, 64]" = torch.ops.aten.cat.default([neg_1, getitem_5], -1);  neg_1 = getitem_5 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:95 in forward, code: k = k * cos + rotate_half(k) * sin
        mul_124: "f32[s77, 4, s27, 64]" = torch.ops.aten.mul.Tensor(cat_1, sin);  cat_1 = sin = None
        add_163: "f32[s77, 4, s27, 64]" = torch.ops.aten.add.Tensor(mul_107, mul_124);  mul_107 = mul_124 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:96 in forward, code: a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        _scaled_dot_product_efficient_attention = torch.ops.aten._scaled_dot_product_efficient_attention.default(add_127, add_163, permute_3, None, False, 0.0, True);  add_127 = add_163 = permute_3 = None
        getitem_7: "f32[s77, 4, s27, 64]" = _scaled_dot_product_efficient_attention[0];  _scaled_dot_product_efficient_attention = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:97 in forward, code: x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
        permute_4: "f32[s77, s27, 4, 64]" = torch.ops.aten.permute.default(getitem_7, [0, 2, 1, 3]);  getitem_7 = None
        view_7: "f32[s77, s27, 256]" = torch.ops.aten.view.default(permute_4, [arg0_1, arg1_1, 256]);  permute_4 = None
        permute_5: "f32[256, 256]" = torch.ops.aten.permute.default(arg6_1, [1, 0]);  arg6_1 = None
        view_8: "f32[s27*s77, 256]" = torch.ops.aten.view.default(view_7, [mul_17, 256]);  view_7 = None
        mm_1: "f32[s27*s77, 256]" = torch.ops.aten.mm.default(view_8, permute_5);  view_8 = permute_5 = None
        view_9: "f32[s77, s27, 256]" = torch.ops.aten.view.default(mm_1, [arg0_1, arg1_1, 256]);  mm_1 = None
        add_195: "f32[s77, s27, 256]" = torch.ops.aten.add.Tensor(arg2_1, view_9);  arg2_1 = view_9 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:59 in forward, code: return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) \
        pow_3: "f32[s77, s27, 256]" = torch.ops.aten.pow.Tensor_Scalar(add_195, 2)
        mean_1: "f32[s77, s27, 1]" = torch.ops.aten.mean.dim(pow_3, [-1], True);  pow_3 = None

        # No stacktrace found for following nodes
        convert_element_type_default_3: "f32[]" = torch.ops.prims.convert_element_type.default(arg7_1, torch.float32);  arg7_1 = None
        add_tensor_1: "f32[s77, s27, 1]" = torch.ops.aten.add.Tensor(mean_1, convert_element_type_default_3);  mean_1 = convert_element_type_default_3 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:59 in forward, code: return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) \
        rsqrt_1: "f32[s77, s27, 1]" = torch.ops.aten.rsqrt.default(add_tensor_1);  add_tensor_1 = None
        mul_182: "f32[s77, s27, 256]" = torch.ops.aten.mul.Tensor(add_195, rsqrt_1);  rsqrt_1 = None
        mul_186: "f32[s77, s27, 256]" = torch.ops.aten.mul.Tensor(mul_182, arg8_1);  mul_182 = arg8_1 = None

        # File: /work/main/.device-carry/lead5/unseen_models.py:99 in forward, code: return x + self.down(F.silu(self.gate(h)) * self.up(h))
        permute_6: "f32[256, 688]" = torch.ops.aten.permute.default(arg9_1, [1, 0]);  arg9_1 = None
        view_10: "f32[s27*s77, 256]" = torch.ops.aten.view.default(mul_186, [mul_17, 256])
        mm_2: "f32[s27*s77, 688]" = torch.ops.aten.mm.default(view_10, permute_6);  view_10 = permute_6 = None
        view_11: "f32[s77, s27, 688]" = torch.ops.aten.view.default(mm_2, [arg0_1, arg1_1, 688]);  mm_2 = None
        neg_2: "f32[s77, s27, 688]" = torch.ops.aten.neg.default(view_11)
        exp: "f32[s77, s27, 688]" = torch.ops.aten.exp.default(neg_2);  neg_2 = None
        add_235: "f32[s77, s27, 688]" = torch.ops.aten.add.Tensor(exp, 1);  exp = None
        div_1: "f32[s77, s27, 688]" = torch.ops.aten.div.Tensor(view_11, add_235);  view_11 = add_235 = None
        permute_7: "f32[256, 688]" = torch.ops.aten.permute.default(arg10_1, [1, 0]);  arg10_1 = None
        view_12: "f32[s27*s77, 256]" = torch.ops.aten.view.default(mul_186, [mul_17, 256]);  mul_186 = None
        mm_3: "f32[s27*s77, 688]" = torch.ops.aten.mm.default(view_12, permute_7);  view_12 = permute_7 = None
        view_13: "f32[s77, s27, 688]" = torch.ops.aten.view.default(mm_3, [arg0_1, arg1_1, 688]);  mm_3 = None
        mul_229: "f32[s77, s27, 688]" = torch.ops.aten.mul.Tensor(div_1, view_13);  div_1 = view_13 = None
        permute_8: "f32[688, 256]" = torch.ops.aten.permute.default(arg11_1, [1, 0]);  arg11_1 = None
        view_14: "f32[s27*s77, 688]" = torch.ops.aten.view.default(mul_229, [mul_17, 688]);  mul_229 = mul_17 = None
        mm_4: "f32[s27*s77, 256]" = torch.ops.aten.mm.default(view_14, permute_8);  view_14 = permute_8 = None
        view_15: "f32[s77, s27, 256]" = torch.ops.aten.view.default(mm_4, [arg0_1, arg1_1, 256]);  mm_4 = arg0_1 = arg1_1 = None
        add_264: "f32[s77, s27, 256]" = torch.ops.aten.add.Tensor(add_195, view_15);  add_195 = view_15 = None
        return (add_264,)
