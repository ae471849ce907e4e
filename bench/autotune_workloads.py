"""The compile-time autotuner and the wave-count cost model on the micro
workloads, on a GPU machine, through the static scheduler-opt
(SCHEDULER_OPT_BIN): for each workload's graph, `autotune.tune` compiles
the candidates, times every kernel each changes (GpuTimer) and lowers
the graph with the choices (kernel-configs) into BUNDLE/tuned/; the cost
model picks per kernel from the same candidates (registers from ptxas)
into BUNDLE/model/; a second tune from the cache must time nothing and
give the same choices. Copies tuned_again/ and model_again/ let
run_workloads time every variant twice in one run. Report: OUT/autotune.json.

    python3 bench/autotune_workloads.py --sources DIR --bundle B --out OUT
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", required=True,
                        help="folder of <workload>.mlir (unfused graphs)")
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--out", default=os.environ.get("OUT", "."))
    parser.add_argument("--workloads", default="add_sum,softmax,"
                        "layernorm_gelu,rmsnorm_silu,cross_entropy")
    args = parser.parse_args(argv)

    import torch
    from scheduler_opt import autotune, manifest as manifest_lib, tools
    pipeline = tools.Pipeline.find()
    ptxas = pipeline.toolkit.get("ptxas")
    device = torch.cuda.get_device_name()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    work = tempfile.mkdtemp(prefix="tune-")
    cache = autotune.TuneCache(os.path.join(work, "cache"))
    report = {"device": device, "candidates": autotune.CANDIDATES,
              "margin": autotune.MARGIN, "workloads": {}}
    order = [n for n, _ in autotune.CANDIDATES]
    for workload in args.workloads.split(","):
        src = os.path.join(args.sources, workload + ".mlir")
        dirs = {}

        def compile(settings):
            key = tuple(sorted(settings.items()))
            if key not in dirs:
                d = os.path.join(work, "%s_%d" % (workload, len(dirs)))
                pipeline.lower(src, d, " ".join("%s=%d" % kv for kv in key))
                dirs[key] = d
            return dirs[key]
        t0 = time.perf_counter()
        text, records = autotune.tune(compile, autotune.GpuTimer(), cache,
                                      device)
        tune_s = time.perf_counter() - t0

        def never(directory, kernel):
            raise AssertionError("timed %s with a warm cache" % kernel)
        again, _ = autotune.tune(compile, never, cache, device)
        # The cost model over the same candidates.
        stats = {}
        for name, settings in autotune.CANDIDATES:
            d = compile(dict(settings))
            m = manifest_lib.load(os.path.join(d, workload + ".json"))
            regs = autotune.ptxas_registers(ptxas, os.path.join(
                d, workload + ".ptx")) if ptxas else {}
            for step in m.kernels():
                stats.setdefault(step.name, {})[name] = {
                    "grid": int(step.grid[0]), "block": step.block[0],
                    "registers": regs.get(step.name, 32),
                    "shared_bytes": step.shared_bytes}
        model = {k: autotune.model_choice(s, order, sms)
                 for k, s in stats.items()}
        model_text = autotune.configs_text(model)
        for variant, configs in (("tuned", text), ("model", model_text)):
            out = os.path.join(args.bundle, variant)
            pipeline.lower(src, out, "kernel-configs=" + configs
                           if configs else "")
        for k, s in stats.items():
            for name, st in s.items():
                st["waves"] = autotune.occupancy_waves(
                    st["grid"], st["block"], st["registers"],
                    st["shared_bytes"], sms)
        report["workloads"][workload] = {
            "kernel_configs": text, "model_configs": model_text,
            "cache_again_same": again == text, "tune_s": tune_s,
            "kernels": {k: {"times_us": records[k]["times_us"],
                            "choice": records[k]["choice"],
                            "model_choice": model[k],
                            "candidates": stats[k]} for k in records}}
        print(workload, "tuned:", text or "(rule)", "model:",
              model_text or "(rule)", "times:",
              {k: r["times_us"] for k, r in records.items()},
              "%.1f s" % tune_s, flush=True)
    for variant in ("tuned", "model"):
        src = os.path.join(args.bundle, variant)
        dst = os.path.join(args.bundle, variant + "_again")
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst)
    with open(os.path.join(args.out, "autotune.json"), "w") as f:
        json.dump(report, f, indent=1, default=list)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
