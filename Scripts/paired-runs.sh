#!/usr/bin/env bash
# Times two commands in turn (A B A B ...), with a pause before each run, and prints the medians
# of wall and CPU time and of the ratios A/B taken pair by pair (Docs/performance.md, "Fresh memory
# on a VM that reports free pages"). The pause matters on a VM that hands free memory back to the
# hypervisor: without it, a run reuses the previous run's memory while it is still backed, which
# a user's command after a pause does not. Not part of the package; needs GNU time and python3.
#   Scripts/paired-runs.sh RUNS PAUSE_SECONDS 'COMMAND A' 'COMMAND B'
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: $0 RUNS PAUSE_SECONDS 'COMMAND A' 'COMMAND B'" >&2
  exit 64
fi
runs=$1 pause=$2 a=$3 b=$4
times=$(mktemp)
trap 'rm -f "$times"' EXIT
for _ in $(seq "$runs"); do
  sleep "$pause"; /usr/bin/time -o "$times" -a -f "A %e %U %S %M" bash -c "$a" >/dev/null
  sleep "$pause"; /usr/bin/time -o "$times" -a -f "B %e %U %S %M" bash -c "$b" >/dev/null
done
python3 - "$times" <<'EOF'
import statistics, sys
runs = {"A": [], "B": []}
for line in open(sys.argv[1]):
    name, wall, user, system, rss = line.split()
    runs[name].append((float(wall), float(user) + float(system), int(rss)))
for name in "AB":
    walls = [r[0] for r in runs[name]]
    cpus = [r[1] for r in runs[name]]
    print(f"{name}: wall median {statistics.median(walls):.3f} s (min {min(walls):.3f}), "
          f"CPU median {statistics.median(cpus):.3f} s, peak RSS {max(r[2] for r in runs[name]) // 1024} MB")
pairs = list(zip(runs["A"], runs["B"]))
print(f"A/B pair by pair: wall median {statistics.median(x[0] / max(y[0], 0.01) for x, y in pairs):.3f}, "
      f"CPU median {statistics.median(x[1] / max(y[1], 0.01) for x, y in pairs):.3f} ({len(pairs)} pairs)")
EOF
