"""`torch.compile(model, backend="scheduler_opt")`.

Inductor's front half runs unchanged: `torch._inductor.compile_fx.compile_fx`
does pre-grad passes, AOT autograd with Inductor's decompositions and
partitioner, and calls `inner_compile` on each forward, backward or
inference graph; our `inner_compile` runs Inductor's own `compile_fx_inner`
(post-grad passes, lowering to Inductor's IR, the scheduler's dependence
analysis) up to the point where Inductor logs its pre-fusion scheduler
nodes. There we take the nodes: the dump Inductor would write
(`ir_pre_fusion.txt`, with the combine functions of scans that Inductor
does not print, `combine_fns.py`) and what it lacks (`dump.py`'s sidecars) go through
scheduler-translate and `scheduler-opt --fusion-to-ptx` (compile cache
first), and Inductor's compile stops (its fusion and Triton codegen do
not run). The result is a `runtime.CompiledGraph`.

Options (`torch.compile(..., options={...})`):
- `fallback` (False): a graph the pipeline cannot compile goes on through
  Inductor, with a warning, instead of raising `CompileError`;
- `chip` ("sm_90"): the PTX target;
- `cache_dir`: the compile cache (default `~/.cache/scheduler_opt`, or
  `SCHEDULER_OPT_CACHE_DIR`); `cache` (True) turns it off when False;
- `keep_dir`: also copy each graph's dump and artifacts there;
- `cuda_graphs` (False): replay each graph from a CUDA graph
  (`cudagraphs.py`); `mode="reduce-overhead"` turns it on;
- `autotune` (False): choose each kernel's launch configuration by timing
  candidates on the GPU at the first compile (`autotune.py`; the choices
  are cached under the cache directory's `autotune/`, by kernel, shapes
  and device).
- `cache_hints` (None): --fusion-to-ptx's `cache-hints` (`none`, `loads`,
  `stores`, `all`; docs/Lowering.md, "Cache hints"); None keeps the
  pipeline's default.
- `vector_atomics` (True): False lowers with --fusion-to-ptx's
  `vector-atomics=0` (one scalar atomic add an element instead of sm_90's
  vector atomics; docs/Lowering.md, "Atomic adds").
- `combo_kernels` (True): lower with --fusion-to-ptx's `combo-kernels=1`
  and `combo-max-part-bytes` of `options.COMBO_MAX_PART_BYTES` (Inductor's
  `config.combo_kernels`, off in Inductor: independent kernels of one
  level of the dependence graph that write at most 1 MiB share a launch,
  partitioned by blocking strategy; docs/Lowering.md, "Foreach (combo)
  kernels"); False keeps each kernel its own launch.
- `ptx_flags` (None): further --fusion-to-ptx options as scheduler-opt
  takes them (`reduction-lanes=128 reduction-rows-per-block=2`), after
  the ones above: for measuring other lowerings of a model's graphs
  (`bench/profile_variants.py`).
"""
import contextlib
import functools
import os
import shutil
import threading
import time
import types
import warnings
from typing import Any, Dict, List, Optional

import torch

from . import autotune as autotune_lib
from . import cache as cache_lib
from . import deps as deps_lib
from . import combine_fns, dump, fx_graph, tools
from . import manifest as manifest_lib, plan as plan_lib
from .cudagraphs import CudaGraphed
from .options import CompileError, Options
from .runtime import CompiledGraph, RuntimeError_


# Compile-time breakdown of every graph compiled in this process, in order.
STATS: List[Dict[str, Any]] = []


class _Captured(Exception):
    """Stops Inductor once the graph is compiled by scheduler-opt."""


_state = threading.local()


def _is_host_scalar(value) -> bool:
    """A zero-dimensional CPU tensor among a GPU graph's inputs (a Python
    float Dynamo passes as a tensor, an optimizer's step count), which
    Inductor's kernels take by value (`GraphLowering.is_unspec_arg`); the
    runtime copies it to the device on each call."""
    device = value.get_device()
    return device is not None and device.type == "cpu" and \
        len(value.get_size()) == 0


def _graph_signature(graph) -> dict:
    inputs = []
    mutated = set(getattr(graph, "mutated_inputs", ()))
    for name in graph.graph_input_names:
        value = graph.graph_inputs.get(name)
        if value is not None and hasattr(value, "get_layout"):
            inputs.append({"name": name,
                           "dtype": dump.dtype_name(value.get_dtype())})
            if name in mutated:
                inputs[-1]["mutated"] = True
            if _is_host_scalar(value):
                inputs[-1]["host_scalar"] = True
        elif value is not None and getattr(value, "is_Symbol", False):
            inputs.append({"name": name, "symbol": str(value)})
        else:
            inputs.append({"name": name, "ignored": True})
    constants = sorted(graph.constants)
    for name in constants:
        inputs.append({"name": name, "constant": True,
                       "dtype": dump.dtype_name(graph.constants[name].dtype)})
    outputs = [dump.describe_output(o, "graph output %d" % k)
               for k, o in enumerate(graph.graph_outputs)]
    return {"inputs": inputs, "outputs": outputs}


def _size_hints(graph) -> Dict[str, int]:
    """The hint of every size symbol (`V.graph.sizevars`' values; the
    table moved from the SizeVarAllocator to its ShapeEnv across PyTorch
    versions), else the hints of the symbols of the graph's inputs."""
    sizevars = graph.sizevars
    for owner in (sizevars, getattr(sizevars, "shape_env", None)):
        for attr in ("backed_var_to_val", "var_to_val"):
            table = getattr(owner, attr, None)
            if not table:
                continue
            hints = {}
            for k, v in table.items():
                try:
                    hints[str(k)] = int(v)
                except (TypeError, ValueError):
                    pass  # not a number (an unbacked value)
            if hints:
                return hints
    hints = {}
    for value in graph.graph_inputs.values():
        sizes = list(value.get_size()) if hasattr(value, "get_size") else \
            [value]
        for size in sizes:
            for sym in getattr(size, "free_symbols", ()):
                try:
                    hints[str(sym)] = int(sizevars.size_hint(sym))
                except Exception:  # no hint: only decisions needing it fail
                    pass
    return hints


def _output_strides(graph) -> List[Optional[tuple]]:
    """The graph's output strides as Inductor's fx_codegen_and_compile
    records them for AOT autograd: a tensor output's layout strides as
    printed sympy expressions, None for other outputs and for strides with
    unbacked symbols. AOT autograd compiles the backward for the saved
    activations' real strides, which Inductor may have padded
    (comprehensive_padding: a batch stride of 2336 for 2312 elements)."""
    from torch._inductor.ir import IRNode
    from torch.fx.experimental.symbolic_shapes import (SymExprPrinter,
                                                       free_unbacked_symbols)
    printer = SymExprPrinter()
    strides = []
    for out in graph.graph_outputs or ():
        if isinstance(out, IRNode) and out.has_tensor_output() and \
                not free_unbacked_symbols(out.get_stride()):
            strides.append(tuple(printer.doprint(s)
                                 for s in out.get_layout().stride))
        else:
            strides.append(None)
    return strides


def _report_output_strides(example_inputs, strides) -> None:
    """Hands the output strides to AOT autograd (TracingContext) with
    Inductor's own function, as Inductor does after compiling a graph;
    without them the backward assumes the FX graph's strides and reads a
    padded activation at the wrong places."""
    try:
        from torch._inductor.utils import set_tracing_context_output_strides
    except ImportError:  # older PyTorch
        from torch._inductor.compile_fx import \
            set_tracing_context_output_strides
    set_tracing_context_output_strides(
        example_inputs, types.SimpleNamespace(output_strides=strides))


def _record(nodes) -> Dict[str, Any]:
    """The dump of Inductor's pre-fusion scheduler nodes and its sidecars."""
    from torch._inductor.scheduler import ExternKernelSchedulerNode
    from torch._inductor.virtualized import V

    # What DebugFormatter._write_ir writes into ir_pre_fusion.txt, with the
    # combine functions of scans, which it does not print (combine_fns.py).
    text = "".join(
        combine_fns.with_combine_fns(node.debug_str(), node.get_name(),
                                     getattr(node, "_body", None),
                                     V.set_ops_handler) + "\n\n\n"
        for node in nodes)
    calls, owner = {}, {}
    for node in nodes:
        for buf in node.get_outputs():
            owner[buf.get_name()] = node.get_name()
        if isinstance(node, ExternKernelSchedulerNode):
            calls[node.get_name()] = dump.describe_extern(
                node.get_name(), node.node,
                [b.node for b in node.get_outputs()])
    dump.link_elements(calls, owner)
    graph = V.graph
    lists = {str(k): [str(n) for n in v] for k, v in graph.lists.items()}
    views = dump.buffer_views(buf.node for node in nodes
                              for buf in node.get_outputs())
    return {"dump_text": text, "extern_calls": calls, "foreach_lists": lists,
            "buffer_views": views, "size_hints": _size_hints(graph),
            "signature": _graph_signature(graph),
            "output_strides": _output_strides(graph),
            "constants": [graph.constants[n] for n in
                          sorted(graph.constants)],
            "num_nodes": len(nodes)}


def _compile_recorded(rec: Dict[str, Any], opts: Options,
                      stats: Dict[str, Any]) -> CompiledGraph:
    """Runs scheduler-opt (through the cache) on a recorded graph."""
    signature = rec["signature"]
    if rec["num_nodes"] == 0:
        m = plan_lib.empty_manifest("graph")
        return CompiledGraph(m, plan_lib.plan(m, signature),
                             constants=rec["constants"])
    contents = dict(dump_text=rec["dump_text"],
                    extern_calls=rec["extern_calls"],
                    foreach_lists=rec["foreach_lists"],
                    buffer_views=rec["buffer_views"],
                    size_hints=rec["size_hints"], signature=signature,
                    fx_graph=rec["fx_graph"])
    files = dump.files(**contents)
    pipeline = tools.Pipeline.find(opts.chip)
    options = {"chip": opts.chip, "features": pipeline.features}
    if opts.autotune:
        # Tuned PTX depends on the device it was timed on.
        options["autotune"] = torch.cuda.get_device_name()
    if opts.ptx_options():
        options["ptx_options"] = opts.ptx_options()
    key = cache_lib.key(files, options,
                        cache_lib.tool_identity([pipeline.translate,
                                                 pipeline.opt]))

    def build(directory):
        dump_dir = os.path.join(directory, "dump")
        os.makedirs(dump_dir)
        dump.write(dump_dir, **contents)
        stats.update(pipeline.compile(dump_dir, directory,
                                      opts.ptx_options()))
        if opts.autotune:
            stats.update(_autotune(pipeline, directory, opts))

    t0 = time.perf_counter()
    if opts.cache:
        store = cache_lib.Cache(opts.cache_dir)
        entry = store.lookup(key)
        stats["cache_hit"] = entry is not None
        if entry is None:
            entry = store.insert(key, build)
    else:
        import tempfile
        entry = tempfile.mkdtemp(prefix="scheduler_opt-")
        build(entry)
        stats["cache_hit"] = False
    stats["tools_s"] = time.perf_counter() - t0
    stats["cache_entry"] = entry
    if opts.keep_dir:
        target = os.path.join(opts.keep_dir, key[:16])
        if not os.path.exists(target):
            shutil.copytree(entry, target)
    t1 = time.perf_counter()
    m = manifest_lib.load(os.path.join(entry, "graph.json"))
    run_plan = plan_lib.plan(m, signature, deps_lib.parse(rec["dump_text"]),
                             views=deps_lib.aliases(rec["dump_text"]),
                             hints=rec["size_hints"])
    image = None
    if m.kernels():
        cubin = os.path.join(entry, "graph.cubin")
        path = cubin if os.path.exists(cubin) else m.binary_path()
        with open(path, "rb") as f:
            image = f.read()
    compiled = CompiledGraph(m, run_plan, image, constants=rec["constants"])
    stats["load_s"] = time.perf_counter() - t1
    stats["kernels"] = len(m.kernels())
    stats["externs"] = len(m.externs())
    # Size symbols the kernels take (graphs compiled for dynamic shapes).
    stats["symbols"] = sorted({n for k in m.kernels() for n in k.symbols})
    return compiled


def _autotune(pipeline: tools.Pipeline, directory: str,
              opts: Options) -> Dict[str, Any]:
    """Re-lowers the compiled graph in `directory` with the kernel
    configurations `autotune.tune` chooses on the current GPU."""
    import tempfile
    t0 = time.perf_counter()
    graph = os.path.join(directory, "graph.mlir")
    work = tempfile.mkdtemp(prefix="scheduler_opt-tune-")
    count = [0]
    extra = [opts.ptx_options()] if opts.ptx_options() else []

    def compile(settings):
        if not settings:
            return directory  # the rule: compiled already
        out = os.path.join(work, str(count[0]))
        count[0] += 1
        pipeline.lower(graph, out, " ".join(
            ["%s=%d" % kv for kv in sorted(settings.items())] + extra))
        return out
    try:
        cache = autotune_lib.TuneCache(os.path.join(
            opts.cache_dir or cache_lib.default_directory(), "autotune"))
        text, _ = autotune_lib.tune(compile, autotune_lib.GpuTimer(), cache,
                                    torch.cuda.get_device_name())
        if text:
            pipeline.lower(graph, directory,
                           " ".join(["kernel-configs=" + text] + extra))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {"autotune_s": time.perf_counter() - t0, "kernel_configs": text}


_ERRORS = (tools.PipelineError, dump.UnsupportedCall, plan_lib.PlanError,
           manifest_lib.ManifestError, RuntimeError_)


def _pre_fusion_pass(nodes):
    """Inductor's `_pre_fusion_custom_pass`: called with the scheduler nodes
    right after the pre-fusion dump (and foreach grouping)."""
    job = getattr(_state, "job", None)
    if job is None:
        return nodes  # not our compile
    if job["nodes"] is None:
        # The dump hook did not fire: take the nodes here, foreach groups
        # taken apart again (their lists are in V.graph.lists).
        flat = []
        for node in nodes:
            flat.extend(getattr(node, "snodes", None) or [node]
                        if type(node).__name__ == "ForeachKernelSchedulerNode"
                        else [node])
        job["nodes"] = flat
        job["record"] = _record(flat)
        job["record"]["fx_graph"] = job["fx_graph"]
    opts, stats = job["opts"], job["stats"]
    stats["front_half_s"] = time.perf_counter() - job["start"]
    try:
        job["result"] = _compile_recorded(job["record"], opts, stats)
    except _ERRORS as e:
        message = "scheduler_opt cannot compile graph %d: %s" % (
            len(STATS), e)
        if not opts.fallback:
            job["error"] = CompileError(message)
            raise _Captured()
        warnings.warn(message + "; Inductor compiles it instead "
                      "(options={'fallback': True})")
        stats["fallback"] = str(e)
        return nodes
    raise _Captured()


def _log_pre_fusion(original, nodes):
    """Wraps torch._inductor.debug.log_ir_pre_fusion: records the nodes as
    Inductor dumps them, before foreach grouping changes the list."""
    job = getattr(_state, "job", None)
    if job is not None:
        job["nodes"] = list(nodes)
        job["record"] = _record(nodes)
        job["record"]["fx_graph"] = job["fx_graph"]
    return original(nodes)


def _find(exc, kind):
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, kind):
            return exc
        inner = getattr(exc, "inner_exception", None)
        exc = inner if inner is not None else (exc.__cause__ or
                                               exc.__context__)
    return None


@contextlib.contextmanager
def _no_caches():
    """Inductor's and AOT autograd's caches would hand back Inductor's own
    compiled code without running the scheduler."""
    from torch._functorch import config as functorch_config
    from torch._inductor import config as inductor_config
    with inductor_config.patch(fx_graph_cache=False,
                               fx_graph_remote_cache=False), \
            functorch_config.patch(enable_autograd_cache=False):
        yield


def _inner_compile(gm, example_inputs, *, opts: Options, **kwargs):
    from torch._inductor import config as inductor_config
    from torch._inductor import debug as inductor_debug
    from torch._inductor.compile_fx import compile_fx_inner

    stats = {"graph": len(STATS),
             "kind": "backward" if kwargs.get("is_backward") else
             ("inference" if kwargs.get("is_inference") else "forward")}
    job = {"opts": opts, "stats": stats, "start": time.perf_counter(),
           "nodes": None,
           # As Inductor's debug dump writes it, before post-grad passes.
           "fx_graph": fx_graph.readable(gm)}
    original = inductor_debug.log_ir_pre_fusion
    previous = getattr(_state, "job", None)
    _state.job = job
    inductor_debug.log_ir_pre_fusion = functools.partial(_log_pre_fusion,
                                                         original)
    try:
        # printer_codes: Inductor prints the post-grad graph, which
        # raised KeyError for bits8, bits2x4 and bits4x2 tensors.
        with _no_caches(), fx_graph.printer_codes(), inductor_config.patch(
                _pre_fusion_custom_pass=_pre_fusion_pass):
            result = compile_fx_inner(gm, example_inputs, **kwargs)
    except BaseException as e:
        if _find(e, _Captured) is None:
            raise
        result = None
    finally:
        inductor_debug.log_ir_pre_fusion = original
        _state.job = previous
    stats["compile_s"] = time.perf_counter() - job["start"]
    STATS.append(stats)
    if job.get("error") is not None:
        raise job["error"]
    if result is not None:
        if job["nodes"] is not None and "fallback" not in stats:
            raise CompileError("Inductor compiled graph %d itself although "
                               "scheduler_opt saw its scheduler nodes"
                               % stats["graph"])
        # A graph without operations (Inductor returns its FX code) or a
        # fallback to Inductor.
        stats.setdefault("inductor", True)
        return result
    _report_output_strides(example_inputs, job["record"]["output_strides"])
    if opts.cuda_graphs:
        return CudaGraphed(job["result"])
    return job["result"]


def backend(gm: torch.fx.GraphModule, example_inputs, options=None,
            mode=None):
    """The TorchDynamo backend `"scheduler_opt"`."""
    from torch._inductor.compile_fx import compile_fx
    opts = Options.from_dict(options)
    if mode == "reduce-overhead":
        opts.cuda_graphs = True
    elif mode not in (None, "default"):
        warnings.warn("scheduler_opt ignores mode=%r" % mode)
    inner = functools.partial(_inner_compile, opts=opts)
    with _no_caches():
        return compile_fx(gm, example_inputs, inner_compile=inner)


def register():
    from torch._dynamo import list_backends, register_backend
    if "scheduler_opt" not in list_backends(exclude_tags=()):
        register_backend(name="scheduler_opt")(backend)
