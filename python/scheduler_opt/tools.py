"""Finding and running scheduler-translate, scheduler-opt and ptxas.

The tools are found in `SCHEDULER_OPT_BIN` (a directory), then on `PATH`;
ptxas and libdevice in the CUDA toolkit (`CUDA_HOME`, `CUDA_PATH`,
`/usr/local/cuda`) or in Triton's package, which bundles both. A failed
tool run raises `PipelineError` naming the op and the reason, taken from
the tool's MLIR diagnostic.

Pure Python (Triton is only looked for, not imported, when absent).
"""
import dataclasses
import os
import re
import shutil
import subprocess
from typing import Dict, List, Optional, Tuple


class PipelineError(RuntimeError):
    """scheduler-opt could not compile a graph: `op` and `reason` say
    which op and why (from the tool's diagnostic)."""

    def __init__(self, message: str, op: str = "", reason: str = ""):
        super().__init__(message)
        self.op = op
        self.reason = reason


class ToolNotFound(PipelineError):
    pass


def find_tool(name: str) -> str:
    directory = os.environ.get("SCHEDULER_OPT_BIN")
    if directory:
        path = os.path.join(directory, name)
        if os.access(path, os.X_OK):
            return path
    path = shutil.which(name)
    if path:
        return path
    raise ToolNotFound("%s not found: set SCHEDULER_OPT_BIN to the directory "
                       "holding it or put it on PATH" % name)


def _triton_backend_dir() -> Optional[str]:
    try:
        import importlib.util
        spec = importlib.util.find_spec("triton")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0],
                        "backends", "nvidia")
    return path if os.path.isdir(path) else None


def cuda_toolkit() -> Dict[str, str]:
    """Where ptxas and libdevice are: {"ptxas": path, "libdevice": path}
    for what was found, and "CUDA_HOME" when a toolkit root holds
    libdevice where the NVVM lowering looks for it."""
    found = {}
    roots = [os.environ.get(v) for v in ("CUDA_HOME", "CUDA_PATH",
                                         "CUDA_ROOT")]
    roots.append("/usr/local/cuda")
    for root in filter(None, roots):
        ptxas = os.path.join(root, "bin", "ptxas")
        libdevice = os.path.join(root, "nvvm", "libdevice",
                                 "libdevice.10.bc")
        if "ptxas" not in found and os.access(ptxas, os.X_OK):
            found["ptxas"] = ptxas
        if "libdevice" not in found and os.path.exists(libdevice):
            found["libdevice"] = libdevice
            found["CUDA_HOME"] = root
    triton = _triton_backend_dir()
    if triton:
        ptxas = os.path.join(triton, "bin", "ptxas")
        libdevice = os.path.join(triton, "lib", "libdevice.10.bc")
        if "ptxas" not in found and os.access(ptxas, os.X_OK):
            found["ptxas"] = ptxas
        if "libdevice" not in found and os.path.exists(libdevice):
            found["libdevice"] = libdevice
    return found


def toolkit_shim(toolkit: Dict[str, str]) -> str:
    """A directory laid out as a CUDA toolkit root (nvvm/libdevice,
    bin/ptxas) linking to what `cuda_toolkit` found elsewhere (Triton's
    package), for the NVVM lowering, which looks for libdevice there."""
    from .cache import default_directory
    root = os.path.join(default_directory(), "toolkit")
    links = {os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc"):
             toolkit["libdevice"]}
    if "ptxas" in toolkit:
        links[os.path.join(root, "bin", "ptxas")] = toolkit["ptxas"]
    for link, target in links.items():
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if os.path.realpath(link) != os.path.realpath(target):
            tmp = link + ".%d" % os.getpid()
            os.symlink(target, tmp)
            os.replace(tmp, link)
    return root


_DIAG = re.compile(r"^(?P<loc>[^\n]*?):(?P<line>\d+):(?P<col>\d+): error: "
                   r"(?P<msg>.*)$", re.M)
_OP = re.compile(r"^'(?P<op>[\w.]+)' op (?P<rest>.*)$")
_NAME = re.compile(r'fusion\.\w+ "(?P<name>op\d+)"')


def parse_diagnostic(stderr: str, source: str = "") -> Tuple[str, str]:
    """(op, reason) from the first error of an MLIR tool: the op is the
    node named on the error's source line when there is one (`op12`), else
    the op kind."""
    m = _DIAG.search(stderr)
    if not m:
        lines = [l for l in stderr.strip().splitlines() if l.strip()]
        return "", (lines[-1] if lines else "failed without a diagnostic")
    msg = m.group("msg")
    op, reason = "", msg
    om = _OP.match(msg)
    if om:
        op, reason = om.group("op"), om.group("rest")
    # The offending line, as the tool printed it under the error.
    after = stderr[m.end():].splitlines()
    for line in after[:3]:
        nm = _NAME.search(line)
        if nm:
            op = "%s %s" % (op or "op", nm.group("name"))
            break
    return op, reason


def run(args: List[str], what: str, env: Optional[dict] = None,
        stdin: Optional[str] = None) -> str:
    """Runs a tool; returns its stdout or raises PipelineError."""
    proc = subprocess.run(args, input=stdin, capture_output=True, text=True,
                          env=env)
    if proc.returncode != 0:
        op, reason = parse_diagnostic(proc.stderr)
        raise PipelineError("%s failed%s: %s" % (
            what, " on %s" % op if op else "", reason), op, reason)
    return proc.stdout


@dataclasses.dataclass
class Pipeline:
    """The tools and options of one compile."""
    translate: str
    opt: str
    chip: str = "sm_90"
    features: str = "+ptx81"
    toolkit: Dict[str, str] = dataclasses.field(default_factory=dict)

    @classmethod
    def find(cls, chip: str = "sm_90") -> "Pipeline":
        return cls(translate=find_tool("scheduler-translate"),
                   opt=find_tool("scheduler-opt"), chip=chip,
                   toolkit=cuda_toolkit())

    def env(self) -> dict:
        env = dict(os.environ)
        if "CUDA_HOME" in self.toolkit:
            env["CUDA_HOME"] = self.toolkit["CUDA_HOME"]
        elif "libdevice" in self.toolkit:
            env["CUDA_HOME"] = toolkit_shim(self.toolkit)
        if "ptxas" in self.toolkit:
            env["PATH"] = os.path.dirname(self.toolkit["ptxas"]) + \
                os.pathsep + env.get("PATH", "")
        return env

    def lower(self, graph: str, out_dir: str, options: str = ""):
        """Schedules and lowers the graph in file `graph` to PTX and a
        manifest in `out_dir`, with more --fusion-to-ptx `options`
        ("key=value ...")."""
        run([self.opt, graph, "-o", os.devnull,
             "--fusion-to-ptx=chip=%s features=%s output-dir=%s%s"
             % (self.chip, self.features, out_dir,
                " " + options if options else "")],
            "scheduler-opt --fusion-to-ptx", self.env())

    def compile(self, dump_dir: str, out_dir: str,
                options: str = "") -> Dict[str, float]:
        """Imports `dump_dir`'s dump, schedules and lowers it to PTX and a
        manifest in `out_dir`, with more --fusion-to-ptx `options`; returns
        the seconds each tool took."""
        import time
        env = self.env()
        t0 = time.perf_counter()
        mlir = run([self.translate, "--import-inductor",
                    os.path.join(dump_dir, "ir_pre_fusion.txt")],
                   "scheduler-translate --import-inductor", env)
        t1 = time.perf_counter()
        graph = os.path.join(out_dir, "graph.mlir")
        with open(graph, "w") as f:
            f.write(mlir)
        self.lower(graph, out_dir, options)
        t2 = time.perf_counter()
        return {"import_s": t1 - t0, "pipeline_s": t2 - t1}
