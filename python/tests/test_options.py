"""The backend's options (`scheduler_opt.options`): what each adds to
scheduler-opt's --fusion-to-ptx, and unknown names refused."""
import pytest

from scheduler_opt.options import CompileError, Options


def test_defaults_lower_with_combo_kernels():
    """Combo kernels (of kernels writing at most 1 MiB) are on by default;
    nothing else is added."""
    assert Options().ptx_options() == \
        "combo-kernels=1 combo-max-part-bytes=1048576"
    assert Options(combo_kernels=False).ptx_options() == ""


def test_options_in_order_with_ptx_flags_last():
    """Every option's flag, and ptx_flags after them (so they win)."""
    options = Options.from_dict({"cache_hints": "all",
                                 "vector_atomics": False,
                                 "ptx_flags": "combo-kernels=0"})
    assert options.ptx_options() == \
        "cache-hints=all vector-atomics=0 combo-kernels=1 " \
        "combo-max-part-bytes=1048576 combo-kernels=0"


def test_unknown_option_is_refused():
    with pytest.raises(CompileError, match="unknown scheduler_opt options "
                       r"\['combo'\]"):
        Options.from_dict({"combo": True})
