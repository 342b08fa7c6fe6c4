#!/bin/sh
# The per-subject index's targets (Docs/performance.md, "The index"): release build, farm-bench,
# every ratio taken in one run against its yardstick (the small log, or the full read).
# Usage: Scripts/index-bench.sh [DIR] [SUBJECTS_BIG]   (default /tmp/storeledger-index-bench, 21300)
# With SUBJECTS_BIG=178000 it measures the 10M-event log (about 1.5 GB, a few minutes).
set -eu
DIR=${1:-/tmp/storeledger-index-bench}
BIG=${2:-21300}
SMALL=$((BIG / 100))
swift build -c release --product storeledger >/dev/null
BIN=$(swift build -c release --show-bin-path)/storeledger
mkdir -p "$DIR/big" "$DIR/small"
for size in big small; do
  n=$BIG; [ "$size" = small ] && n=$SMALL
  [ -f "$DIR/$size/log.jsonl" ] || "$BIN" generate --subjects "$n" --seed 1 --out "$DIR/$size/log.jsonl"
  "$BIN" index "$DIR/$size/log.jsonl"
done
subject() { head -1 "$1" | sed 's/.*"subject":"\([^"]*\)".*/\1/'; }
SB=$(subject "$DIR/big/log.jsonl")
SS=$(subject "$DIR/small/log.jsonl")
q() { echo "$BIN query $DIR/$1/log.jsonl --subject $2 --at 2025-06-01 $3"; }
c() { echo "$BIN can $DIR/$1/log.jsonl --subject $2 --feature ai_query --at 2025-06-01T12:00:00Z $3"; }
# A new event each run (id and transaction from the clock), so every run writes and fsyncs a batch.
cat > "$DIR/append-one.sh" <<SCRIPT
#!/bin/sh
n=\$(date +%s%N)
echo "{\\"id\\":\\"bench-\$n\\",\\"type\\":\\"purchase\\",\\"subject\\":\\"bench\\",\\"at\\":\\"2025-06-01T00:00:00Z\\",\\"product\\":\\"coins.100\\",\\"transaction\\":\\"bench-\$n\\"}" | exec "$BIN" append "\$1" - >/dev/null
SCRIPT
a() { echo "sh $DIR/append-one.sh $DIR/$1/log.jsonl"; }
echo "== query: indexed big vs indexed small (target: at most 3x)"
eval farm-bench -n 10 --vs "\"$(q small "$SS" "")\"" -- "$(q big "$SB" "")"
echo "== query: indexed big vs full read of big (target: at least 30x less)"
eval farm-bench -n 5 --timeout 600 --vs "\"$(q big "$SB" --no-index)\"" -- "$(q big "$SB" "")"
echo "== can: indexed big vs indexed small (target: at most 3x)"
eval farm-bench -n 10 --vs "\"$(c small "$SS" "")\"" -- "$(c big "$SB" "")"
echo "== can: indexed big vs full read of big (target: at least 30x less)"
eval farm-bench -n 5 --timeout 600 --vs "\"$(c big "$SB" --no-index)\"" -- "$(c big "$SB" "")"
echo "== append one event: indexed big vs indexed small (target: at most 3x)"
farm-bench -n 10 --vs "$(a small)" -- $(a big)
echo "== index (a fresh build) vs replay of big (target: index at most 2x replay's time)"
farm-bench -n 3 --timeout 1200 --vs "$BIN replay $DIR/big/log.jsonl" -- "$BIN" index --rebuild "$DIR/big/log.jsonl"
echo "== index size"
du -sb "$DIR/big/log.jsonl" "$DIR/big/log.jsonl.index"
