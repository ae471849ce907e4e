"""The dtype table of the Python side (scheduler_opt/dtypes.py) against the
C++ side's (include/scheduler-opt/Support/Dtypes.def, which the importer and the
kernel code generator read): the same rows in the same order."""
import os
import re
import unittest

from scheduler_opt import dtypes

DEF = os.path.join(os.path.dirname(__file__), "..", "..", "include", "scheduler-opt",
                   "Support", "Dtypes.def")
ROW = re.compile(r"^FUSION_DTYPE\((\w+), (\w+), (\w+), .*\)$")


def cxx_rows():
    with open(DEF) as f:
        return [ROW.match(line).groups() for line in f
                if line.startswith("FUSION_DTYPE(")]


class DtypeTableTest(unittest.TestCase):
    def test_rows_parse(self):
        with open(DEF) as f:
            rows = [line for line in f if line.startswith("FUSION_DTYPE(")]
        self.assertTrue(rows)
        for line in rows:
            self.assertRegex(line.rstrip("\n"), ROW)

    def test_same_rows_as_cxx(self):
        self.assertEqual([tuple(r) for r in dtypes.DTYPES], cxx_rows())

    def test_names_unique(self):
        for column in range(3):
            names = [row[column] for row in dtypes.DTYPES]
            self.assertEqual(len(names), len(set(names)), names)


if __name__ == "__main__":
    unittest.main()
