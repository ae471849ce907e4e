"""Checks of the launch-manifest reader (no GPU needed). Run with
`python3 -m unittest discover -s python/tests -t python` or pytest."""
import copy
import json
import os
import tempfile
import unittest

from fusion_gpu import manifest

# The manifest convert-fusion-to-gpu writes for a softmax-like graph whose
# output 1 is its input returned as is.
BASE = {
    "graph": "g", "module": "g_kernels", "binary": "g.ptx", "format": "ptx",
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
                                 "i64": 8})

    def test_errors(self):
        cases = {
            "unknown storage": lambda d: d["steps"][0]["args"].append("nope"),
            "bad grid": lambda d: d["steps"][0].update(grid=[0, 1, 1]),
            "threads per block": lambda d: d["steps"][0].update(
                block=[64, 32, 1]),
            "overruns": lambda d: d["steps"][2].update(elements=33),
            "reaches element": lambda d: d["inputs"][0].update(shape=[5, 8]),
            "unknown role": lambda d: d["storages"][3].update(role="scratch"),
            "unknown dtype": lambda d: d["storages"][3].update(dtype="u8"),
            "unknown step kind": lambda d: d["steps"][0].update(kind="launch"),
            "twice": lambda d: d["storages"].append(dict(d["storages"][0])),
            "lives in a temp storage": lambda d: d["outputs"][0].update(
                storage="buf0", shape=[4], strides=[1]),
        }
        for message, mutate in cases.items():
            with self.subTest(message):
                with self.assertRaisesRegex(manifest.ManifestError, message):
                    manifest.parse(broken(mutate))

    def test_load_directory(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "g.json"), "w") as f:
                json.dump(BASE, f)
            loaded = manifest.load_directory(d)
            self.assertEqual(list(loaded), ["g"])
            self.assertEqual(loaded["g"].directory, d)


if __name__ == "__main__":
    unittest.main()
