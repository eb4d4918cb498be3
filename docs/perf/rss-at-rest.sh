#!/usr/bin/env bash
# Resident memory of one `radar serve` on SQLite at rest with N companies (default 10,000): builds the binary,
# creates the companies through POST /api/v1/tracker/batch (500 a call) with websites on a closed loopback port,
# so that enrichment and first runs fail at once, waits until the job queue is idle, then prints VmRSS and the
# Go heap figures. Leaves heap profiles (idle, and after a lookup and an export) in $OUT (default ./rss-at-rest) for `go tool pprof`.
# Loopback only. Needs curl.
set -euo pipefail
N=${N:-10000}
OUT=${OUT:-$PWD/rss-at-rest}
PORT=${PORT:-18480}
DEBUG_PORT=${DEBUG_PORT:-18481}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
work=$(mktemp -d)
trap 'kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$work/radar" ./cmd/radar)
export RADAR_DATABASE_URL="sqlite:$work/radar.db" RADAR_ADDR=127.0.0.1:$PORT RADAR_DEBUG_ADDR=127.0.0.1:$DEBUG_PORT
export RADAR_FETCH_ALLOW_PRIVATE=true
"$work/radar" migrate >/dev/null
"$work/radar" orgs create rss >/dev/null
key=$("$work/radar" keys create --org rss --name seed --scopes tracker:read,tracker:write)
"$work/radar" serve 2>"$OUT/serve.log" &
pid=$!
base=http://127.0.0.1:$PORT
until curl -fs "$base/healthz" >/dev/null; do sleep 0.2; done
rss() { awk '/VmRSS/{print $2}' /proc/$pid/status || { echo "radar serve ended: see $OUT/serve.log" >&2; exit 1; }; }
echo "started: VmRSS $(rss) kB"

start=$(date +%s)
created=0
for ((b = 0; b < N; b += 500)); do
  {
    printf '{"items":['
    for ((i = b; i < b + 500 && i < N; i++)); do
      ((i > b)) && printf ','
      printf '{"companyName":"Company %d","companyWebsite":"http://127.0.0.1:9/c%d/","founders":[{"name":"Founder %d"}],' "$i" "$i" "$i"
      printf '"thingsToTrack":"Funding rounds over $5M. Any founder leaving.","alertEmails":["p@fund.example"],"confirmed":true}'
    done
    printf ']}'
  } >"$work/batch.json"
  until code=$(curl -s -o "$work/answer.json" -w '%{http_code}' -X POST "$base/api/v1/tracker/batch" \
    -H "Authorization: Bearer $key" -H 'Content-Type: application/json' --data-binary @"$work/batch.json") && [ "$code" = 200 ]; do
    [ "$code" = 429 ] || { echo "batch at $b: HTTP $code: $(head -c 300 "$work/answer.json")" >&2; exit 1; }
    sleep 5
  done
  created=$((created + $(grep -o '"status":"created"' "$work/answer.json" | wc -l)))
done
echo "created $created of $N companies in $(($(date +%s) - start)) s: VmRSS $(rss) kB"

# Idle: no job waiting, running or due for a retry, twice in a row 5 s apart.
jobs() { curl -s "$base/metrics" | awk '/^radar_jobs\{state="(available|running|retryable|pending)"\}/{n += $2} END {print n + 0}'; }
quiet=0
while ((quiet < 2)); do
  sleep 5
  if [ "$(jobs)" = 0 ]; then quiet=$((quiet + 1)); else quiet=0; fi
done
echo "idle after $(($(date +%s) - start)) s: VmRSS $(rss) kB"
sleep 30
echo "idle 30 s later: VmRSS $(rss) kB"
curl -s "http://127.0.0.1:$DEBUG_PORT/debug/pprof/heap?gc=1" >"$OUT/heap-idle.pprof"

# The first fuzzy lookup builds the organisation's index; an export reads every row. Both stay or pass.
curl -s -o /dev/null -w "lookup (builds the index): HTTP %{http_code} in %{time_total} s\n" -G "$base/api/v1/signals" \
  --data-urlencode "entityQuery=company $((N / 2 + 1))" -H "Authorization: Bearer $key"
echo "after the lookup: VmRSS $(rss) kB"
curl -s -o "$work/export.csv" -w "CSV export of the companies: HTTP %{http_code}, %{size_download} bytes in %{time_total} s\n" \
  "$base/api/v1/tracker" -H 'Accept: text/csv' -H "Authorization: Bearer $key"
echo "after the export: VmRSS $(rss) kB (rows: $(($(wc -l <"$work/export.csv") - 1)))"
sleep 30
echo "30 s later: VmRSS $(rss) kB"
curl -s "http://127.0.0.1:$DEBUG_PORT/debug/pprof/heap?gc=1" >"$OUT/heap.pprof"
curl -s "$base/metrics" | grep -E '^(go_memstats_(heap_inuse|heap_idle|heap_released|sys|stack_inuse)_bytes|go_goroutines|radar_jobs)' || true
grep -E 'VmRSS|VmHWM|RssAnon|RssFile' /proc/$pid/status
echo "heap profile: $OUT/heap.pprof (go tool pprof -top -sample_index=inuse_space $OUT/heap.pprof)"
