"""Runs a manifest's steps on the GPU: PTX loaded with CuPy, storages as
PyTorch tensors, kernels launched with raw device pointers (the kernels are
lowered with the bare-pointer calling convention)."""
import warnings
from typing import Dict

import cupy
import numpy
import torch

from .manifest import Manifest

TORCH_DTYPES = {
    "f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
    "f64": torch.float64, "i1": torch.bool, "i8": torch.int8,
    "i16": torch.int16, "i32": torch.int32, "i64": torch.int64,
}


class Program:
    """A lowered graph ready to launch."""

    def __init__(self, manifest: Manifest, device: str = "cuda",
                 alias_inputs: bool = True):
        """With `alias_inputs`, outputs that are graph inputs are returned as
        views of the input (as Inductor returns them) instead of copied."""
        self.manifest = manifest
        self.device = device
        self.aliases = manifest.input_aliases() if alias_inputs else {}
        self.functions = {}
        if manifest.kernels():
            if manifest.format != "ptx":
                raise ValueError("expected PTX, got %s" % manifest.format)
            self.module = cupy.RawModule(path=manifest.binary_path())
            self.functions = {k.name: self.module.get_function(k.name)
                              for k in manifest.kernels()}
        externs = [s.name for s in manifest.steps if s.kind == "extern"]
        if externs:
            raise NotImplementedError(
                "graph %s calls extern kernels %s, which this harness does "
                "not implement" % (manifest.graph, externs))

    def allocate(self) -> Dict[str, torch.Tensor]:
        """One flat tensor per storage; outputs and temporaries are filled
        with NaN (or -1) so that unwritten elements show."""
        storages = {}
        for s in self.manifest.storages:
            t = torch.empty(s.elements, dtype=TORCH_DTYPES[s.dtype],
                            device=self.device)
            if s.role != "input":
                t.fill_(float("nan") if t.is_floating_point() else -1)
            storages[s.name] = t
        return storages

    def view(self, storages: Dict[str, torch.Tensor], tensor) -> torch.Tensor:
        """A manifest tensor as a strided view of its storage."""
        storage = self.aliases.get(tensor.storage, tensor.storage)
        return storages[storage].as_strided(tensor.shape, tensor.strides,
                                            tensor.offset)

    def launcher(self, storages: Dict[str, torch.Tensor]):
        """A function that runs every step on `storages`, on the current
        PyTorch stream."""
        plan = []
        for step in self.manifest.steps:
            if step.kind == "kernel":
                args = tuple(numpy.uint64(storages[a].data_ptr())
                             for a in step.args)
                plan.append(("kernel", self.functions[step.name], step.grid,
                             step.block, args))
            elif step.dst not in self.aliases:
                src = storages[step.src][:step.elements]
                dst = storages[step.dst][:step.elements]
                plan.append(("copy", src, dst))

        def run():
            stream = torch.cuda.current_stream().cuda_stream
            with _external_stream(stream):
                for entry in plan:
                    if entry[0] == "kernel":
                        _, fn, grid, block, args = entry
                        fn(grid, block, args)
                    else:
                        entry[2].copy_(entry[1])
        # The kernels hold raw pointers: keep the storages alive with them.
        run.storages = storages
        return run


def _external_stream(handle):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return cupy.cuda.ExternalStream(handle)
