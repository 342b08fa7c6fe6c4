#!/usr/bin/env python3
"""Run storeledger shard by shard under PySpark (local mode) and check the shards against one run.

Each Spark partition is one shard of subjects, chosen by the documented hash
(FNV-1a 64 of the subject's UTF-8 bytes, modulo the shard count; Docs/scale-out.md), kept in
log order, and piped through `storeledger replay -` and `storeledger report - --format partial`
(RDD.pipe). The driver sums the replays' counts, merges the partial reports with
`storeledger report --merge`, and compares both with an unsharded run of the same log.

Usage: spark_shards.py LOG [--catalog FILE] [--shards N] [--storeledger PATH]
Exit 0 when the sharded results equal the unsharded ones, 1 otherwise.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def fnv1a64(data: bytes) -> int:
    """FNV-1a, 64 bits: the shard hash of Docs/scale-out.md."""
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def shard_of(subject: str, shards: int) -> int:
    """The shard of a subject: the hash of its UTF-8 bytes as decoded from JSON, modulo n."""
    return fnv1a64(subject.encode("utf-8")) % shards


def replay_counts(lines):
    """The 'name: N' counts of a replay summary (events, duplicates, subjects, entitlements)."""
    counts = {}
    for line in lines:
        name, _, value = line.partition(":")
        value = value.strip()
        if value.isdigit():
            counts[name.strip()] = counts.get(name.strip(), 0) + int(value)
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--catalog")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--storeledger", default=os.path.join(os.path.dirname(__file__), "../../.build/release/storeledger"))
    parser.add_argument("--at", default="2025-01-01T00:00:00Z", help="replay --at: one instant for every shard")
    parser.add_argument("--report", default="--from 2024-01-01 --to 2025-01-01", help="report window options")
    args = parser.parse_args()
    log = os.path.abspath(args.log)
    catalog = os.path.abspath(args.catalog or os.path.join(os.path.dirname(log), "catalog.json"))
    binary = os.path.abspath(args.storeledger)
    n = args.shards

    from pyspark import SparkConf, SparkContext  # imported here so --help works without Spark

    conf = (
        SparkConf().setMaster("local[2]").setAppName("storeledger-shards")
        .set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
    )
    sc = SparkContext(conf=conf)
    sc.setLogLevel("ERROR")
    started = time.monotonic()
    try:
        # (shard, line number) keys: partition by shard, sort by line number so each shard keeps log order.
        keyed = (
            sc.textFile(log)
            .zipWithIndex()
            .filter(lambda pair: pair[0].strip() != "")
            .map(lambda pair: ((shard_of(json.loads(pair[0])["subject"], n), pair[1]), pair[0]))
            .repartitionAndSortWithinPartitions(n, partitionFunc=lambda key: key[0], keyfunc=lambda key: key)
            .map(lambda pair: pair[1])
            .cache()
        )
        replay = f"{binary} replay - --catalog {catalog} --at {args.at}"
        report = f"{binary} report - --catalog {catalog} {args.report} --format partial"
        replays = keyed.pipe(replay).glom().collect()
        partials = keyed.pipe(report).glom().collect()
    finally:
        sc.stop()
    sharded_seconds = time.monotonic() - started

    # The same shard function in the driver: every partition i must hold only shard i.
    summed = {}
    for output in replays:
        for name, value in replay_counts(output).items():
            summed[name] = summed.get(name, 0) + value
    whole = subprocess.run([binary, "replay", log, "--catalog", catalog, "--at", args.at],
                           check=True, capture_output=True, text=True).stdout.splitlines()
    expected = replay_counts(whole)

    with tempfile.TemporaryDirectory() as directory:
        paths = []
        for index, output in enumerate(partials):
            path = os.path.join(directory, f"partial-{index:02d}.json")
            with open(path, "w") as file:
                file.write("\n".join(output) + "\n")
            paths.append(path)
        merged = subprocess.run([binary, "report", "--merge", *paths], check=True, capture_output=True, text=True).stdout
    unsharded = subprocess.run([binary, "report", log, "--catalog", catalog, *args.report.split()],
                               check=True, capture_output=True, text=True).stdout

    print(f"shards: {n}, Spark local[2], {sharded_seconds:.1f} s for both piped passes (after Spark start-up)")
    for name in sorted(expected):
        mark = "ok" if summed.get(name) == expected[name] else "DIFFERENT"
        print(f"  {name}: shards {summed.get(name)} / whole log {expected[name]}  {mark}")
    same_report = merged == unsharded
    print(f"  report --merge of {n} partials == unsharded report: {same_report} ({len(unsharded)} bytes)")
    return 0 if summed == expected and same_report else 1


if __name__ == "__main__":
    sys.exit(main())
