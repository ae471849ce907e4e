"""The scheduler_opt backend's options (`torch.compile(...,
options={...})`; backend.py's docstring says what each does) and the error
a graph the pipeline cannot compile raises. Free of PyTorch, so that the
options can be checked without it."""
import dataclasses
from typing import Any, Dict, Optional


# The most bytes of buffers a kernel may write and still join a combo
# kernel: about what the H100 writes in half a microsecond, so that only
# kernels whose time is mostly a launch's fixed cost share one (those are
# what sharing speeds up), and no large buffer is allocated at its combo's
# earlier place, which raised the peak (docs/Lowering.md, "Results: combo
# kernels in the backend's models").
COMBO_MAX_PART_BYTES = 1 << 20


class CompileError(RuntimeError):
    """scheduler_opt cannot compile a graph; the message names the op and
    the reason."""


@dataclasses.dataclass
class Options:
    fallback: bool = False
    chip: str = "sm_90"
    cache: bool = True
    cache_dir: Optional[str] = None
    keep_dir: Optional[str] = None
    cuda_graphs: bool = False
    autotune: bool = False
    cache_hints: Optional[str] = None
    vector_atomics: bool = True
    combo_kernels: bool = True
    ptx_flags: Optional[str] = None

    def ptx_options(self) -> str:
        """The --fusion-to-ptx options these options add ("" for none)."""
        options = []
        if self.cache_hints is not None:
            options.append("cache-hints=" + self.cache_hints)
        if not self.vector_atomics:
            options.append("vector-atomics=0")
        if self.combo_kernels:
            options.append("combo-kernels=1 combo-max-part-bytes=%d"
                           % COMBO_MAX_PART_BYTES)
        if self.ptx_flags:
            options.append(self.ptx_flags)
        return " ".join(options)

    @classmethod
    def from_dict(cls, options: Optional[Dict[str, Any]]) -> "Options":
        options = dict(options or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise CompileError("unknown scheduler_opt options %s (known: %s)"
                               % (unknown, sorted(known)))
        return cls(**options)
