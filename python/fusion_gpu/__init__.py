"""Running scheduler-opt's PTX kernels on a GPU without MLIR.

`--fusion-to-ptx="output-dir=DIR"` writes, per graph, DIR/<graph>.ptx and
DIR/<graph>.json (the launch manifest). This package reads the manifest
(`manifest`, pure Python), loads the PTX with CuPy and runs the steps in
order on PyTorch tensors (`runner`), and checks and times the result against
PyTorch eager and torch.compile of the graph's FX function (`run_workloads`).
"""
