"""One-dimensional pointwise scheduler nodes in Inductor's dump format, for
the generators of test dumps (bitcast-pow/cases.py, index-exact/cases.py):
node `op<i>` computes its body over p0 = 0 .. n-1 and stores one value into
its own output buffer `buf<i>` at p0."""

NODE = """op{i}: SchedulerNode(ComputedBuffer)
op{i}.writes = [MemoryDep('buf{i}', d0, {{d0: {n}}})]
op{i}.unmet_dependencies = []
op{i}.met_dependencies = []
op{i}.outputs = [
    buf{i}: ComputedBuffer
    buf{i}.layout = FixedLayout('cuda:0', torch.{dtype}, size=[{n}], stride=[1])
    buf{i}.users = [NodeUser(node=OUTPUT, can_inplace=False, is_weak=False)]
]
op{i}.group.device = cuda:0
op{i}.group.iteration = ({n}, 1)
op{i}.sizes = ([{n}], [])
buf{i}_layout = FixedLayout('cuda:0', torch.{dtype}, size=[{n}], stride=[1])
class op{i}_loop_body:
    var_ranges = {{p0: {n}}}
    index0 = {index0}
    index1 = p0
    def body(self, ops):
{lines}
        get_index_1 = self.get_index('index1')
        store = ops.store('buf{i}', get_index_1, {result}, None)
        return store
"""


def pointwise_node(i, n, dtype, index0, lines, result):
    """Node `op<i>`: `index0` is the body's first index (index1 is p0, where
    it stores), `lines` the body's statements before the store, `result`
    the name they bind to the stored value, `dtype` torch's name of the
    output's dtype."""
    return NODE.format(i=i, n=n, dtype=dtype, index0=index0, result=result,
                       lines="\n".join("        " + l for l in lines))
