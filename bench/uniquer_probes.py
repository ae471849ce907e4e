#!/usr/bin/env python3
"""Equality calls per new key in MLIR 22's StorageUniquer, simulated.

    python3 bench/uniquer_probes.py 69144 691922

MLIR's ParametricStorageUniquer (mlir/lib/Support/StorageUniquer.cpp) keeps
the storages of one type in 8 shards, chosen by `hash & 7`; each shard is an
llvm::DenseSet whose probe starts at bucket `hash & (N - 1)` and goes on
quadratically (+1, +2, +3, ...), and which doubles when it would be three
quarters full. Every occupied bucket a probe passes costs a call of the
equality function, which reads that bucket's storage. Within a shard all
keys share their low three bits, so only an eighth of the buckets start a
probe. For each count of new (distinct) keys with random 32-bit hashes,
this prints the equality calls per key as MLIR picks the shard, and as it
would with the shard taken from the top three bits (bench/README.md,
*Thirteenth session: the import's growth is MLIR's uniquer*, compares the
first with callgrind's counts).
"""

import random
import sys


def equality_calls_per_key(n, shard_by_low_bits, seed=1):
    rng = random.Random(seed)
    shards = [{"table": [None] * 64, "entries": 0} for _ in range(8)]
    calls = 0
    for _ in range(n):
        h = rng.getrandbits(32)
        shard = shards[(h & 7) if shard_by_low_bits else (h >> 29)]
        table = shard["table"]
        if 4 * (shard["entries"] + 1) >= 3 * len(table):
            # DenseMap::grow: a table twice as large, the keys placed again.
            old = [k for k in table if k is not None]
            table = [None] * (2 * len(table))
            for k in old:
                b, step = k & (len(table) - 1), 1
                while table[b] is not None:
                    b, step = (b + step) & (len(table) - 1), step + 1
                table[b] = k
            shard["table"] = table
        b, step = h & (len(table) - 1), 1
        while table[b] is not None:
            calls += 1
            b, step = (b + step) & (len(table) - 1), step + 1
        table[b] = h
        shard["entries"] += 1
    return calls / n


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [69144, 691922]
    print("| new keys | shard = hash & 7 (MLIR 22) | shard = hash >> 29 |")
    print("|---:|---:|---:|")
    for n in sizes:
        print(f"| {n:,} | {equality_calls_per_key(n, True):.2f} "
              f"| {equality_calls_per_key(n, False):.2f} |")


if __name__ == "__main__":
    main()
