"""A manifest's kernels on explicit storages, for the workload harness:
storages allocated and filled by the caller (NaN-poisoned outputs), the
steps run by one launcher. The backend's runtime (`runtime.py`) runs
compiled graphs; this runs bundles of kernels without a PyTorch graph
around them. Graphs with size symbols run at the symbols' values given to
`Program` (one PTX, any size)."""
from typing import Dict, Mapping

import torch

from .. import cuda_driver, sizes
from ..manifest import Manifest
from ..runtime import TORCH_DTYPES


class Program:
    """A lowered graph ready to launch."""

    def __init__(self, manifest: Manifest, device: str = "cuda",
                 alias_inputs: bool = True,
                 symbols: Mapping[str, int] = {}):
        """With `alias_inputs`, outputs that are graph inputs are returned as
        views of the input (as Inductor returns them) instead of copied.
        `symbols` binds the size symbols of a dynamic graph."""
        self.manifest = manifest
        self.symbols = dict(symbols)
        self.device = device
        self.aliases = manifest.input_aliases() if alias_inputs else {}
        self.kernels = {}
        externs = [s.name for s in manifest.externs()]
        if externs:
            raise NotImplementedError(
                "graph %s calls extern kernels %s: run it through the "
                "backend (scheduler_opt.backend)" % (manifest.graph, externs))
        if manifest.kernels():
            if manifest.format != "ptx":
                raise ValueError("expected PTX, got %s" % manifest.format)
            torch.zeros(1, device=device)  # the context is current
            with open(manifest.binary_path(), "rb") as f:
                self.module = cuda_driver.Module(f.read())
            for k in manifest.kernels():
                if k.name not in self.kernels:
                    self.kernels[k.name] = cuda_driver.Kernel(
                        self.module, k.name, k.block,
                        len(k.args) + len(k.symbols), cluster=k.cluster)

    def _size(self, size) -> int:
        return sizes.evaluate(size, self.symbols)

    def allocate(self) -> Dict[str, torch.Tensor]:
        """One flat tensor per storage; outputs and temporaries are filled
        with NaN (or -1) so that unwritten elements show."""
        storages = {}
        for s in self.manifest.storages:
            t = torch.empty(self._size(s.elements),
                            dtype=TORCH_DTYPES[s.dtype],
                            device=self.device)
            if s.role != "input":
                t.fill_(float("nan") if t.is_floating_point() else -1)
            storages[s.name] = t
        return storages

    def view(self, storages: Dict[str, torch.Tensor], tensor) -> torch.Tensor:
        """A manifest tensor as a strided view of its storage."""
        storage = self.aliases.get(tensor.storage, tensor.storage)
        return storages[storage].as_strided(
            [self._size(n) for n in tensor.shape],
            [self._size(n) for n in tensor.strides], self._size(tensor.offset))

    def launcher(self, storages: Dict[str, torch.Tensor], only=None):
        """A function that runs every step on `storages` (with `only`, the
        step of that index alone), on the current PyTorch stream."""
        plan = []
        for i, step in enumerate(self.manifest.steps):
            if only is not None and i != only:
                continue
            if step.kind == "kernel":
                pointers = [storages[a].data_ptr() for a in step.args] + \
                    [self.symbols[n] for n in step.symbols]
                grid = sizes.grid(step.grid, self.symbols)
                plan.append(("kernel", self.kernels[step.name], grid,
                             pointers))
            elif step.dst not in self.aliases:
                n = self._size(step.elements)
                src = storages[step.src][:n]
                dst = storages[step.dst][:n]
                plan.append(("copy", src, dst))

        def run():
            stream = torch.cuda.current_stream().cuda_stream
            for entry in plan:
                if entry[0] == "kernel":
                    _, kernel, grid, pointers = entry
                    kernel.launch(grid, pointers, stream)
                else:
                    entry[2].copy_(entry[1])
        # The kernels hold raw pointers: keep the storages alive with them.
        run.storages = storages
        return run
