"""The autotuner's choice, cache and kernel identity, with an injected
compiler (PTX texts written by hand) and timer (a table): no GPU."""
import os
import tempfile
import unittest

from scheduler_opt import autotune

CANDIDATES = (("rule", {}), ("early", {"early-loads": 1}),
              ("lanes", {"reduction-lanes": 32, "loop-unroll": 4}))


def ptx(kernels):
    """A PTX module with one entry per (name, body) pair."""
    text = ".version 8.0\n.target sm_90\n.address_size 64\n\n"
    for name, body in kernels:
        text += (".visible .entry %s(\n\t.param .u64 %s_param_0\n)\n"
                 ".maxntid 128, 1, 1\n{\n\t%s\n\t{\n\t}\n\tret;\n\n}\n\n"
                 % (name, name, body))
    return text


class FakeCompiler:
    """compile(settings) writes `modules[candidate]` into a directory of
    its own; records which candidates it compiled."""

    def __init__(self, root, modules):
        self.root = root
        self.modules = modules
        self.compiled = []

    def __call__(self, settings):
        name = next(n for n, s in CANDIDATES if s == settings)
        self.compiled.append(name)
        directory = os.path.join(self.root, "%s-%d" % (name,
                                                       len(self.compiled)))
        os.makedirs(directory)
        with open(os.path.join(directory, "graph.ptx"), "w") as f:
            f.write(ptx(self.modules[name]))
        return directory


class TableTimer:
    def __init__(self, table):
        self.table = table
        self.calls = []

    def __call__(self, directory, kernel):
        candidate = os.path.basename(directory).rsplit("-", 1)[0]
        self.calls.append((candidate, kernel))
        return self.table[(candidate, kernel)]


def failing_timer(directory, kernel):
    raise AssertionError("timed %s although the cache holds it" % kernel)


class KernelSourcesTest(unittest.TestCase):
    def test_entries_with_nested_braces(self):
        text = ptx([("kernel_a", "add.s32 %r1, %r2, 1;"),
                    ("kernel_b", "mul.lo.s32 %r1, %r2, 3;")])
        sources = autotune.kernel_sources(text)
        self.assertEqual(sorted(sources), ["kernel_a", "kernel_b"])
        self.assertTrue(sources["kernel_a"].startswith(
            ".visible .entry kernel_a("))
        self.assertTrue(sources["kernel_a"].endswith("ret;\n\n}"))
        self.assertIn("add.s32", sources["kernel_a"])
        self.assertNotIn("kernel_b", sources["kernel_a"])


class ChooseTest(unittest.TestCase):
    order = ["rule", "early", "lanes"]

    def test_rule_kept_within_margin(self):
        # 2% faster: inside the 3% margin.
        self.assertEqual(autotune.choose(
            {"rule": 10.0, "early": 9.8}, self.order), "rule")

    def test_faster_candidate_beyond_margin(self):
        self.assertEqual(autotune.choose(
            {"rule": 10.0, "early": 9.5, "lanes": 9.0}, self.order), "lanes")

    def test_ties_go_to_the_earlier_candidate(self):
        self.assertEqual(autotune.choose(
            {"rule": 10.0, "lanes": 9.0, "early": 9.0}, self.order), "early")

    def test_unmeasurable(self):
        self.assertEqual(autotune.choose({"rule": None, "early": 1.0},
                                         self.order), "rule")
        self.assertEqual(autotune.choose({"rule": 5.0, "early": None},
                                         self.order), "rule")


class TuneTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = self.tmp.name
        # kernel_a: every candidate changes its code; kernel_b: `early`
        # leaves it as the rule has it (not timed again); kernel_c: the
        # rule wins.
        self.modules = {
            "rule": [("kernel_a", "a0"), ("kernel_b", "b0"),
                     ("kernel_c", "c0")],
            "early": [("kernel_a", "a1"), ("kernel_b", "b0"),
                      ("kernel_c", "c1")],
            "lanes": [("kernel_a", "a2"), ("kernel_b", "b2"),
                      ("kernel_c", "c2")],
        }
        self.table = {
            ("rule", "kernel_a"): 14.3, ("early", "kernel_a"): 13.5,
            ("lanes", "kernel_a"): 15.0,
            ("rule", "kernel_b"): 2.0, ("lanes", "kernel_b"): 1.5,
            ("rule", "kernel_c"): 5.0, ("early", "kernel_c"): 5.1,
            ("lanes", "kernel_c"): 6.0,
        }
        self.cache = autotune.TuneCache(os.path.join(root, "cache"))
        self.root = root

    def tearDown(self):
        self.tmp.cleanup()

    def compiler(self, sub):
        os.makedirs(os.path.join(self.root, sub))
        return FakeCompiler(os.path.join(self.root, sub), self.modules)

    def test_choices_and_configs(self):
        timer = TableTimer(self.table)
        compiler = self.compiler("first")
        text, records = autotune.tune(compiler, timer, self.cache, "H100",
                                      CANDIDATES)
        self.assertEqual(text, "kernel_a:early-loads=1;"
                         "kernel_b:loop-unroll=4,reduction-lanes=32")
        self.assertEqual(records["kernel_c"]["choice"], "rule")
        # kernel_b under `early` is the rule's code: timed twice, not 3.
        self.assertEqual(sorted(c for c, k in timer.calls
                                if k == "kernel_b"), ["lanes", "rule"])
        self.assertEqual(compiler.compiled, ["rule", "early", "lanes"])

    def test_cache_makes_the_choice_without_timing(self):
        autotune.tune(self.compiler("first"), TableTimer(self.table),
                      self.cache, "H100", CANDIDATES)
        compiler = self.compiler("second")
        text, _ = autotune.tune(compiler, failing_timer, self.cache, "H100",
                                CANDIDATES)
        self.assertEqual(text, "kernel_a:early-loads=1;"
                         "kernel_b:loop-unroll=4,reduction-lanes=32")
        # Only the rule is compiled, to identify the kernels.
        self.assertEqual(compiler.compiled, ["rule"])

    def test_cache_keyed_by_device_and_code(self):
        autotune.tune(self.compiler("first"), TableTimer(self.table),
                      self.cache, "H100", CANDIDATES)
        timer = TableTimer(self.table)
        autotune.tune(self.compiler("other_device"), timer, self.cache,
                      "H200", CANDIDATES)
        self.assertEqual(len({k for _, k in timer.calls}), 3)
        # A kernel whose code under the rule changed (other shapes) is
        # timed again; the others come from the cache.
        self.modules["rule"][0] = ("kernel_a", "a0 (other shape)")
        timer = TableTimer(self.table)
        autotune.tune(self.compiler("changed"), timer, self.cache, "H100",
                      CANDIDATES)
        self.assertEqual({k for _, k in timer.calls}, {"kernel_a"})

    def test_a_candidate_that_cannot_run_is_skipped(self):
        def timer(directory, kernel):
            if os.path.basename(directory).startswith("early"):
                raise RuntimeError("illegal launch")
            return self.table[(os.path.basename(directory).rsplit(
                "-", 1)[0], kernel)]
        text, records = autotune.tune(self.compiler("failing"), timer,
                                      self.cache, "H100", CANDIDATES)
        self.assertIsNone(records["kernel_a"]["times_us"]["early"])
        self.assertEqual(records["kernel_a"]["choice"], "rule")
        self.assertEqual(text, "kernel_b:loop-unroll=4,reduction-lanes=32")


class ModelTest(unittest.TestCase):
    def test_waves(self):
        # layernorm_gelu's rule: 4096 blocks of 128 threads, 39 registers:
        # 12 blocks an SM on 132 SMs, 2.59 waves (Nsight Compute's figure).
        self.assertAlmostEqual(autotune.occupancy_waves(4096, 128, 39, 32,
                                                        132), 2.59, places=2)
        # softmax: 2048 blocks of 128 threads, 31 registers: 0.97 waves.
        self.assertAlmostEqual(autotune.occupancy_waves(2048, 128, 31, 64,
                                                        132), 0.97, places=2)

    def test_model_prefers_whole_waves(self):
        stats = {"rule": {"grid": 4096, "block": 128, "registers": 39},
                 "early": {"grid": 4096, "block": 128, "registers": 39},
                 "lanes": {"grid": 2048, "block": 128, "registers": 31}}
        self.assertEqual(autotune.model_choice(
            stats, ["rule", "early", "lanes"]), "lanes")
        stats["lanes"]["registers"] = 47
        self.assertEqual(autotune.model_choice(
            stats, ["rule", "early", "lanes"]), "rule")


if __name__ == "__main__":
    unittest.main()
