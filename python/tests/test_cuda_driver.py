"""The CUDA driver's launch calls as ctypes passes them, against a stand-in
for libcuda (no GPU needed): plain kernels through cuLaunchKernel, kernels
with thread block clusters through cuLaunchKernelEx with cuda.h's
CUlaunchConfig and CUlaunchAttribute layouts (CUDA 13's cuda.h: the
config's stream at byte 32, its attributes at 40 and their count at 48,
56 bytes in all; an attribute's id, then its 64-byte value at byte 8)."""
import ctypes
import importlib.util
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def load_driver():
    # The module itself, not whatever another test installed under its name.
    path = os.path.join(HERE, "..", "scheduler_opt", "cuda_driver.py")
    spec = importlib.util.spec_from_file_location("real_cuda_driver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class FakeLib:
    def __init__(self, driver):
        self.driver = driver
        self.calls = []

    def cuLaunchKernel(self, function, gx, gy, gz, bx, by, bz, shared,
                       stream, params, extra):
        self.calls.append(("plain", function, (gx, gy, gz), (bx, by, bz),
                           shared, stream))
        return 0

    def cuLaunchKernelEx(self, config, function, params, extra):
        # The bytes as libcuda reads them.
        c = ctypes.cast(config, ctypes.POINTER(self.driver.LaunchConfig))[0]
        raw = ctypes.string_at(ctypes.addressof(c), 56)
        attr = ctypes.string_at(ctypes.cast(c.attrs, ctypes.c_void_p).value,
                                72)
        self.calls.append(("ex", function, raw, attr))
        return 0


class FakeModule:
    context = 0x99  # the context it was loaded in

    def function(self, name):
        return ctypes.c_void_p(0x1234)


def words(raw, fmt_count, offset=0):
    return [int.from_bytes(raw[offset + 4 * i:offset + 4 * i + 4], "little")
            for i in range(fmt_count)]


def test_layouts_follow_cuda_h():
    d = load_driver()
    assert ctypes.sizeof(d.LaunchConfig) == 56
    assert d.LaunchConfig.hStream.offset == 32
    assert d.LaunchConfig.attrs.offset == 40
    assert d.LaunchConfig.numAttrs.offset == 48
    assert ctypes.sizeof(d.LaunchAttribute) == 72
    assert d.LaunchAttribute.x.offset == 8
    assert d.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION == 4


def test_cluster_kernel_launches_with_the_cluster_attribute():
    d = load_driver()
    lib = FakeLib(d)
    d._lib = lib
    k = d.Kernel(FakeModule(), "kernel_op0", (64, 1, 1), 2, cluster=(8, 1, 1))
    k.launch((16, 1, 1), [0x1000, 0x2000], 0x77)
    k.launch((24, 1, 1), [0x1000, 0x2000], 0x78)
    assert [c[0] for c in lib.calls] == ["ex", "ex"]
    _, function, raw, attr = lib.calls[1]
    assert words(raw, 7) == [24, 1, 1, 64, 1, 1, 0]
    assert int.from_bytes(raw[32:40], "little") == 0x78
    assert int.from_bytes(raw[48:52], "little") == 1
    assert words(attr, 1) == [4]
    assert words(attr, 3, offset=8) == [8, 1, 1]
    assert k.values[:2] == [0x1000, 0x2000]


def test_plain_kernel_keeps_cuLaunchKernel():
    d = load_driver()
    lib = FakeLib(d)
    d._lib = lib
    k = d.Kernel(FakeModule(), "kernel_op1", (256, 1, 1), 1)
    k.launch((4, 1, 1), [0x3000], 5)
    assert lib.calls == [("plain", k.function, (4, 1, 1), (256, 1, 1), 0, 5)]


def test_launch_error_names_the_call():
    d = load_driver()

    class Failing(FakeLib):
        def cuLaunchKernelEx(self, *args):
            return 912  # CUDA_ERROR_CLUSTER_SIZE_... as libcuda returns it

        def cuGetErrorString(self, status, text):
            return 0
    d._lib = Failing(d)
    k = d.Kernel(FakeModule(), "kernel_op0", (64, 1, 1), 1, cluster=(2, 1, 1))
    with pytest.raises(d.CudaError, match=r"cuLaunchKernelEx\(kernel_op0\)"):
        k.launch((2, 1, 1), [1], 0)


def test_launch_without_a_current_context_makes_the_modules_current():
    # Autograd's device thread: no context current until one is set.
    d = load_driver()

    class NoContext(FakeLib):
        current = None

        def cuCtxSetCurrent(self, context):
            self.current = context
            return 0

        def cuLaunchKernel(self, *args):
            if self.current != FakeModule.context:
                return d.CUDA_ERROR_INVALID_CONTEXT
            return super().cuLaunchKernel(*args)

        def cuGetErrorString(self, status, text):
            return 0
    lib = NoContext(d)
    d._lib = lib
    k = d.Kernel(FakeModule(), "kernel_op0", (128, 1, 1), 1)
    k.launch((3, 1, 1), [0x1000], 0)
    assert lib.current == FakeModule.context
    assert [c[0] for c in lib.calls] == ["plain"]
    # A context that does not help: the launch's error, not a loop.
    lib.current = None
    lib.cuCtxSetCurrent = lambda context: 0
    with pytest.raises(d.CudaError, match=r"cuLaunchKernel\(kernel_op0\)"):
        k.launch((3, 1, 1), [0x1000], 0)
