"""Compile-time autotuning of each kernel's launch configuration.

`scheduler-opt --fusion-to-ptx` chooses each kernel's thread mapping by
rules (threads per row, rows per block and per thread, split reductions,
persistence; docs/Lowering.md). The autotuner compiles the graph once per
candidate configuration (`CANDIDATES`: the rule, then settings that the
rule would not pick), times every kernel whose PTX a candidate changes on
the GPU, and keeps, per kernel, the fastest candidate when it beats the
rule by more than `MARGIN` (else the rule). The choices go back to
scheduler-opt as `kernel-configs` (one setting list per kernel), and are
cached on disk, keyed by the kernel's PTX under the rule (which holds its
shapes), the device's name and the candidate list: given the cache, the
result is deterministic, and a second compile times nothing.

The timer is a parameter (`GpuTimer` times a kernel on random inputs with
CUDA events); the tests give an injected one.

Pure Python except `GpuTimer` and `replay_us`, which import torch when called.
"""
import hashlib
import json
import os
import re
import statistics
import tempfile
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

# (name, settings): the rule first. Settings a candidate fixes apply to
# every kernel of its compile; a kernel's PTX equal to an earlier
# candidate's is not timed again.
CANDIDATES: Tuple[Tuple[str, Dict[str, int]], ...] = (
    ("rule", {}),
    ("early-loads", {"early-loads": 1}),
    ("rows-per-thread-1", {"reduction-rows-per-thread": 1}),
    ("rows-per-thread-2", {"reduction-rows-per-thread": 2}),
    ("rows-per-thread-4", {"reduction-rows-per-thread": 4}),
    ("warp-rows", {"reduction-lanes": 32, "max-persistent-elements": 32}),
    ("no-split", {"reduction-split": 1}),
    ("pointwise-128", {"pointwise-block-size": 128}),
    ("pointwise-512", {"pointwise-block-size": 512}),
)
# A candidate replaces the rule only when faster by more than this share
# (the replays' spread on one PTX is 1 to 2% on an H100).
MARGIN = 0.03
VERSION = 1

_ENTRY = re.compile(r"^\.(?:visible |weak )?\.entry\s+(\w+)\s*\(", re.M)


def kernel_sources(ptx: str) -> Dict[str, str]:
    """Each `.entry` of a PTX module: from its line to the brace that
    closes its body (the kernel's identity: its code, shapes included)."""
    sources = {}
    for m in _ENTRY.finditer(ptx):
        body = ptx.index("{", m.end())
        depth, i = 0, body
        while i < len(ptx):
            if ptx[i] == "{":
                depth += 1
            elif ptx[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        sources[m.group(1)] = ptx[m.start():i + 1]
    return sources


def choose(times: Mapping[str, Optional[float]], order: Sequence[str],
           margin: float = MARGIN) -> str:
    """The candidate to keep: the fastest of `times` (µs; None: not
    measurable) when it beats `order[0]`, the rule, by more than `margin`,
    else the rule; ties go to the earlier candidate of `order`."""
    rule = order[0]
    measured = [(t, order.index(name)) for name, t in times.items()
                if t is not None]
    if times.get(rule) is None or not measured:
        return rule
    best_time, best = min(measured)
    if best_time < times[rule] * (1.0 - margin):
        return order[best]
    return rule


def configs_text(choices: Mapping[str, str],
                 candidates=CANDIDATES) -> str:
    """scheduler-opt's kernel-configs for the kernels whose choice is not
    the rule, in kernel-name order."""
    settings = dict(candidates)
    entries = []
    for kernel in sorted(choices):
        values = settings[choices[kernel]]
        if values:
            entries.append(kernel + ":" + ",".join(
                "%s=%d" % kv for kv in sorted(values.items())))
    return ";".join(entries)


def cache_key(kernel: str, rule_source: str, device: str,
              candidates=CANDIDATES) -> str:
    h = hashlib.sha256()
    h.update(json.dumps({"version": VERSION, "kernel": kernel,
                         "device": device, "margin": MARGIN,
                         "candidates": [[n, sorted(s.items())]
                                        for n, s in candidates]},
                        sort_keys=True).encode())
    h.update(rule_source.encode())
    return h.hexdigest()


class TuneCache:
    """One JSON file per kernel key: {"choice": name, "times_us": {...}}.
    Written to a temporary file and renamed into place (atomic)."""

    def __init__(self, directory: str):
        self.directory = directory

    def path(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key + ".json")

    def get(self, key: str) -> Optional[dict]:
        try:
            with open(self.path(key)) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def put(self, key: str, record: dict):
        path = self.path(key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path),
                                   prefix=".tmp-")
        with os.fdopen(fd, "w") as f:
            json.dump(record, f, sort_keys=True)
        os.replace(tmp, path)


# compile(settings) -> directory holding <graph>.ptx and <graph>.json.
Compile = Callable[[Dict[str, int]], str]
# timer(directory, kernel) -> µs per launch, or None when the kernel
# cannot be timed alone (size symbols).
Timer = Callable[[str, str], Optional[float]]


def _ptx_of(directory: str) -> str:
    names = sorted(f for f in os.listdir(directory) if f.endswith(".ptx"))
    if len(names) != 1:
        raise ValueError("expected one .ptx in %s, found %s"
                         % (directory, names))
    with open(os.path.join(directory, names[0])) as f:
        return f.read()


def tune(compile: Compile, timer: Timer, cache: TuneCache, device: str,
         candidates=CANDIDATES) -> Tuple[str, Dict[str, dict]]:
    """Chooses each kernel's candidate; returns scheduler-opt's
    kernel-configs text and, per kernel, the cache record (choice and
    the times of the candidates that changed its PTX)."""
    order = [name for name, _ in candidates]
    rule_dir = compile(dict(candidates[0][1]))
    rule = kernel_sources(_ptx_of(rule_dir))
    records, missing = {}, []
    for kernel, source in rule.items():
        record = cache.get(cache_key(kernel, source, device, candidates))
        if record is not None and record.get("choice") in order:
            records[kernel] = record
        else:
            missing.append(kernel)
    if missing:
        dirs = {order[0]: rule_dir}
        sources = {order[0]: rule}
        for name, settings in candidates[1:]:
            dirs[name] = compile(dict(settings))
            sources[name] = kernel_sources(_ptx_of(dirs[name]))
        for kernel in missing:
            times, seen = {}, {}
            for name in order:
                source = sources[name].get(kernel)
                if source is None or source in seen:
                    continue  # the same code as an earlier candidate
                seen[source] = name
                try:
                    times[name] = timer(dirs[name], kernel)
                except Exception:  # cannot run alone: not a candidate
                    times[name] = None
            record = {"choice": choose(times, order), "times_us": times}
            cache.put(cache_key(kernel, rule[kernel], device, candidates),
                      record)
            records[kernel] = record
    choices = {k: r["choice"] for k, r in records.items()}
    return configs_text(choices, candidates), records


def occupancy_waves(grid: int, block: int, registers: int,
                    shared_bytes: int, sms: int) -> float:
    """Waves of a launch on a Hopper GPU (65536 registers, 2048 threads,
    32 blocks and 228 KiB of shared memory per SM; registers allocated
    per warp in units of 256)."""
    warps = -(-block // 32)
    regs_per_warp = -(-max(registers, 1) * 32 // 256) * 256
    limits = [65536 // (regs_per_warp * warps), 2048 // block, 32]
    if shared_bytes:
        limits.append((228 << 10) // (shared_bytes + 1024))
    per_sm = max(1, min(limits))
    return grid / (per_sm * sms)


def model_choice(stats: Mapping[str, Optional[dict]], order: Sequence[str],
                 sms: int = 132) -> str:
    """The cost model the autotuner was measured against: a kernel moves
    its bytes at the device's rate in whole waves, so its time is
    proportional to ceil(waves) / waves (the last wave's idle share) for
    the same bytes; the candidate with the fewest idle SM-waves, ties to
    the earlier. `stats[name]` holds grid, block, registers, shared_bytes
    (None: no such kernel)."""
    best, best_cost = order[0], None
    for name in order:
        s = stats.get(name)
        if not s:
            continue
        waves = occupancy_waves(s["grid"], s["block"], s["registers"],
                                s.get("shared_bytes", 0), sms)
        cost = -(-waves // 1) / waves if waves > 0 else float("inf")
        if best_cost is None or cost < best_cost - 1e-9:
            best, best_cost = name, cost
    return best


_PTXAS_ENTRY = re.compile(r"Compiling entry function '(\w+)'")
_PTXAS_USED = re.compile(r"Used (\d+) registers")


def ptxas_registers(ptxas: str, ptx_path: str,
                    chip: str = "sm_90") -> Dict[str, int]:
    """Registers per thread of each kernel of a PTX file (`ptxas -v`)."""
    import subprocess
    proc = subprocess.run([ptxas, "-v", "-arch=" + chip, ptx_path, "-o",
                           os.devnull], capture_output=True, text=True,
                          check=True)
    registers, kernel = {}, None
    for line in proc.stderr.splitlines():
        m = _PTXAS_ENTRY.search(line)
        if m:
            kernel = m.group(1)
        m = _PTXAS_USED.search(line)
        if m and kernel:
            registers[kernel] = int(m.group(1))
    return registers


def replay_us(graph, launches: int) -> float:
    """One replay of a captured CUDA graph of `launches` kernel launches,
    timed by CUDA events: microseconds a launch."""
    import torch
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    graph.replay()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) * 1000.0 / launches


class GpuTimer:
    """Times one kernel of a compiled directory alone on the current CUDA
    device: its argument storages filled with random normal floats (and
    zeros for integer and boolean storages, so that indices stay in
    bounds), rotated over enough copies that they do not stay in the L2
    cache, timed with CUDA events over `per_rep` launches, median of
    `reps` replays of a CUDA graph of them."""

    def __init__(self, reps: int = 15, per_rep: int = 20,
                 rotate_bytes: int = 256 << 20):
        self.reps = reps
        self.per_rep = per_rep
        self.rotate_bytes = rotate_bytes

    def __call__(self, directory: str, kernel: str) -> Optional[float]:
        import torch
        from . import cuda_driver, manifest as manifest_lib, sizes
        from .runtime import TORCH_DTYPES
        ptx = [f for f in os.listdir(directory) if f.endswith(".ptx")]
        m = manifest_lib.load(os.path.join(directory,
                                           ptx[0][:-len(".ptx")] + ".json"))
        step = next(s for s in m.kernels() if s.name == kernel)
        if step.symbols or not all(sizes.is_static(g) for g in step.grid):
            return None
        elements = {s.name: s.elements for s in m.storages}
        dtypes = {s.name: s.dtype for s in m.storages}
        if not all(sizes.is_static(elements[a]) for a in step.args):
            return None
        footprint = sum(int(elements[a]) * manifest_lib.dtype_size(dtypes[a])
                        for a in step.args)
        sets = max(1, min(8, -(-self.rotate_bytes // max(footprint, 1))))
        torch.zeros(1, device="cuda")
        with open(m.binary_path(), "rb") as f:
            module = cuda_driver.Module(f.read())
        launcher = cuda_driver.Kernel(module, kernel, step.block,
                                      len(step.args), cluster=step.cluster)
        arg_sets = []
        for _ in range(sets):
            tensors = []
            for a in step.args:
                dtype = TORCH_DTYPES[dtypes[a]]
                t = torch.empty(int(elements[a]), dtype=dtype, device="cuda")
                if t.is_floating_point():
                    t.normal_()
                else:
                    t.zero_()
                tensors.append(t)
            arg_sets.append(tensors)
        grid = [int(g) for g in step.grid]

        def run(k):
            launcher.launch(grid, [t.data_ptr() for t in arg_sets[k % sets]],
                            torch.cuda.current_stream().cuda_stream)
        # Replays of a CUDA graph of `per_rep` launches: no launch gaps
        # (a kernel of 2 µs launched from Python would time the launches).
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for k in range(2 * sets):
                run(k)
        torch.cuda.current_stream().wait_stream(side)
        torch.cuda.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for k in range(self.per_rep):
                run(k)
        graph.replay()
        torch.cuda.synchronize()
        times = [replay_us(graph, self.per_rep) for _ in range(self.reps)]
        del module
        return statistics.median(times)
