"""The bench/ scripts as modules for the tests that exercise them without
a GPU: bench/ is not a package, so each is loaded from its file, afresh
for every call (a test may patch the module it gets)."""
import importlib.util
import os

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def load_bench_script(name):
    """bench/<name>.py, loaded as a new module named `name`."""
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(ROOT, "bench", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
