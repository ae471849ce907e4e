"""The few CUDA driver calls the runtime needs, through ctypes on libcuda.

Modules are loaded into the current context (PyTorch's primary context
once PyTorch has initialized CUDA); kernels take bare device pointers
(the lowering's bare-pointer calling convention), so a launch passes one
64-bit value per storage. Each `Kernel` keeps its parameter array, so a
launch only writes the pointers and calls cuLaunchKernel (a compiled
graph's call function, runtime.py, writes `values` and calls `driver`
itself, and hands a failed launch's status to `relaunch`); a kernel whose
blocks form thread block clusters (sm_90) is launched with cuLaunchKernelEx
and the CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION attribute. A launch from a
thread where no context is current (autograd's device thread, whose first
CUDA work in a process can be a compiled backward graph's) makes the
module's context current and launches again.
"""
import ctypes
import ctypes.util
from typing import Sequence, Tuple

_lib = None


class CudaError(RuntimeError):
    pass


# cuda.h's CUlaunchAttributeID of the cluster dimension.
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
# cuda.h's CUresult when no context is current in the calling thread.
CUDA_ERROR_INVALID_CONTEXT = 201


class LaunchAttribute(ctypes.Structure):
    """CUlaunchAttribute: an id, padding to 8 bytes, a 64-byte value union
    whose cluster dimension is three unsigned ints."""
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("x", ctypes.c_uint), ("y", ctypes.c_uint),
                ("z", ctypes.c_uint), ("rest", ctypes.c_char * 52)]


class LaunchConfig(ctypes.Structure):
    """CUlaunchConfig."""
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint),
                ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(LaunchAttribute)),
                ("numAttrs", ctypes.c_uint)]


def _driver():
    global _lib
    if _lib is None:
        name = ctypes.util.find_library("cuda") or "libcuda.so.1"
        _lib = ctypes.CDLL(name)
        _lib.cuGetErrorString.argtypes = [ctypes.c_int,
                                          ctypes.POINTER(ctypes.c_char_p)]
        _lib.cuModuleLoadDataEx.argtypes = [
            ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_uint,
            ctypes.c_void_p, ctypes.c_void_p]
        _lib.cuModuleGetFunction.argtypes = [
            ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_char_p]
        _lib.cuLaunchKernel.argtypes = [
            ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
            ctypes.c_uint, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        _lib.cuLaunchKernelEx.argtypes = [
            ctypes.POINTER(LaunchConfig), ctypes.c_void_p, ctypes.c_void_p,
            ctypes.c_void_p]
        _lib.cuCtxGetCurrent.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        _lib.cuCtxSetCurrent.argtypes = [ctypes.c_void_p]
    return _lib


def check(status: int, what: str):
    if status != 0:
        text = ctypes.c_char_p()
        _driver().cuGetErrorString(status, ctypes.byref(text))
        raise CudaError("%s failed: %s (%d)" % (
            what, (text.value or b"unknown error").decode(), status))


def current_context() -> int:
    ctx = ctypes.c_void_p()
    check(_driver().cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
    return ctx.value or 0


class Module:
    """A loaded PTX or cubin image, in the context current when loaded."""

    def __init__(self, image: bytes):
        if image and not image.endswith(b"\0") and image.lstrip()[:1] in \
                (b".", b"/"):
            image += b"\0"  # PTX text is loaded as a C string
        self.context = current_context()
        self.handle = ctypes.c_void_p()
        check(_driver().cuModuleLoadDataEx(ctypes.byref(self.handle), image,
                                           0, None, None),
              "cuModuleLoadDataEx")

    def function(self, name: str) -> ctypes.c_void_p:
        fn = ctypes.c_void_p()
        check(_driver().cuModuleGetFunction(ctypes.byref(fn), self.handle,
                                            name.encode()),
              "cuModuleGetFunction(%s)" % name)
        return fn


class Kernel:
    """A kernel of a module with its launch shape and parameter array."""

    def __init__(self, module: Module, name: str, block: Tuple[int, int, int],
                 num_args: int, cluster: Tuple[int, int, int] = (1, 1, 1)):
        # The kernels' shared memory is static (declared in the PTX): no
        # dynamic shared memory at launch.
        self.name = name
        self.context = module.context
        self.function = module.function(name)
        self.block = block
        self.cluster = tuple(cluster)
        # The parameter values (one 64-bit value each) and the array of
        # their addresses that cuLaunchKernel takes.
        self.values = (ctypes.c_uint64 * max(num_args, 1))()
        base = ctypes.addressof(self.values)
        self.params = (ctypes.c_void_p * max(num_args, 1))(
            *[base + 8 * i for i in range(max(num_args, 1))])
        if self.cluster == (1, 1, 1):
            # cuLaunchKernel(function, grid x, y, z, block x, y, z,
            # shared bytes, stream, params, extra).
            self.driver = _driver().cuLaunchKernel
            return
        # The launch configuration is kept too: a launch writes the grid
        # and the stream into it.
        self._launch_ex = _driver().cuLaunchKernelEx
        self._attribute = LaunchAttribute(
            id=CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, x=self.cluster[0],
            y=self.cluster[1], z=self.cluster[2])
        self._config = LaunchConfig(
            blockDimX=block[0], blockDimY=block[1], blockDimZ=block[2],
            sharedMemBytes=0, attrs=ctypes.pointer(self._attribute),
            numAttrs=1)

    def launch(self, grid: Sequence[int], pointers: Sequence[int],
               stream: int):
        self.values[:len(pointers)] = pointers
        status = self._send(grid, stream)
        if status:
            self.relaunch(status, grid, stream)

    def relaunch(self, status: int, grid: Sequence[int], stream: int):
        """After a launch with the parameter array as written returned
        `status` (not 0): when no context was current in this thread, makes
        the module's context current and launches again; raises what
        failed."""
        if status == CUDA_ERROR_INVALID_CONTEXT and self.context:
            check(_driver().cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
            status = self._send(grid, stream)
        if status:
            check(status, "%s(%s)" % ("cuLaunchKernel"
                                      if self.cluster == (1, 1, 1) else
                                      "cuLaunchKernelEx", self.name))

    def _send(self, grid: Sequence[int], stream: int) -> int:
        """Launches with the parameter array as written; the status."""
        if self.cluster != (1, 1, 1):
            c = self._config
            c.gridDimX, c.gridDimY, c.gridDimZ = grid[0], grid[1], grid[2]
            c.hStream = stream
            return self._launch_ex(ctypes.byref(c), self.function,
                                   self.params, None)
        bx, by, bz = self.block
        return self.driver(self.function, grid[0], grid[1], grid[2],
                           bx, by, bz, 0, stream, self.params, None)
