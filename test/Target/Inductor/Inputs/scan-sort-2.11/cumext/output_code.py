# AOT ID: ['1_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from torch._C import _cuda_getCurrentRawStream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p


# kernel path: /tmp/torchinductor_root/ac/cacsns3ybinlgendt42fg7pqpq4b2f6dpwcr6scalqqhn5za3srg.py
# Topologically Sorted Source Nodes: [cummax, cummin], Original ATen: [aten.cummax, aten.cummin]
# Source node to ATen node mapping:
#   cummax => cummax
#   cummin => cummin
# Graph fragment:
#   %arg0_1 : Tensor "f32[8, 64][64, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %cummax : [num_users=2] = call_function[target=torch.ops.aten.cummax.default](args = (%arg0_1, 1), kwargs = {})
#   %cummin : [num_users=2] = call_function[target=torch.ops.aten.cummin.default](args = (%arg0_1, 1), kwargs = {})
#   return %getitem,%getitem_1,%getitem_2,%getitem_3
triton_per_fused_cummax_cummin_0 = async_compile.triton('triton_per_fused_cummax_cummin_0', '''
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton.jit
def _triton_helper_fn_gt_eq_ne_ne_gt_logical_or_logical_and_logical_or_gt_logical_and_logical_or_where_where0(arg0_0, arg0_1, arg1_0, arg1_1):
    tmp0 = arg0_0 > arg1_0
    tmp1 = arg0_0 == arg1_0
    tmp2 = arg0_0 != arg0_0
    tmp3 = arg1_0 != arg1_0
    tmp4 = tmp2 > tmp3
    tmp5 = tmp0 | tmp4
    tmp6 = tmp2 & tmp3
    tmp7 = tmp1 | tmp6
    tmp8 = arg0_1 > arg1_1
    tmp9 = tmp7 & tmp8
    tmp10 = tmp5 | tmp9
    tmp11 = tl.where(tmp10, arg0_0, arg1_0)
    tmp12 = tl.where(tmp10, arg0_1, arg1_1)
    return tmp11, tmp12

@triton.jit
def _triton_helper_fn_lt_eq_ne_ne_gt_logical_or_logical_and_logical_or_gt_logical_and_logical_or_where_where1(arg0_0, arg0_1, arg1_0, arg1_1):
    tmp0 = arg0_0 < arg1_0
    tmp1 = arg0_0 == arg1_0
    tmp2 = arg0_0 != arg0_0
    tmp3 = arg1_0 != arg1_0
    tmp4 = tmp2 > tmp3
    tmp5 = tmp0 | tmp4
    tmp6 = tmp2 & tmp3
    tmp7 = tmp1 | tmp6
    tmp8 = arg0_1 > arg1_1
    tmp9 = tmp7 & tmp8
    tmp10 = tmp5 | tmp9
    tmp11 = tl.where(tmp10, arg0_0, arg1_0)
    tmp12 = tl.where(tmp10, arg0_1, arg1_1)
    return tmp11, tmp12

@triton_heuristics.persistent_reduction(
    size_hints={'x': 8, 'r0_': 64},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i64', 'out_ptr2': '*fp32', 'out_ptr3': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (6,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'autotune_hints': set(), 'kernel_name': 'triton_per_fused_cummax_cummin_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': None, 'atomic_add_found': False, 'num_load': 1, 'num_store': 4, 'num_reduction': 0, 'backend_hash': '91D1D1166449D9E2EB66EB9770C9E2C3B0FEB787341F27FEB4D3F0338DA50336', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': False, 'are_deterministic_algorithms_enabled': False, 'tiling_scores': {'x': 0, 'r0_': 26624}}
)
@triton.jit
def triton_per_fused_cummax_cummin_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 64
    R0_BLOCK: tl.constexpr = 64
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 64*x0), xmask, other=0.0)
    tmp1 = r0_1
    tmp2 = tmp0.to(tl.float32)
    tmp3 = tl.broadcast_to(tmp2, [XBLOCK, R0_BLOCK])
    tmp4 = tmp1.to(tl.int64)
    tmp5 = tl.broadcast_to(tmp4, [XBLOCK, R0_BLOCK])
    tmp6, tmp7, = tl.associative_scan((tmp3, tmp5,), 1, _triton_helper_fn_gt_eq_ne_ne_gt_logical_or_logical_and_logical_or_gt_logical_and_logical_or_where_where0)
    tmp8, tmp9, = tl.associative_scan((tmp3, tmp5,), 1, _triton_helper_fn_lt_eq_ne_ne_gt_logical_or_logical_and_logical_or_gt_logical_and_logical_or_where_where1)
    tl.store(out_ptr0 + (r0_1 + 64*x0), tmp6, xmask)
    tl.store(out_ptr1 + (r0_1 + 64*x0), tmp7, xmask)
    tl.store(out_ptr2 + (r0_1 + 64*x0), tmp8, xmask)
    tl.store(out_ptr3 + (r0_1 + 64*x0), tmp9, xmask)
''', device_str='cuda')


async_compile.wait(globals())
del async_compile

class Runner:
    def __init__(self, partitions):
        self.partitions = partitions

    def recursively_apply_fns(self, fns):
        new_callables = []
        for fn, c in zip(fns, self.partitions):
            new_callables.append(fn(c))
        self.partitions = new_callables

    def call(self, args):
        arg0_1, = args
        args.clear()
        assert_size_stride(arg0_1, (8, 64), (64, 1))
        with torch.cuda._DeviceGuard(0):
            torch.cuda.set_device(0)
            buf0 = empty_strided_cuda((8, 64), (64, 1), torch.float32)
            buf1 = empty_strided_cuda((8, 64), (64, 1), torch.int64)
            buf2 = empty_strided_cuda((8, 64), (64, 1), torch.float32)
            buf3 = empty_strided_cuda((8, 64), (64, 1), torch.int64)
            # Topologically Sorted Source Nodes: [cummax, cummin], Original ATen: [aten.cummax, aten.cummin]
            # [Provenance debug handles] triton_per_fused_cummax_cummin_0:1
            stream0 = get_raw_stream(0)
            triton_per_fused_cummax_cummin_0.run(arg0_1, buf0, buf1, buf2, buf3, 8, 64, stream=stream0)
            del arg0_1
        return (buf0, buf1, buf2, buf3, )

runner = Runner(partitions=[])
call = runner.call
recursively_apply_fns = runner.recursively_apply_fns


def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((8, 64), (64, 1), device='cuda:0', dtype=torch.float32)
    return [arg0_1]


def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat)


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
