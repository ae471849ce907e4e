"""A stand-in for the few parts of PyTorch and the CUDA driver that
`scheduler_opt.runtime` uses, so that a compiled graph's calls run on the
CPU without PyTorch: memory is Python lists at fake device addresses,
tensors are strided views of them, kernels are Python functions the test
gives by name, called with the pointers the runtime passes (resolved back
to memory and element offset), as a GPU would run them.

CUDA graphs are modelled as well: while `torch.cuda.graph` captures, the
device's work (kernel launches, copies and clones between device
tensors, and the work an extern hands to `World.device_work`) is
recorded instead of run, memory allocated meanwhile stays with the
graph (its pool), and a copy from host memory fails, as a copy from
pageable memory does in a real capture; `CUDAGraph.replay()` runs the
recorded work again with the same pointers.

`install()` puts the modules in `sys.modules` and returns a `World`
(allocations, live bytes and their peak, launches); `uninstall()` removes
them. Used by test_runtime.py and test_cudagraphs.py only where PyTorch
is not installed.
"""
import contextlib
import math
import sys
import types
import weakref


class DType:
    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __repr__(self):
        return "torch." + self.name


DTYPES = {name: DType(name, size) for name, size in (
    ("float16", 2), ("bfloat16", 2), ("float32", 4), ("float64", 8),
    ("bool", 1), ("int8", 1), ("int16", 2), ("int32", 4), ("int64", 8),
    ("uint8", 1))}


class Memory:
    """One allocation: `elements` values at a fake device address."""

    def __init__(self, world, elements, itemsize, host=False):
        self.world, self.host = world, host
        self.data = [float("nan")] * elements  # never zeros: see METHOD.md
        self.itemsize = itemsize
        self.nbytes = elements * itemsize
        # The tensors that view it (the storage's use count).
        self.tensors = weakref.WeakSet()
        world.storages[id(self)] = self
        world.next_address = (world.next_address + 511) // 512 * 512
        self.base = world.next_address
        world.next_address += max(self.nbytes, 1)
        if not host:  # host memory is no kernel's to address
            world.allocated(self)
            if world.capturing is not None:  # the graph's pool keeps it
                world.capturing.pool.append(self)

    def __del__(self):
        if not self.host:
            self.world.live -= self.nbytes


class Tensor:
    """A strided view of a Memory (shape, stride and offset in elements)."""

    def __init__(self, memory, offset, shape, stride, dtype):
        self.memory, self.offset = memory, offset
        self.shape, self._stride, self.dtype = tuple(shape), tuple(stride), \
            dtype
        memory.tensors.add(self)

    @property
    def data(self):
        """Another tensor of the same view (as torch's `.data`)."""
        return Tensor(self.memory, self.offset, self.shape, self._stride,
                      self.dtype)

    @data.setter
    def data(self, other):
        """Makes this tensor object view what `other` views."""
        assert other.dtype is self.dtype
        self.memory.tensors.discard(self)
        self.memory, self.offset = other.memory, other.offset
        self.shape, self._stride = other.shape, other._stride
        self.memory.tensors.add(self)

    def data_ptr(self):
        return self.memory.base + self.offset * self.dtype.itemsize

    @property
    def device(self):
        return _Device("cpu" if self.memory.host else "cuda")

    @property
    def is_cuda(self):
        return not self.memory.host

    def dim(self):
        return len(self.shape)

    def item(self):
        assert self.numel() == 1
        return self.memory.data[self.offset]

    def untyped_storage(self):
        return Storage(self.memory)

    def as_strided(self, size, stride, offset):
        return Tensor(self.memory, offset, size, stride, self.dtype)

    def to(self, device, non_blocking=False):
        """A contiguous copy in the device's memory (the tensor itself when
        it is there already)."""
        if not self.memory.host:
            return self
        world = self.memory.world
        if world.capturing is not None:
            raise RuntimeError("fake CUDA: a copy from host memory while a "
                               "graph is captured")
        t = empty_strided(self.shape, _contiguous(self.shape), self.dtype,
                          world)
        t.memory.data[:] = self.tolist()
        return t

    def clone(self):
        t = empty_strided(self.shape, _contiguous(self.shape), self.dtype,
                          self.memory.world)
        return t.copy_(self)

    def storage_offset(self):
        return self.offset

    def element_size(self):
        return self.dtype.itemsize

    def stride(self):
        return self._stride

    def numel(self):
        return math.prod(self.shape)

    def positions(self):
        """Element offsets of the view's elements, in row-major order."""
        out = [self.offset]
        for n, s in zip(self.shape, self._stride):
            out = [p + k * s for p in out for k in range(n)]
        return out

    def tolist(self):
        return [self.memory.data[p] for p in self.positions()]

    def copy_(self, other, non_blocking=False):
        """Device work, unless both sides are in host memory; from host
        memory, the values as they are now."""
        def copy(values):
            for p, v in zip(self.positions(), values):
                self.memory.data[p] = v

        world = self.memory.world
        if other.memory.host and not self.memory.host:
            if world.capturing is not None:
                raise RuntimeError("fake CUDA: a copy from host memory while "
                                   "a graph is captured")
            values = other.tolist()
            world.device_work(lambda: copy(values))
        elif self.memory.host:
            copy(other.tolist())
        else:
            world.device_work(lambda: copy(other.tolist()))
        return self


class Storage:
    def __init__(self, memory):
        self.memory = memory
        self._cdata = id(memory)

    def data_ptr(self):
        return self.memory.base

    def nbytes(self):
        return self.memory.nbytes


class World:
    """The fake device: allocations and the kernels the test defines."""

    def __init__(self):
        self.next_address = 1 << 20
        self.memories = weakref.WeakValueDictionary()
        self.live = 0
        self.peak = 0
        self.allocations = 0
        self.kernels = {}
        self.launches = []
        # Each launch's grid, and the number of size symbols a kernel takes
        # after its pointers (the test sets it).
        self.grids = []
        self.symbol_args = {}
        # The cluster shape each kernel was created with.
        self.clusters = {}
        # The CUDAGraph being captured, and how many replays ran.
        self.capturing = None
        self.replays = 0
        # Every Memory by its storage's `_cdata`.
        self.storages = weakref.WeakValueDictionary()

    def use_count(self, cdata):
        """torch._C._storage_Use_Count: the tensors viewing the storage."""
        return len(self.storages[cdata].tensors)

    def device_work(self, work):
        """Runs `work` (a function) now, or records it into the graph being
        captured."""
        if self.capturing is not None:
            self.capturing.work.append(work)
        else:
            work()

    def allocated(self, memory):
        self.memories[memory.base] = memory
        self.live += memory.nbytes
        self.peak = max(self.peak, self.live)
        self.allocations += 1

    def tensor(self, values, dtype="float32"):
        t = empty_strided((len(values),), (1,), DTYPES[dtype], self)
        t.memory.data[:] = list(values)
        return t

    def host_scalar(self, value, dtype="float64"):
        """A zero-dimensional tensor in host memory."""
        t = Tensor(Memory(self, 1, DTYPES[dtype].itemsize, host=True), 0,
                   (), (), DTYPES[dtype])
        t.memory.data[0] = value
        return t

    def resolve(self, pointer):
        """(Memory, element offset) of a device address."""
        for base, memory in list(self.memories.items()):
            if base <= pointer < base + max(memory.nbytes, 1):
                return memory, (pointer - base) // memory.itemsize
        raise AssertionError("kernel argument %#x addresses no live "
                             "allocation" % pointer)


WORLD = None


def empty_strided(size, stride, dtype, world=None):
    world = world or WORLD
    span = 1 + sum((n - 1) * s for n, s in zip(size, stride)) \
        if all(size) else 0
    return Tensor(Memory(world, span, dtype.itemsize), 0, size, stride,
                  dtype)


def _contiguous(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def reinterpret_tensor(t, size, stride, increment):
    return Tensor(t.memory, t.offset + increment, size, stride, t.dtype)


class Module:
    def __init__(self, image):
        self.image = image


def _driver_launch(function, gx, gy, gz, bx, by, bz, shared, stream,
                   params, extra):
    """cuLaunchKernel: `function` is the Kernel, `params` its values."""
    assert params is function.params and shared == 0 and extra is None
    assert (bx, by, bz) == function.block
    function.run((gx, gy, gz), list(params))
    return 0


class Kernel:
    """Launching calls the test's function of that name with (Memory,
    element offset) per pointer and the size symbols' values as they are
    (the arguments after the kernel's `num_args - symbols` pointers):
    through `launch`, or as the driver's cuLaunchKernel is called (its
    `values` written, then `driver` called with `function` and
    `params`)."""

    def __init__(self, module, name, block, num_args, cluster=(1, 1, 1)):
        self.name = name
        self.block = tuple(block)
        self.cluster = tuple(cluster)
        self.values = [0] * max(num_args, 1)
        self.params = self.values
        self.function = self
        self.num_args = num_args
        if self.cluster == (1, 1, 1):
            self.driver = _driver_launch
        WORLD.clusters[name] = self.cluster

    def launch(self, grid, pointers, stream):
        self.run(grid, list(pointers))

    def relaunch(self, status, grid, stream):
        raise AssertionError("launch failed: %d" % status)

    def run(self, grid, pointers):
        pointers = pointers[:self.num_args]
        WORLD.device_work(lambda: self._execute(grid, pointers))

    def _execute(self, grid, pointers):
        WORLD.launches.append((self.name, list(pointers)))
        WORLD.grids.append((self.name, tuple(grid)))
        symbols = WORLD.symbol_args.get(self.name, 0)
        cut = len(pointers) - symbols
        WORLD.kernels[self.name](*[WORLD.resolve(p) for p in pointers[:cut]],
                                 *pointers[cut:])


def _module(name, **attributes):
    m = types.ModuleType(name)
    m.__dict__.update(attributes)
    return m


class _Device:
    def __init__(self, kind, index=0):
        self.type, self.index = kind, index


class CUDAGraph:
    """The work recorded while captured, and the memory it addresses."""

    def __init__(self):
        self.work, self.pool = [], []

    def replay(self):
        WORLD.replays += 1
        for work in self.work:
            work()


@contextlib.contextmanager
def _capture(graph, pool=None):
    assert WORLD.capturing is None
    WORLD.capturing = graph
    try:
        yield graph
    finally:
        WORLD.capturing = None


class _Null:
    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


NAMES = ("torch", "torch._C", "torch._C._dynamo", "torch._C._dynamo.guards",
         "torch.cuda", "torch._inductor", "torch._inductor.select_algorithm")


def install(externs=None):
    """Installs the fake `torch` (the real one must not be imported) with
    `externs`, name -> function, as `extern_kernels.<name>`."""
    global WORLD
    WORLD = World()
    guards = _module("torch._C._dynamo.guards",
                     _reinterpret_tensor=reinterpret_tensor,
                     _empty_strided_cuda=lambda size, stride, dtype:
                     empty_strided(size, stride, dtype))
    c = _module("torch._C", _cuda_getDevice=lambda: 0,
                _storage_Use_Count=WORLD.use_count,
                _cuda_getCurrentRawStream=lambda index: 7,
                _dynamo=_module("torch._C._dynamo", guards=guards))
    cuda = _module("torch.cuda", current_device=lambda: 0, device=_Null,
                   CUDAGraph=CUDAGraph, graph=_capture,
                   graph_pool_handle=lambda: None, synchronize=lambda: None)
    select = _module("torch._inductor.select_algorithm",
                     extern_kernels=types.SimpleNamespace(**(externs or {})))
    torch = _module("torch", Tensor=Tensor, _C=c, cuda=cuda,
                    device=_Device, zeros=lambda *a, **k: None,
                    empty=lambda size, dtype, device=None: empty_strided(
                        size, _contiguous(size), dtype),
                    _inductor=_module("torch._inductor",
                                      select_algorithm=select),
                    **DTYPES)
    for module in (torch, c, c._dynamo, guards, cuda, torch._inductor,
                   select):
        sys.modules[module.__name__] = module
    for name in [n for n in sys.modules if n.startswith("scheduler_opt.")
                 and n.split(".")[1] in ("runtime", "cuda_driver",
                                         "cudagraphs")]:
        del sys.modules[name]
    fake_driver = _module("scheduler_opt.cuda_driver", Module=Module,
                          Kernel=Kernel)
    sys.modules["scheduler_opt.cuda_driver"] = fake_driver
    import scheduler_opt
    scheduler_opt.cuda_driver = fake_driver
    return WORLD


def uninstall():
    for name in NAMES + ("scheduler_opt.cuda_driver",
                         "scheduler_opt.runtime", "scheduler_opt.cudagraphs"):
        sys.modules.pop(name, None)
    import scheduler_opt
    for attr in ("cuda_driver", "runtime", "cudagraphs"):
        scheduler_opt.__dict__.pop(attr, None)
