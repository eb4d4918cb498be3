#!/usr/bin/env bash
# Radar side by side with PocketBase and with the machine's ceiling (a bare net/http handler serving the same
# bytes from memory), loopback only. See docs/load/README.md.
#
#   docs/load/compare.sh [sqlite] [postgres] [memory] [memory-postgres]    (no argument: sqlite postgres memory)
#
# sqlite    one `radar serve` on the embedded database, PocketBase and the ceiling: list of 25 (compact and full),
#           one entity, create; then one more run of each Radar operation with CPU, block and mutex profiles
# postgres  one and two replicas on PostgreSQL (schema loadrun) and Redis, and the ceiling; then profiles as for sqlite
# memory    resident memory of `radar serve` on SQLite at rest, empty and with 10,000 companies
# memory-postgres   the same on PostgreSQL (schema loadmem)
#
# Environment: DURATION (10s) per run, ROUNDS (3), THREADS (2) and CONNECTIONS (32) of wrk, KEYS (3000) API keys
# per database, MEMORY_COMPANIES (10000), PROFILE_DIR (a new folder under /tmp, kept, a subfolder per section; "off": no profiles),
# CREATES ("off": the postgres section measures reads only, without the creates and the background work they
# queue), RADAR_BIN (a radar binary to measure instead of building this checkout: an earlier build, for before and after),
# RADAR_ENV (settings for every radar serve it starts, such as "GOMAXPROCS=1"), BACKGROUND_WAIT (1200: seconds at most to
# wait after a round's creates for the work they queued, so that the next round's reads do not run beside it).
# Needs wrk, psql (postgres sections), go, curl, jq; PostgreSQL at 127.0.0.1:5432 (database test, user postgres)
# and Redis at 127.0.0.1:6379 for the postgres sections.
set -euo pipefail
export PGOPTIONS='-c client_min_messages=warning'

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
DURATION=${DURATION:-10s}
ROUNDS=${ROUNDS:-3}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
KEYS=${KEYS:-3000}
BACKGROUND_WAIT=${BACKGROUND_WAIT:-1200}
MEMORY_COMPANIES=${MEMORY_COMPANIES:-10000}
SEED=30 # companies every database starts with: the list pages of 25 and the ids that "one" rotates over
secs=${DURATION%s}
[[ $secs =~ ^[0-9]+$ && $secs -ge 2 ]] || { echo "DURATION: want whole seconds like 10s, at least 2s" >&2; exit 2; }
sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(sqlite postgres memory)
for s in "${sections[@]}"; do
  case $s in sqlite | postgres | memory | memory-postgres) ;; *) echo "unknown section $s" >&2; exit 2 ;; esac
done
want() { [[ " ${sections[*]} " == *" $1 "* ]]; }
for tool in wrk go curl jq; do
  command -v $tool >/dev/null || { echo "needs $tool (apt-get install -y $tool)" >&2; exit 2; }
done
if want postgres || want memory-postgres; then command -v psql >/dev/null || { echo "needs psql" >&2; exit 2; }; fi

work=$(mktemp -d)
schemas=()
cleanup() {
  local p
  for p in $(jobs -p); do kill "$p" 2>/dev/null || true; done
  for p in $(jobs -p); do wait "$p" 2>/dev/null || true; done
  for p in "${schemas[@]}"; do psql -h 127.0.0.1 -U postgres -d test -qc "DROP SCHEMA IF EXISTS $p CASCADE" || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

clk=$(getconf CLK_TCK)
radar=$work/radar
pocketbase=$work/pocketbase
ceiling=$work/ceiling

echo "building radar, the ceiling and PocketBase ..."
if [ -n "${RADAR_BIN:-}" ]; then
  cp "$RADAR_BIN" "$radar"
else
  (cd "$root" && CGO_ENABLED=0 go build -o "$radar" ./cmd/radar)
fi
if want sqlite; then
  (cd "$here/pocketbase" && CGO_ENABLED=0 go build -o "$pocketbase" .)
fi
mkdir -p "$work/ceiling-src"
cat > "$work/ceiling-src/main.go" <<'GO'
// The ceiling: answers the Radar requests of compare.sh with bytes read once from files, doing nothing else.
package main

import (
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(os.Args[1], name))
		if err != nil {
			log.Fatal(err)
		}
		return b
	}
	list, full, one, created := read("list.json"), read("full.json"), read("one.json"), read("create.json")
	log.Fatal(http.ListenAndServe(os.Args[2], http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost:
			io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusCreated)
			w.Write(created)
		case strings.HasPrefix(r.URL.Path, "/api/v1/tracker/"):
			w.Write(one)
		case r.URL.Query().Get("view") == "full":
			w.Write(full)
		default:
			w.Write(list)
		}
	})))
}
GO
(cd "$work/ceiling-src" && cat > go.mod <<<'module ceiling' && go build -o "$ceiling" .)

# ---------------------------------------------------------------------------------------------------------------
# Helpers.

wait_http() { # wait_http URL: until it answers 2xx (30 s at most)
  local i
  for i in $(seq 1 150); do curl -sf -o /dev/null "$1" && return 0; sleep 0.2; done
  echo "no answer from $1" >&2
  return 1
}
ticks() { # ticks PID...: CPU time used so far (user + system), in clock ticks
  local t=0 p
  for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo $t
}
rss_kb() { # rss_kb PID...: resident memory, summed
  local t=0 p
  for p in "$@"; do t=$((t + $(awk '/^VmRSS/{print $2}' "/proc/$p/status"))); done
  echo $t
}
# wait_idle LIMIT_S PID...: until the processes have used less than 3 % of a CPU for 3 seconds in a row (LIMIT_S
# at most); prints "SECONDS TICKS": how long they were busy, and the CPU they used meanwhile.
wait_idle() {
  local limit=$1 start t0 t1 quiet=0 waited=0 busy=0 used=0
  shift
  start=$(ticks "$@")
  t0=$start
  while [ $quiet -lt 3 ] && [ $waited -lt "$limit" ]; do
    sleep 1
    waited=$((waited + 1))
    t1=$(ticks "$@")
    if [ $((t1 - t0)) -le $((clk * 3 / 100)) ]; then
      quiet=$((quiet + 1))
    else
      quiet=0
      busy=$waited
      used=$((t1 - start))
    fi
    t0=$t1
  done
  [ $quiet -ge 3 ] || echo "  warning: $* still busy after ${limit}s" >&2
  echo "$busy $used"
}
start_radar() { # start_radar NAME ADDR [VAR=VALUE...]: runs radar serve in the background; sets $pid
  local name=$1 addr=$2
  shift 2
  # shellcheck disable=SC2086 # RADAR_ENV is a list of VAR=VALUE words
  env RADAR_ADDR="$addr" RADAR_FETCH_ALLOW_PRIVATE=true ${RADAR_ENV:-} "$@" "$radar" serve 2>"$work/$name.log" &
  pid=$!
  wait_http "http://$addr/readyz"
}
stop() { # stop PID: ends one process this script started
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
make_keys() { # make_keys ORG FILE: KEYS keys with tracker:read,tracker:write, one a line
  seq 1 "$KEYS" | xargs -P4 -I{} "$radar" keys create --org "$1" --name "k{}" --scopes tracker:read,tracker:write \
    2>/dev/null > "$2"
  [ "$(wc -l < "$2")" -ge "$KEYS" ] || echo "  warning: only $(wc -l < "$2") of $KEYS keys were made" >&2
}

# The create body: every {n} becomes a string no other request uses. The website points at the discard port of
# the loopback address, where nothing listens, so the enrichment and first run each create queues fail at once.
cat > "$work/radar-create.json" <<'EOF'
{"companyName":"Load {n}","companyWebsite":"http://127.0.0.1:9/{n}","founders":[{"name":"Founder {n}"}],"thingsToTrack":"Funding rounds over $5M. Any founder leaving.","alertEmails":["p@fund.example"],"confirmed":true}
EOF
# seed ADDR KEY COUNT PREFIX: creates COUNT companies through POST /api/v1/tracker/batch, 500 at most a request.
seed() {
  local addr=$1 key=$2 count=$3 prefix=$4 from=1 to
  while [ "$from" -le "$count" ]; do
    to=$((from + 499 > count ? count : from + 499))
    seq "$from" "$to" | while read -r i; do sed "s/{n}/$prefix-$i/g" "$work/radar-create.json"; done |
      jq -sc '{items: .}' > "$work/batch.json"
    curl -sf -X POST "http://$addr/api/v1/tracker/batch" -H "Authorization: Bearer $key" \
      -H 'Content-Type: application/json' --data-binary @"$work/batch.json" |
      jq -e '[.data[] | select(.status != "created")] | length == 0' >/dev/null ||
      { echo "the batch $from-$to was not created whole" >&2; return 1; }
    from=$((to + 1))
  done
}
# settle ADDR KEY PID: waits until every company has a latest signal (its first run finished) and the server idles.
settle() {
  local i
  for i in $(seq 1 120); do
    [ "$(curl -sf "http://$1/api/v1/tracker?limit=100&view=full" -H "Authorization: Bearer $2" |
      jq '[.data[] | select(.latestSignal == null)] | length')" = 0 ] && break
    sleep 1
  done
  wait_idle 120 "$3" >/dev/null
}
# created ADDR KEY DIR: one create (the last of the SEED companies), whose answer is printed with the sizes.
created() {
  mkdir -p "$3"
  sed "s/{n}/seed-$SEED/g" "$work/radar-create.json" |
    curl -sf -X POST "http://$1/api/v1/tracker" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
      --data-binary @- > "$3/create.json"
}
# capture ADDR KEY DIR: the answers the ceiling serves, and the ids "one" rotates over.
capture() {
  local addr=$1 key=$2 dir=$3
  mkdir -p "$dir"
  curl -sf "http://$addr/api/v1/tracker?limit=25" -H "Authorization: Bearer $key" > "$dir/list.json"
  curl -sf "http://$addr/api/v1/tracker?limit=25&view=full" -H "Authorization: Bearer $key" > "$dir/full.json"
  curl -sf "http://$addr/api/v1/tracker?limit=100" -H "Authorization: Bearer $key" | jq -r '.data[].id' > "$dir/ids"
  curl -sf "http://$addr/api/v1/tracker/$(head -1 "$dir/ids")" -H "Authorization: Bearer $key" > "$dir/one.json"
}

results=$work/results # SECTION TARGET OP ROUND RPS P50_MS P99_MS BAD REQUESTS CPU_US_PER_REQ RSS_MB
: > "$results"
bad_runs=0
latency_ms() { # latency_ms FILE PERCENTILE: from wrk --latency, in ms
  awk -v q="$2" '$1 == q {v = $2; u = v; sub(/^[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
    m = u == "us" ? 0.001 : u == "ms" ? 1 : u == "s" ? 1000 : u == "m" ? 60000 : 1; printf "%.2f\n", v * m}' "$1"
}
# measure SECTION TARGET OP ROUND "PIDS" "URLS" LUA ARGS...: one wrk per URL at once (the threads and connections
# split between them), for DURATION; appends the figures to $results and prints them.
measure() {
  local sec=$1 tgt=$2 op=$3 round=$4 pids=$5 urls=($6) lua=$7
  shift 7
  local n=${#urls[@]} out=$work/wrk.$sec.$tgt.$op.$round c0 c1 i w=()
  c0=$(ticks $pids)
  for i in "${!urls[@]}"; do
    wrk -t$((THREADS / n > 0 ? THREADS / n : 1)) -c$((CONNECTIONS / n)) -d"$DURATION" --latency \
      -s "$here/$lua" "${urls[$i]}" -- "$@" > "$out.$i" 2>&1 &
    w+=($!)
  done
  for i in "${w[@]}"; do wait "$i"; done
  c1=$(ticks $pids)
  local rps=0 reqs=0 p50=0 p99=0 non2xx=0 sockerr=0 expected=-1 f v
  for f in "$out".*; do
    rps=$(awk -v a="$rps" '/^Requests\/sec/{printf "%.0f", a + $2}' "$f")
    reqs=$((reqs + $(awk '/ requests in /{print $1}' "$f")))
    v=$(latency_ms "$f" 50%); p50=$(awk -v a="$p50" -v b="$v" 'BEGIN{print (b > a ? b : a)}')
    v=$(latency_ms "$f" 99%); p99=$(awk -v a="$p99" -v b="$v" 'BEGIN{print (b > a ? b : a)}')
    non2xx=$((non2xx + $(awk '/Non-2xx/{n = $NF} END{print n + 0}' "$f")))
    sockerr=$((sockerr + $(awk '/Socket errors/{gsub(/[^0-9 ]/, ""); n = $1 + $2 + $3 + $4} END{print n + 0}' "$f")))
    v=$(awk '/^expected /{print $2}' "$f")
    [ -z "$v" ] || expected=$((expected < 0 ? v : expected + v))
  done
  local cpu rss bad=$((non2xx + sockerr))
  cpu=$(awk -v t=$((c1 - c0)) -v c="$clk" -v r="$reqs" 'BEGIN{printf "%.0f", r ? t * 1e6 / c / r : 0}')
  rss=$(awk -v k="$(rss_kb $pids)" 'BEGIN{printf "%.0f", k / 1024}')
  echo "$sec $tgt $op $round $rps $p50 $p99 $bad $reqs $cpu $rss" >> "$results"
  printf '  round %s %-9s %-10s %8s rps  p50 %7s ms  p99 %7s ms  %6s µs CPU/req  %5s MB\n' \
    "$round" "$tgt" "$op" "$rps" "$p50" "$p99" "$cpu" "$rss"
  if [ "$bad" -gt 0 ]; then
    bad_runs=$((bad_runs + 1))
    echo "  WARNING: $non2xx answers were not 2xx and $sockerr requests failed: this run's figures are not comparable"
  fi
  if [ "$expected" -ge 0 ] && [ "$expected" -ne "$reqs" ]; then
    bad_runs=$((bad_runs + 1))
    echo "  WARNING: $((reqs - expected)) of $reqs creates did not answer the expected status (a reuse or an error)"
  fi
  return 0
}
med() { # med SECTION TARGET OP COLUMN: the median over the rounds ("-" when none)
  awk -v s="$1" -v t="$2" -v o="$3" -v c="$4" '$1 == s && $2 == t && $3 == o {print $c}' "$results" | sort -g |
    awk '{v[NR] = $1} END{print NR ? v[int((NR + 1) / 2)] : "-"}'
}
# rounds SECTION TARGET OP OTHER: TARGET's rps over OTHER's, round by round, in round order. Runs of the same round
# are seconds apart, so a machine whose speed drifts between rounds moves these less than a ratio of medians.
rounds() {
  awk -v s="$1" -v t="$2" -v o="$3" -v x="$4" '$1 == s && $3 == o && ($2 == t || $2 == x) {v[$2, $4] = $5; if ($4 > n) n = $4}
    END{for (i = 1; i <= n; i++) if (v[t, i] > 0 && v[x, i] > 0) printf "%.2f\n", v[t, i] / v[x, i]}' "$results"
}
share() { # share SECTION TARGET OP OTHER: the median of rounds
  rounds "$@" | sort -g | awk '{v[NR] = $1} END{print NR ? v[int((NR + 1) / 2)] : "-"}'
}
# shares SECTION TARGET OTHER OP...: one line of every OP's rounds
shares() {
  local sec=$1 t=$2 x=$3 op out=""
  shift 3
  for op in "$@"; do out="$out  $op $(rounds "$sec" "$t" "$op" "$x" | paste -sd' ')"; done
  echo "$t / $x, round by round:$out"
}
cell() { # cell SECTION TARGET OP: "rps p50 p99" medians
  printf '%8s %7s %7s' "$(med "$@" 5)" "$(med "$@" 6)" "$(med "$@" 7)"
}
# background FILE: the work the creates queued (lines "SECONDS TICKS CREATES", one a round).
background() {
  awk -v c="$clk" -v d="$secs" '{s += $1; t += $2; n += $3} END{if (n) printf "Radar create: the enrichments and first runs " \
    "the creates queued took %.0f s more a round and %.0f µs CPU per create; sustained: %.0f creates a " \
    "second (creates / (run + that time))\n", s / NR, t * 1e6 / c / n, n / (NR * d + s)}' "$1"
}
bytes() { printf "%'d" "$(wc -c < "$1")"; }

# ---------------------------------------------------------------------------------------------------------------
# SQLite: Radar, PocketBase and the ceiling.

pb_setup() { # pb_setup ADDR RADAR_FULL_PAGE: collection, user, token ($pbtoken) and seed records; sets $pbpid
  local addr=$1 su
  "$pocketbase" superuser upsert admin@load.example load-password-1 --dir "$work/pb_data" >/dev/null
  "$pocketbase" serve --http "$addr" --dir "$work/pb_data" >"$work/pocketbase.log" 2>&1 &
  pbpid=$!
  wait_http "http://$addr/api/health"
  su=$(curl -sf "http://$addr/api/collections/_superusers/auth-with-password" -H 'Content-Type: application/json' \
    -d '{"identity":"admin@load.example","password":"load-password-1"}' | jq -r .token)
  local rule='@request.auth.id != \"\"'
  curl -sf -o /dev/null "http://$addr/api/collections" -H "Authorization: $su" -H 'Content-Type: application/json' -d '{
    "name": "companies", "type": "base",
    "listRule": "'"$rule"'", "viewRule": "'"$rule"'", "createRule": "'"$rule"'",
    "fields": [
      {"name": "name", "type": "text", "required": true},
      {"name": "website", "type": "url", "required": true},
      {"name": "founders", "type": "json"},
      {"name": "things_to_track", "type": "text"},
      {"name": "alert_emails", "type": "json"},
      {"name": "email_alerts_enabled", "type": "bool"},
      {"name": "cadence_days", "type": "number"},
      {"name": "digest", "type": "text"},
      {"name": "status", "type": "text"},
      {"name": "tags", "type": "json"},
      {"name": "sectors", "type": "json"},
      {"name": "stage", "type": "text"},
      {"name": "policy", "type": "json"},
      {"name": "enrichment_status", "type": "text"},
      {"name": "last_scraped_at", "type": "date"},
      {"name": "scrape_health_reason", "type": "text"},
      {"name": "next_run_at", "type": "date"},
      {"name": "latest_signal", "type": "json"},
      {"name": "created", "type": "autodate", "onCreate": true},
      {"name": "updated", "type": "autodate", "onCreate": true, "onUpdate": true}
    ],
    "indexes": ["CREATE INDEX idx_companies_created ON companies (created)"]}'
  curl -sf -o /dev/null "http://$addr/api/collections/users/records" -H 'Content-Type: application/json' \
    -d '{"email":"reader@load.example","password":"load-password-2","passwordConfirm":"load-password-2"}'
  pbtoken=$(curl -sf "http://$addr/api/collections/users/auth-with-password" -H 'Content-Type: application/json' \
    -d '{"identity":"reader@load.example","password":"load-password-2"}' | jq -r .token)
  echo "$pbtoken" > "$work/pb.keys"
  # The records are Radar's entities, field for field, oldest first, so that both list the same companies.
  local torecord='{name: .companyName, website: .companyWebsite, founders, things_to_track: .thingsToTrack,
    alert_emails: .alertEmails, email_alerts_enabled: .emailAlertsEnabled, cadence_days: .cadenceDays, digest,
    status, tags, sectors, stage, policy, enrichment_status: .enrichmentStatus, last_scraped_at: .lastScrapedAt,
    scrape_health_reason: .scrapeHealthReason, next_run_at: .nextRunAt, latest_signal: .latestSignal}'
  jq -c ".data | reverse | .[] | $torecord" "$2" | while read -r rec; do
    curl -sf "http://$addr/api/collections/companies/records" -H "Authorization: $pbtoken" \
      -H 'Content-Type: application/json' -d "$rec" | jq -r .id
  done > "$work/pb.ids"
  jq -c ".data[0] | $torecord | .name = \"Load {n}\" | .website = \"http://127.0.0.1:9/{n}\" |
    .founders = [{name: \"Founder {n}\"}] | .enrichment_status = \"queued\" | .latest_signal = null |
    .last_scraped_at = null | .next_run_at = null" "$2" > "$work/pb-create.json"
}

section_sqlite() {
  echo
  echo "== SQLite: one radar serve, PocketBase, the ceiling (wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds)"
  local db=$work/sqlite.db addr=127.0.0.1:18181 pbaddr=127.0.0.1:18191 caddr=127.0.0.1:18199 rpid
  export RADAR_DATABASE_URL="sqlite:$db"
  "$radar" migrate >/dev/null
  "$radar" orgs create loadrun >/dev/null
  echo "making $KEYS API keys ..."
  make_keys loadrun "$work/sqlite.keys"
  local key
  key=$(head -1 "$work/sqlite.keys")
  start_radar sqlite "$addr"
  rpid=$pid
  seed "$addr" "$key" $((SEED - 1)) seed
  created "$addr" "$key" "$work/sqlite"
  settle "$addr" "$key" "$rpid"
  capture "$addr" "$key" "$work/sqlite"
  # Each full entity becomes a PocketBase record.
  curl -sf "http://$addr/api/v1/tracker?limit=100&view=full" -H "Authorization: Bearer $key" > "$work/sqlite/all.json"
  pb_setup "$pbaddr" "$work/sqlite/all.json"
  wait_idle 60 "$rpid" >/dev/null
  "$ceiling" "$work/sqlite" "$caddr" 2>"$work/ceiling.log" &
  local cpid=$!
  wait_http "http://$caddr/"
  local pbfields=id,collectionId,collectionName,name,website,founders,things_to_track,alert_emails,email_alerts_enabled
  pbfields=$pbfields,cadence_days,digest,status,tags,sectors,stage,enrichment_status,last_scraped_at
  pbfields=$pbfields,scrape_health_reason,next_run_at,latest_signal,created,updated
  local pblist="/api/collections/companies/records?perPage=25&sort=-created&skipTotal=1"
  curl -sf "http://$pbaddr$pblist&fields=$pbfields" -H "Authorization: $pbtoken" > "$work/pb-list.json"
  curl -sf "http://$pbaddr$pblist" -H "Authorization: $pbtoken" > "$work/pb-full.json"
  curl -sf "http://$pbaddr/api/collections/companies/records/$(head -1 "$work/pb.ids")" -H "Authorization: $pbtoken" \
    > "$work/pb-one.json"
  sed "s/{n}/capture/g" "$work/pb-create.json" | curl -sf "http://$pbaddr/api/collections/companies/records" \
    -H "Authorization: $pbtoken" -H 'Content-Type: application/json' --data-binary @- > "$work/pb-created.json"
  echo "records: $(wc -l < "$work/sqlite/ids") | $(wc -l < "$work/pb.ids") (Radar | PocketBase)"
  echo "answer sizes in bytes (Radar | PocketBase):"
  echo "  list of 25, compact: $(bytes "$work/sqlite/list.json") | $(bytes "$work/pb-list.json") (fields= without policy)"
  echo "  list of 25, full:    $(bytes "$work/sqlite/full.json") | $(bytes "$work/pb-full.json")"
  echo "  one entity:          $(bytes "$work/sqlite/one.json") | $(bytes "$work/pb-one.json")"
  echo "  create answer:       $(bytes "$work/sqlite/create.json") | $(bytes "$work/pb-created.json")"
  echo "  create body:         $(bytes "$work/radar-create.json") | $(bytes "$work/pb-create.json")"

  local rkeys=$work/sqlite.keys pbkeys=$work/pb.keys
  local r="http://$addr" p="http://$pbaddr" c="http://$caddr"
  # A first short run on each server fills its pools and caches.
  local u
  for u in "$r" "$c"; do wrk -t2 -c8 -d2s -s "$here/get.lua" "$u" -- "$rkeys" "/api/v1/tracker?limit=25" >/dev/null; done
  wrk -t2 -c8 -d2s -s "$here/get.lua" "$p" -- "$pbkeys" "$pblist&fields=$pbfields" >/dev/null
  local round idle
  for round in $(seq 1 "$ROUNDS"); do
    measure sqlite radar list "$round" "$rpid" "$r" get.lua "$rkeys" "/api/v1/tracker?limit=25"
    measure sqlite pocketbase list "$round" "$pbpid" "$p" get.lua "$pbkeys" "$pblist&fields=$pbfields"
    measure sqlite ceiling list "$round" "$cpid" "$c" get.lua "$rkeys" "/api/v1/tracker?limit=25"
    measure sqlite radar full "$round" "$rpid" "$r" get.lua "$rkeys" "/api/v1/tracker?limit=25&view=full"
    measure sqlite pocketbase full "$round" "$pbpid" "$p" get.lua "$pbkeys" "$pblist"
    measure sqlite ceiling full "$round" "$cpid" "$c" get.lua "$rkeys" "/api/v1/tracker?limit=25&view=full"
    measure sqlite radar one "$round" "$rpid" "$r" get.lua "$rkeys" "/api/v1/tracker/{id}" "$work/sqlite/ids"
    measure sqlite pocketbase one "$round" "$pbpid" "$p" get.lua "$pbkeys" "/api/collections/companies/records/{id}" "$work/pb.ids"
    measure sqlite ceiling one "$round" "$cpid" "$c" get.lua "$rkeys" "/api/v1/tracker/{id}" "$work/sqlite/ids"
    measure sqlite radar create "$round" "$rpid" "$r" post.lua "$rkeys" /api/v1/tracker "$work/radar-create.json" "s$round" 201
    # The enrichments and first runs the creates queued: waited for, so that they do not weigh on the next runs.
    idle="$(wait_idle "$BACKGROUND_WAIT" "$rpid") $(awk '{print $9}' <<<"$(tail -1 "$results")")"
    echo "$idle" >> "$work/sqlite.background"
    echo "  round $round radar     background work after the creates: $(awk -v c="$clk" '{printf "%.0f s, %.0f µs CPU per create",
      $1, $3 ? $2 * 1e6 / c / $3 : 0}' <<<"$idle")"
    measure sqlite pocketbase create "$round" "$pbpid" "$p" post.lua "$pbkeys" /api/collections/companies/records "$work/pb-create.json" "s$round" 200
  done
  echo
  echo "SQLite, medians of $ROUNDS rounds, each column on its own (rps: requests a second; p50, p99: latency in ms; CPU and RSS: the server's; R/ceil, R/PB: the median of the rounds' ratios of rps)"
  printf '%-9s | %-24s | %-24s | %8s | %6s | %6s | %-13s | %-11s\n' operation "Radar rps p50 p99" \
    "PocketBase rps p50 p99" "ceiling" "R/ceil" "R/PB" "CPU µs/req R PB" "RSS MB R PB"
  local op
  for op in list full one create; do
    printf '%-9s | %s | %s | %8s | %6s | %6s | %6s %6s | %5s %5s\n' "$op" "$(cell sqlite radar $op)" \
      "$(cell sqlite pocketbase $op)" "$(med sqlite ceiling $op 5)" \
      "$(share sqlite radar $op ceiling)" "$(share sqlite radar $op pocketbase)" \
      "$(med sqlite radar $op 10)" "$(med sqlite pocketbase $op 10)" "$(med sqlite radar $op 11)" "$(med sqlite pocketbase $op 11)"
  done
  shares sqlite radar ceiling list full one
  shares sqlite radar pocketbase list full one create
  background "$work/sqlite.background"
  echo "list: Radar ?limit=25 (compact) | PocketBase perPage=25&sort=-created&skipTotal=1&fields=(all but policy)"
  echo "full: Radar ?limit=25&view=full | PocketBase perPage=25&sort=-created&skipTotal=1 (every field)"
  stop "$pbpid"
  stop "$cpid"

  stop "$rpid"
  profiles sqlite "$addr" "$rkeys" "$work/sqlite/ids"
}

# profiles SECTION ADDR KEYS IDS [VAR=VALUE...]: a server of its own on ADDR with the debug listener (which samples
# block and mutex events while it is on, so the measured server ran without it), one run of each operation while
# CPU, block and mutex profiles are taken, and the top frames of each CPU profile.
profiles() {
  local sec=$1 addr=$2 keys=$3 ids=$4
  shift 4
  [ "${PROFILE_DIR:-}" != off ] || return 0
  local dir=${PROFILE_DIR:-$(mktemp -d /tmp/radar-profiles.XXXXXX)}/$sec dbg=127.0.0.1:18189 ps=$((secs > 3 ? secs - 2 : 1))
  mkdir -p "$dir"
  cp "$radar" "$dir/radar"
  start_radar "$sec-profile" "$addr" RADAR_DEBUG_ADDR=$dbg "$@"
  local rpid=$pid r="http://$addr"
  echo
  echo "Profiles, $sec (${ps} s within one run of each operation) in $dir:"
  local args op kind
  for op in list full one create; do
    case $op in
    list) args=(get.lua "$keys" "/api/v1/tracker?limit=25") ;;
    full) args=(get.lua "$keys" "/api/v1/tracker?limit=25&view=full") ;;
    one) args=(get.lua "$keys" "/api/v1/tracker/{id}" "$ids") ;;
    create) [ "${CREATES:-on}" != off ] || continue
      args=(post.lua "$keys" /api/v1/tracker "$work/radar-create.json" "prof-$sec" 201) ;;
    esac
    (sleep 1
      for kind in block mutex; do curl -sf -o "$dir/$op.$kind.pb.gz" "http://$dbg/debug/pprof/$kind?seconds=$ps" & done
      curl -sf -o "$dir/$op.cpu.pb.gz" "http://$dbg/debug/pprof/profile?seconds=$ps"
      wait) &
    local prof=$!
    measure profile-$sec radar "$op" 1 "$rpid" "$r" "${args[@]}"
    wait "$prof"
    echo "-- $op: go tool pprof -top -nodecount=10 $dir/radar $dir/$op.cpu.pb.gz"
    go tool pprof -top -nodecount=10 "$dir/radar" "$dir/$op.cpu.pb.gz" 2>/dev/null | sed -n '/^ *flat/,$p'
    [ "$op" != create ] || wait_idle "$BACKGROUND_WAIT" "$rpid" >/dev/null
  done
  echo "block and mutex profiles: $dir/OP.block.pb.gz, $dir/OP.mutex.pb.gz (go tool pprof -top $dir/radar FILE)"
  stop "$rpid"
}

# ---------------------------------------------------------------------------------------------------------------
# PostgreSQL and Redis: one and two replicas, and the ceiling.

pg_schema() { # pg_schema NAME: a fresh schema, dropped at exit; exports RADAR_DATABASE_URL for it
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP SCHEMA IF EXISTS $1 CASCADE; CREATE SCHEMA $1;"
  schemas+=("$1")
  export RADAR_DATABASE_URL="postgres://postgres@127.0.0.1:5432/test?sslmode=disable&search_path=$1"
}

section_postgres() {
  echo
  echo "== PostgreSQL and Redis: one and two replicas, the ceiling (wrk -t$THREADS -c$CONNECTIONS -d$DURATION, $ROUNDS rounds)"
  local a=127.0.0.1:18281 b=127.0.0.1:18282 caddr=127.0.0.1:18299 apid bpid cpid key
  pg_schema loadrun
  export RADAR_REDIS_URL='redis://127.0.0.1:6379/0'
  RADAR_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
  export RADAR_SECRET
  "$radar" migrate >/dev/null
  "$radar" orgs create loadrun >/dev/null
  echo "making $KEYS API keys ..."
  make_keys loadrun "$work/pg.keys"
  key=$(head -1 "$work/pg.keys")
  start_radar pg-a "$a"
  apid=$pid
  start_radar pg-b "$b"
  bpid=$pid
  seed "$a" "$key" $((SEED - 1)) seed
  created "$a" "$key" "$work/pg"
  settle "$a" "$key" "$apid"
  capture "$a" "$key" "$work/pg"
  "$ceiling" "$work/pg" "$caddr" 2>"$work/ceiling-pg.log" &
  cpid=$!
  wait_http "http://$caddr/"
  echo "answer sizes in bytes: list of 25 $(bytes "$work/pg/list.json"), full $(bytes "$work/pg/full.json"), one $(bytes "$work/pg/one.json")"
  local k=$work/pg.keys ra="http://$a" rb="http://$b" c="http://$caddr" u
  for u in "$ra" "$rb" "$c"; do wrk -t2 -c8 -d2s -s "$here/get.lua" "$u" -- "$k" "/api/v1/tracker?limit=25" >/dev/null; done
  local round idle
  for round in $(seq 1 "$ROUNDS"); do
    measure postgres radar list "$round" "$apid" "$ra" get.lua "$k" "/api/v1/tracker?limit=25"
    measure postgres radar2 list "$round" "$apid $bpid" "$ra $rb" get.lua "$k" "/api/v1/tracker?limit=25"
    measure postgres ceiling list "$round" "$cpid" "$c" get.lua "$k" "/api/v1/tracker?limit=25"
    measure postgres radar full "$round" "$apid" "$ra" get.lua "$k" "/api/v1/tracker?limit=25&view=full"
    measure postgres ceiling full "$round" "$cpid" "$c" get.lua "$k" "/api/v1/tracker?limit=25&view=full"
    measure postgres radar one "$round" "$apid" "$ra" get.lua "$k" "/api/v1/tracker/{id}" "$work/pg/ids"
    measure postgres ceiling one "$round" "$cpid" "$c" get.lua "$k" "/api/v1/tracker/{id}" "$work/pg/ids"
    if [ "${CREATES:-on}" = off ]; then continue; fi
    measure postgres radar create "$round" "$apid" "$ra" post.lua "$k" /api/v1/tracker "$work/radar-create.json" "p$round" 201
    # Either replica's workers may take the queued jobs.
    idle=$(wait_idle "$BACKGROUND_WAIT" "$apid" "$bpid")
    idle="$idle $(awk '{print $9}' <<<"$(tail -1 "$results")")"
    echo "$idle" >> "$work/pg.background"
    echo "  round $round radar     background work after the creates: $(awk -v c="$clk" '{printf "%.0f s, %.0f µs CPU per create (both replicas)",
      $1, $3 ? $2 * 1e6 / c / $3 : 0}' <<<"$idle")"
  done
  echo
  echo "PostgreSQL and Redis, medians of $ROUNDS rounds, each column on its own (two replicas: rps summed, latency the worse, CPU and RSS of both; R/ceil: the median of the rounds' ratios)"
  printf '%-16s | %-24s | %8s | %6s | %10s | %6s\n' operation "Radar rps p50 p99" ceiling R/ceil "CPU µs/req" "RSS MB"
  local op t
  for op in list list2 full one create; do
    t=radar
    [ "$op" != list2 ] || t=radar2
    printf '%-16s | %s | %8s | %6s | %10s | %6s\n' "$( [ $op = list2 ] && echo "list, 2 replicas" || echo $op)" \
      "$(cell postgres $t ${op%2})" "$(med postgres ceiling ${op%2} 5)" \
      "$(share postgres $t ${op%2} ceiling)" \
      "$(med postgres $t ${op%2} 10)" "$(med postgres $t ${op%2} 11)"
  done
  shares postgres radar ceiling list full one
  shares postgres radar2 ceiling list
  [ ! -s "$work/pg.background" ] || background "$work/pg.background"
  stop "$apid"
  stop "$bpid"
  stop "$cpid"
  profiles postgres "$a" "$k" "$work/pg/ids"
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP SCHEMA loadrun CASCADE"
  unset RADAR_REDIS_URL RADAR_SECRET
}

# ---------------------------------------------------------------------------------------------------------------
# Memory at rest.

pending() { # pending ADDR KEY: how many companies have no latest signal yet, paging through all of them
  local cursor="" page n=0
  while :; do
    page=$(curl -sfG "http://$1/api/v1/tracker?limit=100&view=full" ${cursor:+--data-urlencode "cursor=$cursor"} \
      -H "Authorization: Bearer $2")
    n=$((n + $(jq '[.data[] | select(.latestSignal == null)] | length' <<<"$page")))
    cursor=$(jq -r '.nextCursor // empty' <<<"$page")
    [ -n "$cursor" ] || break
  done
  echo $n
}
memory() { # memory ENGINE: resident memory empty and with MEMORY_COMPANIES companies, once idle
  local engine=$1 addr=127.0.0.1:18381 key empty t0 t1 idle
  "$radar" migrate >/dev/null
  "$radar" orgs create loadmem >/dev/null
  key=$("$radar" keys create --org loadmem --name seeder --scopes tracker:read,tracker:write 2>/dev/null)
  start_radar "mem-$engine" "$addr"
  curl -sf -o /dev/null "http://$addr/api/v1/tracker?limit=25" -H "Authorization: Bearer $key"
  wait_idle 60 "$pid" >/dev/null
  empty=$(rss_kb "$pid")
  t0=$(date +%s)
  seed "$addr" "$key" "$MEMORY_COMPANIES" m
  t1=$(date +%s)
  echo "  $engine: seeded $MEMORY_COMPANIES companies in $((t1 - t0)) s (batches of 500); RSS right after: $(rss_kb "$pid" | awk '{printf "%.0f", $1 / 1024}') MB"
  idle=$(wait_idle 900 "$pid")
  echo "  $engine: the enrichments and first runs settled $(awk '{print $1}' <<<"$idle") s later ($(awk -v c="$clk" '{printf "%.0f", $2 / c}' <<<"$idle") CPU s)"
  echo "  $engine: companies whose first run has not finished: $(pending "$addr" "$key")"
  curl -sf -o /dev/null "http://$addr/api/v1/tracker?limit=25" -H "Authorization: Bearer $key"
  printf '  %s: VmRSS at rest, empty %.0f MB; with %d companies %.0f MB\n' "$engine" "$(awk -v k="$empty" 'BEGIN{print k / 1024}')" \
    "$MEMORY_COMPANIES" "$(awk -v k="$(rss_kb "$pid")" 'BEGIN{print k / 1024}')"
  stop "$pid"
}

section_memory() {
  echo
  echo "== Memory at rest (SQLite), $MEMORY_COMPANIES companies"
  export RADAR_DATABASE_URL="sqlite:$work/mem.db"
  memory sqlite
}

section_memory_postgres() {
  echo
  echo "== Memory at rest (PostgreSQL), $MEMORY_COMPANIES companies"
  pg_schema loadmem
  memory postgres
  psql -h 127.0.0.1 -U postgres -d test -qc "DROP SCHEMA loadmem CASCADE"
}

started=$(date +%s)
! want sqlite || section_sqlite
! want postgres || section_postgres
! want memory || section_memory
! want memory-postgres || section_memory_postgres
echo
echo "done in $(($(date +%s) - started)) s"
if [ "$bad_runs" -gt 0 ]; then
  echo "WARNING: $bad_runs runs had answers that were not the expected ones (see above): raise KEYS, or look at $work/*.log"
fi
