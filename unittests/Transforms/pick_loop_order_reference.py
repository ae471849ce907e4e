#!/usr/bin/env python3
"""Prints the reference cases of LoopUtilsTest.PickLoopOrderMatchesInductor.

`pick_loop_order` below is Inductor's (torch/_inductor/scheduler.py, see
../shared/seeds/), with `config.pick_loop_orders` on. The cases are random
stride matrices; half of them make Inductor's comparison non-transitive, so
that only the same sorting algorithm as CPython's `list.sort` reproduces the
result. Run with CPython 3.11 (the version the table was produced with):

    python3 unittests/Transforms/pick_loop_order_reference.py
"""

import functools
import itertools
import random


def cmp(a, b):
    return (a > b) - (a < b)


def index_cmp_for(stride_lengths, sizes):
    def index_cmp(a, b):
        if sizes[a] == 1 or sizes[b] == 1:
            return cmp(sizes[a] == 1, sizes[b] == 1)
        stride_len_a = [abs(sl[a]) for sl in stride_lengths]
        stride_len_b = [abs(sl[b]) for sl in stride_lengths]
        a_first = sum(
            sl_b == 0 or sl_a < sl_b for sl_a, sl_b in zip(stride_len_a, stride_len_b)
        )
        b_first = sum(
            sl_a == 0 or sl_b < sl_a for sl_a, sl_b in zip(stride_len_a, stride_len_b)
        )
        if a_first > b_first:
            return -1
        if b_first > a_first:
            return 1
        return cmp(b, a)

    return index_cmp


def pick_loop_order(stride_lengths, sizes):
    order = list(reversed(range(len(stride_lengths[0]))))
    order.sort(key=functools.cmp_to_key(index_cmp_for(stride_lengths, sizes)))
    return order


def is_nontransitive(strides, sizes):
    c = index_cmp_for(strides, sizes)
    return any(
        c(a, b) < 0 and c(b, d) < 0 and c(a, d) > 0
        for a, b, d in itertools.permutations(range(len(sizes)), 3)
    )


def main():
    random.seed(5)
    cases = []
    for _ in range(400):
        n = random.choice([3, 4, 5])
        k = random.choice([2, 3, 4])
        strides = [[random.choice([0, 1, 2, 4, 8, 16, 32]) for _ in range(n)]
                   for _ in range(k)]
        sizes = [random.choice([1, 4, 8, 16]) if random.random() < 0.2
                 else random.choice([4, 8, 16]) for _ in range(n)]
        cases.append((strides, sizes, pick_loop_order(strides, sizes)))
    nontransitive = [c for c in cases if is_nontransitive(c[0], c[1])]
    regular = [c for c in cases if not is_nontransitive(c[0], c[1])]
    for strides, sizes, order in nontransitive[:16] + regular[:16]:
        rows = ", ".join("{%s}" % ", ".join(map(str, r)) for r in strides)
        print("    {{%s}, {%s}, {%s}}," % (
            rows, ", ".join(map(str, sizes)), ", ".join(map(str, order))))


if __name__ == "__main__":
    main()
