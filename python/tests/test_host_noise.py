"""bench/host_noise.py's reading of /proc/stat: how many of the host's
CPUs were busy while our bench ran."""
import pytest

from .bench_scripts import load_bench_script


STAT = """cpu  {user} 0 {system} {idle} {iowait} 0 0 0 0 0
cpu0 1 2 3 4 5 6 7 8 9 10
intr 1 2 3
"""


def test_busy_cpus_counts_all_but_idle_and_iowait():
    noise = load_bench_script("host_noise")
    before = noise.read_cpu_jiffies(STAT.format(user=100, system=50,
                                                idle=1000, iowait=10))
    # 0.5 s later at 100 jiffies a second: 100 jiffies of work (one CPU
    # busy for 0.5 s twice over), 700 idle, 0 iowait.
    after = noise.read_cpu_jiffies(STAT.format(user=180, system=70,
                                               idle=1700, iowait=10))
    assert before == (1160, 1010)
    assert noise.busy_cpus(before, after, 0.5, hz=100) == pytest.approx(2.0)


def test_missing_cpu_line_is_an_error():
    with pytest.raises(ValueError):
        load_bench_script("host_noise").read_cpu_jiffies("intr 1 2 3\n")
