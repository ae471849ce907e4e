class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 64]"):
        # File: /work/main/.device-carry/lowerops5/tma_capture.py:69 in stable, code: y = x * 2.0
        mul: "f32[64, 64]" = torch.ops.aten.mul.Tensor(arg0_1, 2.0);  arg0_1 = None

        # File: /work/main/.device-carry/lowerops5/tma_capture.py:70 in stable, code: out = torch.empty_like(y)
        empty: "f32[64, 64]" = torch.ops.aten.empty.memory_format([64, 64], dtype = torch.float32, layout = torch.strided, device = device(type='cuda', index=0), pin_memory = False)

        # File: /work/main/.device-carry/lowerops5/tma_capture.py:72 in stable, code: add_one_desc[(2, 2)](desc, out, 64, BM=32, BN=32)
        triton_kernel_wrapper_functional_proxy = torch.ops.higher_order.triton_kernel_wrapper_functional(kernel_idx = 0, constant_args_idx = 0, grid = [(2, 2, 1)], tma_descriptor_metadata = {'in_desc': ('stable', ([32, 32],))}, kwargs = {'in_desc': mul, 'out_ptr': empty}, tensors_to_clone = ['out_ptr']);  mul = empty = None
        getitem: "f32[64, 64]" = triton_kernel_wrapper_functional_proxy['out_ptr'];  triton_kernel_wrapper_functional_proxy = None
        return (getitem,)
