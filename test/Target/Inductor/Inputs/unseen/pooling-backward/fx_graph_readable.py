class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[2, 8, 17, 17]", mul: "f32[2, 8, 17, 17]", getitem_1: "i8[2, 8, 9, 9]", avg_pool2d: "f32[2, 8, 8, 8]", getitem_3: "i64[2, 8, 5, 5]", pow_2: "f32[2, 8, 17, 17]", avg_pool2d_1: "f32[2, 8, 8, 8]", mul_9: "f32[2, 8, 17, 17]", tangents_1: "f32[]"):
        # File: /work/main/.device-carry/lead7/bench/unseen_models.py:625 in f, code: 2).sum()
        expand: "f32[2, 8, 8, 8]" = torch.ops.aten.expand.default(tangents_1, [2, 8, 8, 8])

        # File: /work/main/.device-carry/lead7/bench/unseen_models.py:624 in f, code: F.adaptive_max_pool2d(x, 5).sum() + F.lp_pool2d(x.abs(), 2,
        sign: "f32[2, 8, 8, 8]" = torch.ops.aten.sign.default(avg_pool2d_1)
        abs_2: "f32[2, 8, 8, 8]" = torch.ops.aten.abs.default(avg_pool2d_1);  avg_pool2d_1 = None
        relu: "f32[2, 8, 8, 8]" = torch.ops.aten.relu.default(abs_2);  abs_2 = None
        mul_1: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(sign, relu)
        mul_2: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(mul_1, 4);  mul_1 = None
        pow_4: "f32[2, 8, 8, 8]" = torch.ops.aten.pow.Tensor_Scalar(mul_2, -0.5);  mul_2 = None
        mul_3: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Scalar(pow_4, 0.5);  pow_4 = None
        mul_4: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(expand, mul_3);  mul_3 = None
        mul_5: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(mul_4, 4);  mul_4 = None
        mul_6: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(mul_5, sign);  mul_5 = None
        le: "b8[2, 8, 8, 8]" = torch.ops.aten.le.Scalar(relu, 0);  relu = None
        full_default: "f32[]" = torch.ops.aten.full.default([], 0.0, dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)
        where: "f32[2, 8, 8, 8]" = torch.ops.aten.where.self(le, full_default, mul_6);  le = full_default = mul_6 = None
        mul_8: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(where, sign);  where = sign = None
        avg_pool2d_backward: "f32[2, 8, 17, 17]" = torch.ops.aten.avg_pool2d_backward.default(mul_8, pow_2, [2, 2], [], [0, 0], False, True, None);  mul_8 = pow_2 = None
        mul_10: "f32[2, 8, 17, 17]" = torch.ops.aten.mul.Tensor(avg_pool2d_backward, mul_9);  avg_pool2d_backward = mul_9 = None
        sign_2: "f32[2, 8, 17, 17]" = torch.ops.aten.sign.default(mul)
        mul_11: "f32[2, 8, 17, 17]" = torch.ops.aten.mul.Tensor(mul_10, sign_2);  mul_10 = sign_2 = None
        expand_1: "f32[2, 8, 5, 5]" = torch.ops.aten.expand.default(tangents_1, [2, 8, 5, 5])
        adaptive_max_pool2d_backward: "f32[2, 8, 17, 17]" = torch.ops.aten.adaptive_max_pool2d_backward.default(expand_1, mul, getitem_3);  expand_1 = getitem_3 = None
        add_4: "f32[2, 8, 17, 17]" = torch.ops.aten.add.Tensor(mul_11, adaptive_max_pool2d_backward);  mul_11 = adaptive_max_pool2d_backward = None

        # File: /work/main/.device-carry/lead7/bench/unseen_models.py:623 in f, code: return m.sum() + a.square().sum() + \
        pow_6: "f32[2, 8, 8, 8]" = torch.ops.aten.pow.Tensor_Scalar(avg_pool2d, 1.0);  avg_pool2d = None
        mul_12: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Scalar(pow_6, 2.0);  pow_6 = None
        mul_13: "f32[2, 8, 8, 8]" = torch.ops.aten.mul.Tensor(expand, mul_12);  expand = mul_12 = None
        expand_3: "f32[2, 8, 9, 9]" = torch.ops.aten.expand.default(tangents_1, [2, 8, 9, 9]);  tangents_1 = None

        # File: /work/main/.device-carry/lead7/bench/unseen_models.py:622 in f, code: a = F.avg_pool2d(x, 3, 2, ceil_mode=True, count_include_pad=False)
        avg_pool2d_backward_1: "f32[2, 8, 17, 17]" = torch.ops.aten.avg_pool2d_backward.default(mul_13, mul, [3, 3], [2, 2], [0, 0], True, False, None);  mul_13 = None
        add_5: "f32[2, 8, 17, 17]" = torch.ops.aten.add.Tensor(add_4, avg_pool2d_backward_1);  add_4 = avg_pool2d_backward_1 = None

        # File: /work/main/.device-carry/lead7/bench/unseen_models.py:621 in f, code: m, _ = F.max_pool2d(x, 3, 2, 1, return_indices=True)
        _low_memory_max_pool_offsets_to_indices: "i64[2, 8, 9, 9]" = torch.ops.prims._low_memory_max_pool_offsets_to_indices.default(getitem_1, [3, 3], [17, 17], [2, 2], [1, 1], [1, 1]);  getitem_1 = None
        max_pool2d_with_indices_backward: "f32[2, 8, 17, 17]" = torch.ops.aten.max_pool2d_with_indices_backward.default(expand_3, mul, [3, 3], [2, 2], [1, 1], [1, 1], False, _low_memory_max_pool_offsets_to_indices);  expand_3 = mul = _low_memory_max_pool_offsets_to_indices = None
        add_6: "f32[2, 8, 17, 17]" = torch.ops.aten.add.Tensor(add_5, max_pool2d_with_indices_backward);  add_5 = max_pool2d_with_indices_backward = None

        # File: /work/main/.device-carry/lead7/bench/unseen_models.py:620 in f, code: x = x * w
        mul_14: "f32[2, 8, 17, 17]" = torch.ops.aten.mul.Tensor(add_6, primals_1);  add_6 = primals_1 = None
        sum_5: "f32[1, 8, 1, 1]" = torch.ops.aten.sum.dim_IntList(mul_14, [0, 2, 3], True);  mul_14 = None
        return (None, sum_5)
