"""The dtypes scheduler-opt handles, in one table: the code Inductor's FX
dumps annotate a tensor with (`"f32[4, 8]"`, `"b8[16]"`), the torch dtype's
name, and the short name the launch manifest and the signature use
(the MLIR element type: `f32`, `i1`).

Every Python table of dtypes (dump.py, runtime.py, fx_graph.py, the bench
scripts) derives from `DTYPES`. The C++ side's table,
include/scheduler-opt/Support/Dtypes.def (read by the importer and the kernel code
generator), has the same rows in the same order: tests/test_dtypes.py
checks that.
"""

# (FX annotation code, torch dtype name, manifest name)
DTYPES = (
    ("f16", "float16", "f16"),
    ("bf16", "bfloat16", "bf16"),
    ("f32", "float32", "f32"),
    ("f64", "float64", "f64"),
    ("b8", "bool", "i1"),
    ("i8", "int8", "i8"),
    ("i16", "int16", "i16"),
    ("i32", "int32", "i32"),
    ("i64", "int64", "i64"),
    ("u8", "uint8", "u8"),
    ("u16", "uint16", "u16"),
    ("u32", "uint32", "u32"),
    ("u64", "uint64", "u64"),
    ("f8e4m3fn", "float8_e4m3fn", "f8e4m3fn"),
    ("f8e5m2", "float8_e5m2", "f8e5m2"),
    ("f8e4m3fnuz", "float8_e4m3fnuz", "f8e4m3fnuz"),
    ("f8e5m2fnuz", "float8_e5m2fnuz", "f8e5m2fnuz"),
    ("f8e8m0fnu", "float8_e8m0fnu", "f8e8m0fnu"),
    ("c32", "complex32", "c32"),
    ("c64", "complex64", "c64"),
    ("c128", "complex128", "c128"),
    ("f4e2m1fnx2", "float4_e2m1fn_x2", "f4e2m1fnx2"),
    ("b1x8", "bits1x8", "bits1x8"),
    ("bits2x4", "bits2x4", "bits2x4"),
    ("bits4x2", "bits4x2", "bits4x2"),
    ("bits8", "bits8", "bits8"),
    ("b16", "bits16", "bits16"),
)

TORCH_NAME_BY_FX_CODE = {fx: torch for fx, torch, _ in DTYPES}
MANIFEST_NAME_BY_TORCH_NAME = {torch: name for _, torch, name in DTYPES}
TORCH_NAME_BY_MANIFEST_NAME = {name: torch for _, torch, name in DTYPES}
