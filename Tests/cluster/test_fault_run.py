"""The fault run (fault_run.py), bounded: a minute of faults of every kind
against a writing cluster, checked against the history and the database."""
import random

from fault_run import run


def test_a_minute_of_faults_loses_doubles_and_reorders_nothing_and_every_node_agrees():
    seed = random.randrange(1 << 30)
    report = run(seconds=60, writers_count=6, seed=seed, disk_megabytes=512)
    assert not report["problems"], f"seed {seed}: {report['problems']}"
    assert report["adds acknowledged"] > 100, report
    assert report["faults"] >= 8, report
