"""Checks of the launch-manifest reader (no GPU needed)."""
import copy
import dataclasses
import json
import os
import tempfile
import unittest

from scheduler_opt import manifest, sizes

# The manifest convert-fusion-to-gpu writes for a softmax-like graph whose
# output 1 is its input returned as is.
BASE = {
    "version": manifest.VERSION, "graph": "g", "module": "g_kernels", "binary": "g.ptx", "format": "ptx",
    "target": "#nvvm.target<chip = \"sm_90\">",
    "storages": [
        {"name": "x", "role": "input", "dtype": "f32", "elements": 32},
        {"name": "buf2", "role": "output", "dtype": "f32", "elements": 32},
        {"name": "output1", "role": "output", "dtype": "f32", "elements": 32},
        {"name": "buf0", "role": "temp", "dtype": "f32", "elements": 4},
    ],
    "inputs": [{"name": "x", "storage": "x", "dtype": "f32", "shape": [4, 8],
                "strides": [8, 1], "offset": 0}],
    "outputs": [
        {"name": "buf2", "storage": "buf2", "dtype": "f32", "shape": [8, 4],
         "strides": [1, 8], "offset": 0},
        {"name": "x", "storage": "output1", "dtype": "f32", "shape": [4, 8],
         "strides": [8, 1], "offset": 0}],
    "steps": [
        {"kind": "kernel", "name": "kernel_op0", "node": "op0",
         "grid": [4, 1, 1], "block": [32, 1, 1], "shared_bytes": 0,
         "args": ["x", "buf0"]},
        {"kind": "kernel", "name": "kernel_op1", "node": "op1",
         "grid": [1, 1, 1], "block": [256, 1, 1], "shared_bytes": 0,
         "args": ["x", "buf0", "buf2"]},
        {"kind": "copy", "src": "x", "dst": "output1", "elements": 32},
    ],
}


# An extern step as convert-fusion-to-gpu writes it (see
# test/Conversion/FusionToGPU/extern-tuple.mlir): a kernel returning a
# tuple whose elements 0 and 1 land in buf5 and buf2.
EXTERN = {
    "kind": "extern", "name": "aten.attention", "node": "op5",
    "args": ["x", "buf0", "buf5", "buf2"],
    "inputs": ["x", "buf0"],
    "outputs": [{"buffer": "buf5", "storage": "buf5", "index": 0},
                {"buffer": "buf2", "storage": "buf2", "index": 1}],
    "buffers": {"x": "x", "buf0": "buf0", "buf5": "buf5", "buf2": "buf2"},
    "call": {"kernel": "aten.attention", "args": [], "kwargs": {
        "scale": 0.125}},
}


def broken(mutate):
    data = copy.deepcopy(BASE)
    mutate(data)
    return data


class ManifestTest(unittest.TestCase):
    def test_parse(self):
        m = manifest.parse(BASE, "/bundle")
        self.assertEqual(m.graph, "g")
        self.assertEqual([k.name for k in m.kernels()],
                         ["kernel_op0", "kernel_op1"])
        self.assertEqual(m.kernels()[1].block, (256, 1, 1))
        self.assertEqual(m.storage("buf0").role, "temp")
        self.assertEqual(m.binary_path(), os.path.join("/bundle", "g.ptx"))
        self.assertEqual(m.outputs[0].strides, (1, 8))

    def test_cluster(self):
        """A kernel's thread block cluster: (1, 1, 1) when the manifest
        names none; a cluster of at most 8 blocks that divides the grid."""
        self.assertEqual(manifest.parse(BASE).kernels()[0].cluster, (1, 1, 1))
        m = manifest.parse(broken(
            lambda d: d["steps"][0].update(cluster=[2, 1, 1])))
        self.assertEqual(m.kernels()[0].cluster, (2, 1, 1))
        self.assertEqual(m.kernels()[1].cluster, (1, 1, 1))
        cases = {
            "bad cluster": [0, 1, 1],
            "at most 8 blocks": [16, 1, 1],
            "at most 8": [4, 2, 2],
            "no multiple of its cluster": [8, 1, 1],
        }
        for message, cluster in cases.items():
            with self.subTest(message):
                with self.assertRaisesRegex(manifest.ManifestError, message):
                    manifest.parse(broken(
                        lambda d: d["steps"][0].update(cluster=cluster)))
        with self.assertRaisesRegex(manifest.ManifestError,
                                    r"steps\[0\].cluster\[0\]: expected an "
                                    "integer"):
            manifest.parse(broken(
                lambda d: d["steps"][0].update(cluster=["2", 1, 1])))

    def test_storage_span(self):
        t = manifest.Tensor("t", "s", "f32", (3, 2), (1, 4), 5)
        # offset 5, last element at 5 + 2 * 1 + 1 * 4 = 11
        self.assertEqual(t.storage_span(), 12)
        self.assertEqual(manifest.Tensor("t", "s", "f32", (), (), 0)
                         .storage_span(), 1)
        self.assertEqual(manifest.Tensor("t", "s", "f32", (0, 4), (4, 1), 0)
                         .storage_span(), 0)

    def test_input_aliases_and_min_bytes(self):
        m = manifest.parse(BASE)
        self.assertEqual(m.input_aliases(), {"output1": "x"})
        # x read once (128 bytes), buf2 written once; the returned input is
        # not moved.
        self.assertEqual(m.min_bytes(), 2 * 32 * 4)

    def test_dtype_sizes(self):
        sizes = {d: manifest.dtype_size(d) for d in manifest.DTYPES}
        self.assertEqual(sizes, {"f16": 2, "bf16": 2, "f32": 4, "f64": 8,
                                 "i1": 1, "i8": 1, "i16": 2, "i32": 4,
                                 "i64": 8, "u8": 1, "u16": 2, "u32": 4,
                                 "u64": 8, "f8e4m3fn": 1, "f8e5m2": 1,
                                 "f8e4m3fnuz": 1, "f8e5m2fnuz": 1,
                                 "f8e8m0fnu": 1, "c32": 4, "c64": 8,
                                 "c128": 16, "f4e2m1fnx2": 1, "bits1x8": 1,
                                 "bits2x4": 1, "bits4x2": 1, "bits8": 1,
                                 "bits16": 2})

    def test_errors(self):
        cases = {
            "unknown storage": lambda d: d["steps"][0]["args"].append("nope"),
            "bad grid": lambda d: d["steps"][0].update(grid=[0, 1, 1]),
            "threads per block": lambda d: d["steps"][0].update(
                block=[64, 32, 1]),
            "overruns": lambda d: d["steps"][2].update(elements=33),
            "reaches element": lambda d: d["inputs"][0].update(shape=[5, 8]),
            "unknown role": lambda d: d["storages"][3].update(role="scratch"),
            "unknown dtype": lambda d: d["storages"][3].update(dtype="q8"),
            "unknown step kind": lambda d: d["steps"][0].update(kind="launch"),
            "twice": lambda d: d["storages"].append(dict(d["storages"][0])),
            "lives in a temp storage": lambda d: d["outputs"][0].update(
                storage="buf0", shape=[4], strides=[1]),
        }
        for message, mutate in cases.items():
            with self.subTest(message):
                with self.assertRaisesRegex(manifest.ManifestError, message):
                    manifest.parse(broken(mutate))

    def test_schema_errors(self):
        """Keys and types that do not follow manifest_schema.json."""
        cases = {
            r"manifest.steps\[0\]: unknown key 'smem_bytes'":
                lambda d: d["steps"][0].update(smem_bytes=0),
            r"manifest.storages\[1\]: missing key 'elements'":
                lambda d: d["storages"][1].pop("elements"),
            r"manifest.steps\[1\].block\[0\]: expected an integer":
                lambda d: d["steps"][1].update(block=["256", 1, 1]),
            r"manifest.inputs\[0\].shape\[1\]: expected a size":
                lambda d: d["inputs"][0].update(shape=[4, None]),
            r"manifest: missing key 'version'": lambda d: d.pop("version"),
            r"manifest of version 99; this reader reads version":
                lambda d: d.update(version=99),
        }
        for message, mutate in cases.items():
            with self.subTest(message):
                with self.assertRaisesRegex(manifest.ManifestError, message):
                    manifest.parse(broken(mutate))

    def test_reader_follows_schema(self):
        """Each record of the schema is a class of the reader with a field
        per key, so that a key added to one and not the other fails here."""
        records = manifest.SCHEMA["records"]

        def fields(cls, *leave_out):
            return {f.name for f in dataclasses.fields(cls)} - set(leave_out)

        self.assertEqual(fields(manifest.Storage), set(records["storage"]))
        self.assertEqual(fields(manifest.Tensor), set(records["tensor"]))
        self.assertEqual(fields(manifest.ExternOutput),
                         set(records["extern_output"]))
        steps = {k: set(v) for k, v in records.items()
                 if k.startswith("step:")}
        self.assertEqual(fields(manifest.Step), set().union(*steps.values()))
        self.assertEqual(set(manifest.STEP_KINDS),
                         {k.split(":")[1] for k in steps})
        # The manifest's `directory` is where it was read from; `version` is
        # checked; `cubin` and `target` are for people (the backend finds
        # the cubin by its file name).
        self.assertEqual(fields(manifest.Manifest, "directory") |
                         {"version", "cubin", "target"},
                         set(records["manifest"]))

    def test_extern_step(self):
        data = copy.deepcopy(BASE)
        data["storages"].append({"name": "buf5", "role": "temp",
                                 "dtype": "f32", "elements": 8})
        data["steps"].insert(0, EXTERN)
        m = manifest.parse(data)
        ext = m.externs()[0]
        self.assertEqual(ext.node, "op5")
        self.assertEqual(ext.inputs, ("x", "buf0"))
        self.assertEqual(ext.outputs, (
            manifest.ExternOutput("buf5", "buf5", 0),
            manifest.ExternOutput("buf2", "buf2", 1)))
        self.assertEqual(ext.buffer_storages()["buf0"], "buf0")
        self.assertEqual(ext.call["kwargs"], {"scale": 0.125})
        bad = copy.deepcopy(data)
        bad["steps"][0]["outputs"][0]["storage"] = "nope"
        with self.assertRaisesRegex(manifest.ManifestError,
                                    "writes unknown storage 'nope'"):
            manifest.parse(bad)
        bad = copy.deepcopy(data)
        bad["steps"][0]["buffers"]["buf0"] = "nope"
        with self.assertRaisesRegex(manifest.ManifestError,
                                    "maps 'buf0' to unknown storage"):
            manifest.parse(bad)

    def test_buffer_map(self):
        data = copy.deepcopy(BASE)
        data["buffers"] = {"x": "x", "buf2": "buf2", "buf1": "buf0"}
        m = manifest.parse(data)
        self.assertEqual(m.buffer_storages()["buf1"], "buf0")
        data["buffers"]["buf9"] = "nope"
        with self.assertRaisesRegex(manifest.ManifestError,
                                    "'buf9' lives in unknown storage"):
            manifest.parse(data)

    def test_symbolic_sizes(self):
        data = copy.deepcopy(BASE)
        data["storages"][0]["elements"] = "s0*8"
        data["inputs"][0]["shape"] = ["s0", 8]
        data["steps"][0]["grid"] = ["(s0*8 + 255) // 256", 1, 1]
        data["steps"][0]["symbols"] = ["s0"]
        m = manifest.parse(data)
        self.assertEqual(m.storage("x").elements, sizes.Expr("s0*8"))
        self.assertEqual(m.inputs[0].storage_span({"s0": 4}), 32)
        self.assertEqual(m.kernels()[0].grid[0].evaluate({"s0": 32}), 1)
        self.assertEqual(m.kernels()[0].grid[0].evaluate({"s0": 33}), 2)
        self.assertEqual(m.kernels()[0].symbols, ("s0",))
        self.assertEqual(m.kernels()[1].symbols, ())
        self.assertEqual(m.min_bytes({"s0": 4}), 2 * 32 * 4)
        # A kernel's grid may only use the symbols it takes.
        del data["steps"][0]["symbols"]
        with self.assertRaisesRegex(manifest.ManifestError,
                                    "grid uses size symbols s0"):
            manifest.parse(data)
        data["steps"][0]["symbols"] = ["s0", "s 1"]
        with self.assertRaisesRegex(manifest.ManifestError,
                                    "bad size symbols"):
            manifest.parse(data)
        data["steps"][0]["symbols"] = ["s0"]
        data["inputs"][0]["shape"] = ["s0 +", 8]
        with self.assertRaisesRegex(manifest.ManifestError,
                                    "bad size expression"):
            manifest.parse(data)

    def test_load_directory(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "g.json"), "w") as f:
                json.dump(BASE, f)
            loaded = manifest.load_directory(d)
            self.assertEqual(list(loaded), ["g"])
            self.assertEqual(loaded["g"].directory, d)


if __name__ == "__main__":
    unittest.main()
