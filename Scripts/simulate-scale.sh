#!/usr/bin/env bash
# Scale-out simulation (Docs/performance.md, "100M events in 16 shards"):
# generate a log of about EVENTS events (streamed to disk), split it into SHARDS files by
# subject, replay every shard (and snapshot it with --snapshot), and print a table of wall time,
# CPU time and peak RSS per step, with the projected time on 1..SHARDS machines.
#
# Usage: Scripts/simulate-scale.sh EVENTS [--shards N] [--dir DIR] [--snapshot] [--keep] [--seed S]
#   EVENTS     distinct events to generate (e.g. 1000000, 100000000)
#   --shards   number of shards (default 16)
#   --dir      work directory (default: a new directory under ${TMPDIR:-/tmp}); must have room
#              for about 2 x 200 bytes per event
#   --snapshot also write a snapshot of every shard (and check it restores with its shard)
#   --keep     keep the generated data (default: deleted at the end)
# Needs a release build: swift build -c release (the script uses .build/release/storeledger)
# and GNU time at /usr/bin/time (for peak RSS).
set -euo pipefail

events=${1:?usage: Scripts/simulate-scale.sh EVENTS [--shards N] [--dir DIR] [--snapshot] [--keep] [--seed S]}
shift
shards=16
dir=""
snapshot=0
keep=0
seed=1
while [ $# -gt 0 ]; do
  case "$1" in
    --shards) shards=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    --snapshot) snapshot=1; shift ;;
    --keep) keep=1; shift ;;
    --seed) seed=$2; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 64 ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.build/release/storeledger"
[ -x "$bin" ] || { echo "no release build: run 'swift build -c release' first" >&2; exit 66; }
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time (peak RSS)" >&2; exit 66; }
if [ -z "$dir" ]; then dir=$(mktemp -d "${TMPDIR:-/tmp}/storeledger-scale.XXXXXX"); else mkdir -p "$dir"; fi
cleanup() { if [ "$keep" = 0 ]; then rm -rf "$dir/log.jsonl" "$dir/catalog.json" "$dir/shards" "$dir/probe"; fi; }
trap cleanup EXIT

# Run a command under GNU time; append "label wall_s cpu_s rss_kb" to $dir/measures.
measure() {
  local label=$1; shift
  /usr/bin/time -v -o "$dir/time.txt" "$@" > "$dir/out.txt" 2> "$dir/err.txt" || {
    echo "failed: $*" >&2; cat "$dir/err.txt" >&2; exit 70; }
  awk -v label="$label" '
    /Elapsed \(wall clock\)/ { n = split($NF, p, ":"); wall = (n == 3) ? p[1]*3600 + p[2]*60 + p[3] : p[1]*60 + p[2] }
    /User time/ { user = $NF } /System time/ { sys = $NF }
    /Maximum resident set size/ { rss = $NF }
    END { printf "%s %.2f %.2f %d\n", label, wall, user + sys, rss }' "$dir/time.txt" >> "$dir/measures"
}

: > "$dir/measures"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" > "$dir/load.txt"

# Subjects for EVENTS events: the generator's events per subject, from a small probe.
mkdir -p "$dir/probe"
"$bin" generate --subjects 20000 --seed "$seed" --out "$dir/probe/log.jsonl" --force > "$dir/probe/out.txt"
per=$(sed -n 's/.*lines (\([0-9]*\) events.*/\1/p' "$dir/probe/out.txt")
subjects=$(( (events * 20000 + per - 1) / per ))
rm -rf "$dir/probe"

measure generate "$bin" generate --subjects "$subjects" --seed "$seed" --out "$dir/log.jsonl" --force
generated=$(cat "$dir/out.txt")
lines=$(sed -n 's/.*: \([0-9]*\) lines (.*/\1/p' <<< "$generated")
made=$(sed -n 's/.*lines (\([0-9]*\) events.*/\1/p' <<< "$generated")
duplicates=$(sed -n 's/.*, \([0-9]*\) redelivered duplicates.*/\1/p' <<< "$generated")
subjects=$(sed -n 's/.*duplicates), \([0-9]*\) subjects.*/\1/p' <<< "$generated")
bytes=$(stat -c %s "$dir/log.jsonl")

mkdir -p "$dir/shards"
measure split "$bin" split "$dir/log.jsonl" --shards "$shards" --out "$dir/shards" --force
# The shards hold every line: the whole log is no longer needed.
rm -f "$dir/log.jsonl"

read_total=0; duplicates_total=0; subjects_total=0
for ((i = 0; i < shards; i++)); do
  name=$(printf "shard-%02d-of-%02d.jsonl" "$i" "$shards")
  measure "replay-$i" "$bin" replay "$dir/shards/$name"
  read_total=$(( read_total + $(sed -n 's/^events read: //p' "$dir/out.txt") ))
  duplicates_total=$(( duplicates_total + $(sed -n 's/^duplicates skipped: //p' "$dir/out.txt") ))
  subjects_total=$(( subjects_total + $(sed -n 's/^subjects: //p' "$dir/out.txt") ))
  if [ "$snapshot" = 1 ]; then
    measure "snapshot-$i" "$bin" snapshot "$dir/shards/$name" --out "$dir/shards/$name.snapshot.json" --force
    measure "restore-$i" "$bin" replay "$dir/shards/$name" --snapshot "$dir/shards/$name.snapshot.json"
    rm -f "$dir/shards/$name.snapshot.json"
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$dir/load.txt"

# Every line was folded exactly once: the shards' counts add up to the generator's.
if [ "$read_total" != "$lines" ] || [ "$duplicates_total" != "$duplicates" ] || [ "$subjects_total" != "$subjects" ]; then
  echo "MISMATCH: shards read $read_total lines ($duplicates_total duplicates, $subjects_total subjects);" \
    "generated $lines ($duplicates, $subjects)" >&2
  exit 1
fi

awk -v shards="$shards" -v events="$made" -v lines="$lines" -v bytes="$bytes" -v subjects="$subjects" \
  -v snapshot="$snapshot" '
  function mib(kb) { return sprintf("%.0f MiB", kb / 1024) }
  { wall[$1] = $2; cpu[$1] = $3; rss[$1] = $4 }
  END {
    printf "log: %d events (%d lines, %d subjects), %.1f GB; %d shards\n\n", events, lines, subjects, bytes / 1e9, shards
    printf "| step | wall s | CPU s | peak RSS |\n| --- | ---: | ---: | ---: |\n"
    printf "| generate (streamed) | %.1f | %.1f | %s |\n", wall["generate"], cpu["generate"], mib(rss["generate"])
    printf "| split into %d | %.1f | %.1f | %s |\n", shards, wall["split"], cpu["split"], mib(rss["split"])
    for (i = 0; i < shards; i++) {
      k = "replay-" i; tw += wall[k]; tc += cpu[k]; if (rss[k] > mr) mr = rss[k]; if (wall[k] > slow) slow = wall[k]
      printf "| replay shard %d | %.1f | %.1f | %s |\n", i, wall[k], cpu[k], mib(rss[k])
      if (snapshot == 1) {
        s = "snapshot-" i; r = "restore-" i; sw += wall[s]; rw += wall[r]
        if (rss[s] > ms) ms = rss[s]; if (rss[r] > mrr) mrr = rss[r]
      }
    }
    printf "| replay, all %d shards | %.1f | %.1f | %s (largest shard) |\n", shards, tw, tc, mib(mr)
    if (snapshot == 1) {
      printf "| snapshot, all %d shards | %.1f | | %s (largest) |\n", shards, sw, mib(ms)
      printf "| restore + replay, all %d shards | %.1f | | %s (largest) |\n", shards, rw, mib(mrr)
    }
    printf "\nreplay: %.2fM events/s on one machine (sum of shard walls); slowest shard %.1f s\n\n", events / tw / 1e6, slow
    printf "| machines | shards each | projected wall s (split + slowest machine) |\n| ---: | ---: | ---: |\n"
    for (n = 1; n <= shards; n *= 2) {
      worst = 0
      for (m = 0; m < n; m++) {
        t = 0
        for (i = m; i < shards; i += n) t += wall["replay-" i]
        if (t > worst) worst = t
      }
      printf "| %d | %d | %.1f |\n", n, shards / n, wall["split"] + worst
    }
  }' "$dir/measures" | tee "$dir/table.md"
cat "$dir/load.txt"
echo "measures and table in $dir"
