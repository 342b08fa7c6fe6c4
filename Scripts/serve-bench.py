#!/usr/bin/env python3
"""Requests per second of `storeledger serve` for GET /v1/subjects/{id}, against one CLI `query`
process per question on the same log (Docs/serve.md). Bounded: a fixed duration per run.

  swift build -c release --product storeledger
  python3 Scripts/serve-bench.py "$(swift build -c release --show-bin-path)/storeledger" Events/*.jsonl

Each client process keeps one HTTP/1.1 connection alive and asks for random subjects of the log
at random times; the script prints requests/s and latency percentiles per log and client count.
Only the standard library: the client costs CPU too, so on a small machine the server's real
capacity is higher than measured.
"""

import argparse
import http.client
import json
import multiprocessing
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def subjects_of(log):
    found = {}
    with open(log, encoding="utf-8") as lines:
        for line in lines:
            subject = json.loads(line).get("subject")
            if subject:
                found[subject] = True
    return list(found)


def client(port, subjects, seconds, seed, results):
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port)
    latencies = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        subject = rng.choice(subjects)
        day = rng.randint(1, 28)
        started = time.monotonic()
        connection.request("GET", f"/v1/subjects/{subject}?at=2026-03-{day:02d}")
        response = connection.getresponse()
        body = response.read()
        latencies.append(time.monotonic() - started)
        if response.status != 200 or not body.endswith(b"\n"):
            raise SystemExit(f"unexpected answer {response.status}: {body[:200]!r}")
    connection.close()
    results.put(latencies)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def serve_run(binary, log, catalog, subjects, clients, seconds):
    port = free_port()
    server = subprocess.Popen(
        [binary, "serve", log, "--catalog", catalog, "--listen", f"127.0.0.1:{port}", "--log-subjects", "none"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(1200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    break
            except OSError:
                time.sleep(0.05)
        results = multiprocessing.Queue()
        workers = [
            multiprocessing.Process(target=client, args=(port, subjects, seconds, seed, results))
            for seed in range(clients)
        ]
        for worker in workers:
            worker.start()
        latencies = []
        for _ in workers:
            latencies += results.get(timeout=seconds + 30)
        for worker in workers:
            worker.join()
        return latencies
    finally:
        server.terminate()
        server.wait(timeout=15)


def cli_rate(binary, log, catalog, subjects, count):
    started = time.monotonic()
    for index in range(count):
        subprocess.run(
            [binary, "query", log, "--catalog", catalog, "--subject", subjects[index % len(subjects)], "--at", "2026-03-05"],
            stdout=subprocess.DEVNULL, check=True)
    return count / (time.monotonic() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("logs", nargs="+")
    parser.add_argument("--clients", default="1,4", help="client process counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each run")
    parser.add_argument("--cli-runs", type=int, default=30, help="CLI query processes per log")
    parser.add_argument("--in-place", action="store_true", help="use the logs where they are (with their index), not copies")
    options = parser.parse_args()
    print(f"{'log':36} {'clients':>7} {'requests':>9} {'req/s':>9} {'p50 ms':>7} {'p99 ms':>7} {'CLI q/s':>8} {'ratio':>6}")
    for source in options.logs:
        if source.endswith((".answers.jsonl", ".queries.jsonl")):
            continue
        with tempfile.TemporaryDirectory() as directory:
            log = source if options.in_place else os.path.join(directory, os.path.basename(source))
            if not options.in_place:
                shutil.copy(source, log)
            catalog = os.path.join(os.path.dirname(source), "catalog.json")
            subjects = subjects_of(log)
            if not subjects:
                continue
            cli = cli_rate(options.binary, log, catalog, subjects, options.cli_runs)
            for clients in [int(text) for text in options.clients.split(",")]:
                latencies = serve_run(options.binary, log, catalog, subjects, clients, options.seconds)
                rate = len(latencies) / options.seconds
                print(
                    f"{source:36} {clients:>7} {len(latencies):>9} {rate:>9.0f} {percentile(latencies, 0.5) * 1000:>7.2f}"
                    f" {percentile(latencies, 0.99) * 1000:>7.2f} {cli:>8.1f} {rate / cli:>6.0f}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
