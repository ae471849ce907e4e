"""Runs bench/unseen_models.py with every graph the scheduler_opt backend
compiles checked output by output against the same FX graph run eagerly on
the same inputs (a deep copy taken before Inductor's passes change it):
one line per output with its graph, position, FX node, and the largest
difference relative to the eager output's largest magnitude.

    SCHEDULER_OPT_BIN=DIR PYTHONPATH=python:bench \
        python3 bench/check_graphs_eager.py --models gru_train --out "$OUT"

Where a model differs from eager, this names the graph and the output that
differ (which kernel, which extern), where unseen_models.py only says the
model does. Outputs near zero (a convolution bias's gradient in front of a
batch norm) show large relative differences that are rounding: read the
line with the model's own result."""
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from scheduler_opt import backend  # noqa: E402

_compile = backend._inner_compile


def _checked_compile(gm, example_inputs, **kwargs):
    reference = copy.deepcopy(gm)
    compiled = _compile(gm, example_inputs, **kwargs)
    graph = len(backend.STATS) - 1
    (outputs,) = [n.args[0] for n in reference.graph.find_nodes(op="output")]
    names = [str(o) for o in outputs]

    def run(args):
        inputs = [a.clone() if isinstance(a, torch.Tensor) else a
                  for a in args]
        with torch.no_grad():
            expected = reference(*inputs)
        result = compiled(args)
        for i, (ours, ref) in enumerate(zip(result, expected)):
            if not (isinstance(ours, torch.Tensor) and
                    isinstance(ref, torch.Tensor)) or not ours.numel():
                continue
            if ours.is_floating_point():
                scale = ref.double().abs().max().item() or 1.0
                rel = (ours.double() - ref.double()).abs().max().item() / scale
                verdict = "differs" if rel > 1e-4 else "ok"
                detail = "max rel %.3g" % rel
            else:
                verdict = "ok" if torch.equal(ours, ref) else "differs"
                detail = "exact"
            print("graph %d output %d %s: %s (%s, shape %s, stride %s)" % (
                graph, i, names[i], verdict, detail, tuple(ours.shape),
                ours.stride()), flush=True)
        return result
    run._boxed_call = True
    return run


backend._inner_compile = _checked_compile

if __name__ == "__main__":
    import unseen_models
    unseen_models.main()
