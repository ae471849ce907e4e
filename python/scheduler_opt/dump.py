"""Writes what scheduler-opt reads of an Inductor graph.

Inductor's pre-fusion dump (`ir_pre_fusion.txt`, the text
`torch._inductor.debug.DebugFormatter._write_ir` writes) lacks what a
runtime needs to call externs, so sidecar files travel beside it, in
the formats of the corpus (corpus/inductor/README.md, docs/Runtime.md):

- `extern_calls.json`: per extern scheduler node (by node name, `op12`),
  its full call: kernel, Inductor's IR class, positional and keyword
  arguments in call order, the `out=` view for out-variant kernels, and
  the buffers it writes (with their tuple positions for kernels returning
  several tensors);
- `foreach_lists.json`: `V.graph.lists` (foreach node lists), `{}` if none;
- `size_hints.json`: the hint of every size symbol (only when there are
  symbols);
- `fx_graph_readable.py`: the FX graph as Inductor's debug dump writes it
  (`gm.print_readable()`), which gives the importer the shapes of inputs
  that only externs read;
- `signature.json`: the graph's inputs in call order and its outputs (each
  a view of a buffer, a size expression, or None), which the runtime binds
  to the manifest's storages by buffer name;
- `buffer_views.json`: where each `NonOwningLayout` buffer (an input that
  a concatenation had computed straight into part of its output) lies in
  the storage it views, `{"buf1": {"base": "buf5", "offset": 1}}`, which
  the dump does not print (only when there are such buffers).

Values in calls are JSON: numbers, booleans, null and strings as such;
tensors as `{"buffer": name, "size": [...], "stride": [...], "offset": n,
"dtype": "f32"}` (a view of the buffer's storage, sizes as integers or size
expressions); lists and tuples as arrays; `{"dtype": "float32"}`,
`{"device": "cuda:0"}`, `{"layout": "strided"}`, `{"memory_format":
"contiguous_format"}`, `{"float": "inf"}` and `{"float": "1.0"}` for what JSON
has no word for (integral floats would read back as integers).

The functions that read Inductor's objects duck-type them (`get_name`,
`get_layout`, ...), so this module imports without PyTorch.
"""
import json
import math
import os
from typing import Any, Dict, List, Optional

from . import dtypes

DUMP = "ir_pre_fusion.txt"
EXTERN_CALLS = "extern_calls.json"
FOREACH_LISTS = "foreach_lists.json"
SIZE_HINTS = "size_hints.json"
SIGNATURE = "signature.json"
BUFFER_VIEWS = "buffer_views.json"
FX_GRAPH = "fx_graph_readable.py"

# The short manifest names of torch dtypes.
DTYPE_NAMES = dtypes.MANIFEST_NAME_BY_TORCH_NAME


class UnsupportedCall(ValueError):
    """An extern argument the runtime could not rebuild; names the node."""


def size_value(expr) -> Any:
    """A size as JSON: an int, or the expression's text in size symbols."""
    if isinstance(expr, bool):
        raise UnsupportedCall("a boolean where a size was expected")
    if isinstance(expr, int):
        return expr
    if getattr(expr, "is_Integer", False) or getattr(expr, "is_number", False):
        return int(expr)
    return str(expr).replace(" ", "")


def dtype_name(dtype) -> str:
    name = str(dtype).replace("torch.", "")
    if name not in DTYPE_NAMES:
        raise UnsupportedCall("dtype %s has no manifest name" % name)
    return DTYPE_NAMES[name]


def _is_non_owning(node) -> bool:
    try:
        layout = node.get_layout()
    except (AttributeError, NotImplementedError):
        return False
    return type(layout).__name__ == "NonOwningLayout"


def storage_view(node):
    """The buffer whose storage `node` lies in and its offset there: a
    NonOwningLayout buffer lies in the storage of the buffer it views (its
    own layout's offset is 0), and so does a view of one; anything else in
    the storage of the buffer it names."""
    layout = node.get_layout()
    if type(layout).__name__ == "NonOwningLayout":
        return storage_view(layout.view)
    inner = getattr(node, "data", None)  # a ReinterpretView's buffer
    if inner is not None and _is_non_owning(inner):
        base, base_offset = storage_view(inner)
        return base, base_offset + layout.offset
    return node.get_name(), layout.offset


def buffer_views(buffers) -> Dict[str, Dict[str, Any]]:
    """`buffer_views.json`: the NonOwningLayout buffers among `buffers`
    (Inductor IR buffers) with the buffer they view and their offset in
    its storage, in elements."""
    views = {}
    for buf in buffers:
        if _is_non_owning(buf):
            base, offset = storage_view(buf)
            views[buf.get_name()] = {"base": base,
                                     "offset": size_value(offset)}
    return views


def tensor_ref(node) -> Dict[str, Any]:
    """A tensor argument: a view (size, stride, offset) of the named
    buffer's storage; for a NonOwningLayout buffer, of the storage it
    views."""
    layout = node.get_layout()
    name, offset = storage_view(node)
    return {"buffer": name,
            "size": [size_value(s) for s in layout.size],
            "stride": [size_value(s) for s in layout.stride],
            "offset": size_value(offset),
            "dtype": dtype_name(layout.dtype)}


def _torch_enum(value) -> Optional[Dict[str, str]]:
    kind = type(value).__name__
    if type(value).__module__ != "torch":
        return None
    text = str(value).replace("torch.", "")
    if kind == "dtype":
        return {"dtype": text}
    if kind == "device":
        return {"device": text}
    if kind == "layout":
        return {"layout": text}
    if kind == "memory_format":
        return {"memory_format": text}
    return None


def value(x, where: str) -> Any:
    """A call argument as JSON (see the module's docstring)."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, int):
        return x
    if isinstance(x, float):
        # Integral floats would read back as integers (JSON has one number
        # type), which changes the dtype of what some ops create.
        return x if math.isfinite(x) and not x.is_integer() else \
            {"float": repr(x)}
    if isinstance(x, (list, tuple)):
        return [value(v, where) for v in x]
    if hasattr(x, "get_name") and hasattr(x, "get_layout"):
        return tensor_ref(x)
    enum = _torch_enum(x)
    if enum is not None:
        return enum
    if type(x).__name__ == "SymInt":
        # A size of the graph's shapes (a FallbackKernel's slice end under
        # dynamic=True): its sympy expression, evaluated on each call.
        expr = getattr(getattr(x, "node", None), "expr", None)
        if expr is not None:
            return {"size": size_value(expr)}
    if hasattr(x, "free_symbols") or getattr(x, "is_number", False):
        return {"size": size_value(x)}
    raise UnsupportedCall("%s: argument %r of type %s cannot be passed"
                          % (where, x, type(x).__name__))


def kernel_name(kernel) -> str:
    name = getattr(kernel, "python_kernel_name", None)
    if name:
        return name
    op = getattr(kernel, "op_overload", None)
    if op is not None:
        return "torch.ops." + str(op)
    return type(kernel).__name__


# Inductor's extern IR classes whose wrapper call we rebuild: a FallbackKernel
# calls its op in schema order (unflatten_args); ExternKernelOut calls its
# kernel on its inputs, then its constant arguments, its keyword arguments
# and out=; ExternKernelAlloc likewise without out= (it returns the result);
# MultiOutput takes an element of another extern's tuple; ScatterFallback
# and IndexPutFallback update their first input in place, called as
# Inductor's wrapper calls them (below); InplaceCopyFallback is
# `dst.copy_(src, non_blocking)` (wrapper.codegen_device_copy), which is
# aten.copy_ on its inputs (dst, src) and constant argument (non_blocking),
# called as ExternKernelAlloc calls (it has no keyword arguments).
CALL_CONVENTIONS = ("MultiOutput", "FallbackKernel", "ExternKernelOut",
                    "ExternKernelAlloc", "ScatterFallback",
                    "IndexPutFallback", "InplaceCopyFallback")


def call_convention(kernel) -> Optional[str]:
    """The class among CALL_CONVENTIONS that `kernel` is, when it keeps that
    class's code generation (a subclass with its own codegen calls its
    kernel its own way); None otherwise."""
    for base in type(kernel).__mro__:
        if base.__name__ in CALL_CONVENTIONS:
            own = getattr(type(kernel), "codegen", None)
            return base.__name__ if own is getattr(base, "codegen", None) \
                else None
    return None


def describe_extern(node_name: str, kernel, outputs: List[Any]) -> dict:
    """The call of one extern scheduler node: `kernel` is its IR node
    (`ir.ExternKernel`), `outputs` the IR buffers it writes."""
    where = "%s (%s)" % (node_name, kernel_name(kernel))
    cls = type(kernel).__name__
    convention = call_convention(kernel)
    if convention is None:
        raise UnsupportedCall("%s: Inductor's %s calls its kernel in a way "
                              "the runtime does not rebuild" % (where, cls))
    call = {"kernel": kernel_name(kernel), "class": cls}
    if convention == "MultiOutput":
        # An element of another extern's tuple: its path in the tuple.
        call["source"] = kernel.inputs[0].get_name()
        call["indices"] = [int(i) for _, i in kernel.indices]
    else:
        if convention == "FallbackKernel":
            args, kwargs = kernel.unflatten_args(kernel.inputs,
                                                 kernel.constant_args)
        elif convention == "ScatterFallback":
            args, kwargs = _scatter_fallback_call(kernel)
        elif convention == "IndexPutFallback":
            args, kwargs = _index_put_fallback_call(kernel)
        else:
            args = [*kernel.inputs, *kernel.constant_args]
            kwargs = dict(getattr(kernel, "kwargs", {}) or {})
        call["args"] = value(list(args), where)
        call["kwargs"] = {str(k): value(v, where)
                          for k, v in sorted(kwargs.items())}
        if convention == "ExternKernelOut":
            view = getattr(kernel, "output_view", None)
            call["out"] = tensor_ref(view if view is not None else kernel)
    call["outputs"] = [tensor_ref(b) for b in outputs
                       if _has_fixed_layout(b)]
    return call


def _scatter_fallback_call(kernel):
    """aten.scatter_ / aten.scatter_reduce_ on the buffer they update, as
    wrapper.generate_scatter_fallback writes the call: (x, dim, index, src),
    src a tensor or the number in constant_args; scatter_reduce_ gets all
    of its keyword arguments (reduce, include_self), scatter_ its reduce
    only when there is one."""
    if kernel.src_is_tensor:
        x, index, src = kernel.inputs
    else:
        (x, index), src = kernel.inputs, kernel.constant_args[1]
    kwargs = dict(kernel.kwargs)
    if not kernel_name(kernel).startswith("aten.scatter_reduce"):
        kwargs = {"reduce": kwargs["reduce"]} if kwargs.get("reduce") else {}
    return [x, kernel.constant_args[0], index, src], kwargs


def _index_put_fallback_call(kernel):
    """aten.index_put_ as wrapper.generate_index_put_fallback writes it:
    (x, indices, values, accumulate), the indices a list holding None
    where kernel.indices does."""
    x, values, *valid = kernel.inputs
    valid = iter(valid)
    indices = [None if i is None else next(valid) for i in kernel.indices]
    return [x, indices, values, *kernel.constant_args], {}


def link_elements(calls: Dict[str, dict], owner: Dict[str, str]) -> None:
    """Gives each tuple-returning extern's call the elements its
    MultiOutput nodes extract: `elements[buffer] = {"indices": path,
    "layout": view}`; `owner` maps buffer names to node names."""
    for name in sorted(calls):
        call = calls[name]
        if call.get("class") != "MultiOutput":
            continue
        source = owner.get(call["source"])
        if source not in calls:
            raise UnsupportedCall("%s extracts an element of %s, which no "
                                  "extern produces" % (name, call["source"]))
        element = {"indices": call["indices"]}
        if call["outputs"]:
            element["layout"] = call["outputs"][0]
            buffer = call["outputs"][0]["buffer"]
            calls[source].setdefault("elements", {})[buffer] = element


def _has_fixed_layout(buffer) -> bool:
    # Inductor's get_layout raises on tuples (MultiOutputLayout).
    layout = getattr(buffer, "layout", None)
    if layout is None:
        layout = buffer.get_layout()
    return hasattr(layout, "stride") and hasattr(layout, "size") and \
        type(layout).__name__ not in ("MultiOutputLayout", "NoneLayout")


def describe_output(node, where: str) -> Any:
    """A graph output: a view of a buffer, a size, or None."""
    if node is None or type(node).__name__ == "NoneAsConstantBuffer":
        return None
    if hasattr(node, "get_name") and hasattr(node, "get_layout"):
        try:
            return tensor_ref(node)
        except (AttributeError, NotImplementedError):
            pass
    expr = getattr(node, "expr", None)  # ShapeAsConstantBuffer
    if expr is not None:
        return {"size": size_value(expr)}
    raise UnsupportedCall("%s: graph output %r of type %s"
                          % (where, node, type(node).__name__))


def _json(data) -> str:
    return json.dumps(data, indent=1)  # as the corpus: no final newline


def files(*, dump_text: str, extern_calls: Dict[str, dict],
          foreach_lists: Dict[str, List[str]], size_hints: Dict[str, int],
          signature: dict, fx_graph: str = "",
          buffer_views: Optional[Dict[str, Dict[str, Any]]] = None
          ) -> Dict[str, str]:
    """The dump and its sidecars: file name -> contents."""
    result = {
        DUMP: dump_text,
        EXTERN_CALLS: _json(extern_calls),
        FOREACH_LISTS: _json(foreach_lists),
        SIGNATURE: _json(signature),
    }
    if size_hints:
        result[SIZE_HINTS] = _json(dict(sorted(size_hints.items())))
    if fx_graph:
        result[FX_GRAPH] = fx_graph
    if buffer_views:
        result[BUFFER_VIEWS] = _json(buffer_views)
    return result


def write(directory: str, **contents) -> Dict[str, str]:
    """Writes the dump and its sidecars (`files`'s arguments) into
    `directory` (which exists); returns what it wrote."""
    written = files(**contents)
    for name, text in written.items():
        with open(os.path.join(directory, name), "w") as f:
            f.write(text)
    return written


def read_sidecars(directory: str) -> Dict[str, Any]:
    """The sidecars of a dump directory, by file name ({} when absent)."""
    result = {}
    for name in (EXTERN_CALLS, FOREACH_LISTS, SIZE_HINTS, SIGNATURE,
                 BUFFER_VIEWS):
        path = os.path.join(directory, name)
        result[name] = json.load(open(path)) if os.path.exists(path) else {}
    return result
