"""Reading scheduler nodes' memory dependencies from a pre-fusion dump."""
from scheduler_opt import deps

# As BaseSchedulerNode.debug_str writes them (pformat wraps long lists).
DUMP = """op1: SchedulerNode(ComputedBuffer)
op1.writes = [MemoryDep('buf1', 4096*d0 + d1, {d0: 2048, d1: 4096})]
op1.unmet_dependencies = [MemoryDep('buf0', 4096*d0 + d1, {d0: 2048, d1: 4096})]
op1.met_dependencies = []
op1.outputs = [
    buf1: ComputedBuffer
    buf1.layout = FixedLayout('cuda:0', torch.float32, size=[2048, 4096])
]
op1.group.device = cuda:0
op1.group.iteration = (8388608, 1)
op1.sizes = ([2048, 4096], [])


op16: SchedulerNode(ComputedBuffer)
op16.writes = [MemoryDep('arg34_1', 256*d0 + d1, {d0: 256, d1: 256})]
op16.unmet_dependencies = []
op16.met_dependencies = 
    [   MemoryDep('arg34_1', 256*d0 + d1, {d0: 256, d1: 256}),
        MemoryDep('arg64_1', ModularIndexing(d0, 1, 4), {d0: 256}),
        StarDep(name='arg34_1', mode=None)]
op16.outputs = [
    MemoryDep('not_a_dep', d0, {d0: 1})
]
op16.group.device = cuda:0
op16.group.iteration = (2048, 1024)
"""


def test_parse():
    nodes = deps.parse(DUMP)
    assert set(nodes) == {"op1", "op16"}
    op1 = nodes["op1"]
    assert op1.writes == (deps.Dep("buf1", "MemoryDep", "4096*d0 + d1",
                                   "d0: 2048, d1: 4096"),)
    assert op1.reads == (deps.Dep("buf0", "MemoryDep", "4096*d0 + d1",
                                  "d0: 2048, d1: 4096"),)
    assert op1.pointwise()
    op16 = nodes["op16"]
    # The wrapped list, an index with commas inside, a StarDep; nothing
    # from other fields.
    assert op16.reads == (
        deps.Dep("arg34_1", "MemoryDep", "256*d0 + d1", "d0: 256, d1: 256"),
        deps.Dep("arg64_1", "MemoryDep", "ModularIndexing(d0, 1, 4)",
                 "d0: 256"),
        deps.Dep("arg34_1", "StarDep"))
    assert op16.iteration == ("2048", "1024")
    assert not op16.pointwise()


def test_aliases():
    """The views externs return, as Inductor 2.11 printed them for
    torch.view_as_complex(x) * freqs (test/Target/Inductor/Inputs/complex)."""
    text = """op0: ExternKernelSchedulerNode(FallbackKernel)
op0.outputs = [
    buf0: FallbackKernel
    buf0.layout = MultiOutputLayout(device=device(type='cuda', index=0))
    buf0.aliases = ['arg0_1']
    buf0.users = [
        NodeUser(node=ExternKernelSchedulerNode(name='op1'), can_inplace=False, is_weak=False),
    ]
]
op1: ExternKernelSchedulerNode(MultiOutput)
op1.outputs = [
    buf1: MultiOutput
    buf1.layout = FixedLayout('cuda:0', torch.complex64, size=[2, 64, 16], stride=[1024, 16, 1])
    buf1.aliases = ['buf0']
]
op2.outputs = [
    buf2: MultiOutput
    buf2.aliases = ['buf0', 'buf1']
]
"""
    assert deps.aliases(text) == {"buf0": ("arg0_1",), "buf1": ("buf0",),
                                  "buf2": ("buf0", "buf1")}
    assert deps.aliases("op0.writes = []\n") == {}
