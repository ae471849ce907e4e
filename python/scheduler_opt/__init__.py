"""scheduler-opt from Python: a PyTorch compiler backend and its runtime.

    import torch, scheduler_opt
    model = torch.compile(model, backend="scheduler_opt")

Importing the package registers the backend with TorchDynamo when PyTorch
is installed (an installed package also registers it through the
`torch_dynamo_backends` entry point). The parts that need neither PyTorch
nor a GPU: `manifest` (the launch manifest reader), `sizes`, `plan` (what
each call does), `dump` (the dump and sidecar writer), `cache`, `tools`,
`fx_graph` (the signature of a dumped FX graph). `runtime` and `backend`
need PyTorch; `harness` checks and times corpus workloads on a GPU.
"""
try:
    import torch as _torch  # noqa: F401
except ImportError:
    _torch = None

if _torch is not None:
    from .backend import register, CompileError, Options  # noqa
    register()
