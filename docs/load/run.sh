#!/usr/bin/env bash
# A load run of GET /api/v1/tracker (25 entities, compact) against one and two replicas on PostgreSQL and Redis,
# and against a plain net/http handler serving the same bytes from memory (the machine's ceiling).
# Loopback only, 10 s per run. Needs wrk (apt-get install wrk), psql, a local PostgreSQL and Redis.
set -euo pipefail
export PGOPTIONS='-c client_min_messages=warning'
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
root=$(cd ../.. && pwd)
(cd "$root" && CGO_ENABLED=0 go build -o "$work/radar" ./cmd/radar)

psql -h 127.0.0.1 -U postgres -d test -qc "DROP SCHEMA IF EXISTS loadrun CASCADE; CREATE SCHEMA loadrun;"
export RADAR_DATABASE_URL='postgres://postgres@127.0.0.1:5432/test?sslmode=disable&search_path=loadrun'
export RADAR_REDIS_URL='redis://127.0.0.1:6379/0' RADAR_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
"$work/radar" migrate >/dev/null
"$work/radar" orgs create loadrun >/dev/null
# 3,000 read keys: their 600 reads a minute each add up to more than the runs of a minute send, so every answer
# is a 200 (wrk prints "Non-2xx or 3xx responses" when one is not).
seq 1 3000 | xargs -P4 -I{} "$work/radar" keys create --org loadrun --name "r{}" --scopes tracker:read 2>/dev/null > read.keys
writer=$("$work/radar" keys create --org loadrun --name w --scopes tracker:read,tracker:write 2>/dev/null)

RADAR_ADDR=127.0.0.1:18081 "$work/radar" serve 2>"$work/a.log" &
RADAR_ADDR=127.0.0.1:18082 "$work/radar" serve 2>"$work/b.log" &
sleep 2
for i in $(seq 1 25); do
  curl -s -o /dev/null -X POST http://127.0.0.1:18081/api/v1/tracker -H "Authorization: Bearer $writer" \
    -H 'Content-Type: application/json' -d "{\"companyName\":\"Company $i\",\"companyWebsite\":\"http://127.0.0.1:9/c$i\",
    \"founders\":[{\"name\":\"Founder $i\"}],\"thingsToTrack\":\"Funding rounds over \$5M. Any founder leaving.\",
    \"alertEmails\":[\"p@fund.example\"],\"confirmed\":true}"
done
sleep 20 # let the first runs finish, so every entity carries a latest signal
curl -s 'http://127.0.0.1:18081/api/v1/tracker?limit=25' -H "Authorization: Bearer $(head -1 read.keys)" > "$work/page.json"
cat > "$work/ceiling.go" <<'GO'
package main

import (
	"log"
	"net/http"
	"os"
)

func main() {
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(os.Args[2], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	})))
}
GO
(cd "$work" && go build -o ceiling ceiling.go)
"$work/ceiling" "$work/page.json" 127.0.0.1:18090 &
sleep 1
# Three rounds, each running the ceiling, one replica and both replicas in turn, so that a busy moment of the
# machine weighs on all three alike. Per run: requests per second, p99 latency, and non-2xx answers (none expected).
run() { wrk -t"$1" -c"$2" -d10s --latency -s keys.lua "$3" > "$4"; }
rps() { awk '/Requests\/sec/{print $2}' "$1"; }
p99() { awk '$1=="99%"{print $2}' "$1"; }
non2xx() { awk '/Non-2xx/{n=$NF} END{print n+0}' "$1"; }
# A first run on each replica fills its connection pools and page cache.
for port in 18081 18082; do wrk -t2 -c32 -d3s -s keys.lua "http://127.0.0.1:$port" > /dev/null; done
printf '%-6s %-24s %-24s %-34s\n' round "ceiling rps (p99)" "one replica rps (p99)" "two replicas rps (p99 each)"
for round in 1 2 3; do
  run 2 32 http://127.0.0.1:18090 "$work/c"
  run 2 32 http://127.0.0.1:18081 "$work/one"
  run 1 16 http://127.0.0.1:18081 "$work/a" & first=$!
  run 1 16 http://127.0.0.1:18082 "$work/b"
  wait "$first"
  two=$(awk -v a="$(rps "$work/a")" -v b="$(rps "$work/b")" 'BEGIN{printf "%.2f", a+b}')
  printf '%-6s %-24s %-24s %-34s\n' "$round" "$(rps "$work/c") ($(p99 "$work/c"))" \
    "$(rps "$work/one") ($(p99 "$work/one"))" "$two ($(p99 "$work/a"), $(p99 "$work/b"))"
  bad=$(( $(non2xx "$work/one") + $(non2xx "$work/a") + $(non2xx "$work/b") ))
  [ "$bad" -eq 0 ] || echo "       $bad answers were not 2xx: the figures of this round are not comparable"
done
rm -f read.keys
psql -h 127.0.0.1 -U postgres -d test -qc "DROP SCHEMA loadrun CASCADE;"
