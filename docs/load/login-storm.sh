#!/usr/bin/env bash
# A storm of wrong-password sign-ins against one replica: 200 concurrent POST /login, each for another e-mail
# address from another client address (X-Forwarded-For, believed from 127.0.0.1 through RADAR_TRUSTED_PROXIES),
# so that the per-account and per-address limits let every attempt reach the password hash. The replica's
# resident memory is read from /proc every 50 ms and an API read runs in a loop. Prints the memory
# before and at its peak, how the sign-ins were answered, and how the API reads were answered meanwhile.
# Needs curl; runs on an embedded database in a temporary directory, loopback only.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
root=$(cd ../.. && pwd)
(cd "$root" && CGO_ENABLED=0 go build -o "$work/radar" ./cmd/radar)

export RADAR_DATABASE_URL="sqlite:$work/radar.db" RADAR_ADDR=127.0.0.1:18181 RADAR_TRUSTED_PROXIES=127.0.0.1/32
"$work/radar" migrate >/dev/null
"$work/radar" orgs create storm >/dev/null
echo 'the right passphrase' | "$work/radar" users create --org storm --email victim@storm.example --password-stdin >/dev/null
key=$("$work/radar" keys create --org storm --name reader --scopes tracker:read 2>/dev/null)
"$work/radar" serve 2>"$work/serve.log" &
pid=$!
until curl -sf -o /dev/null http://$RADAR_ADDR/healthz; do sleep 0.2; done
# One sign-in first, so that the unknown-user hash and the pools exist before the baseline is read.
curl -s -o /dev/null -d 'email=nobody@storm.example&password=x' http://$RADAR_ADDR/login
sleep 1
rss() { awk '/VmRSS/{print $2}' /proc/$pid/status; }
before=$(rss)

( peak=0; while kill -0 $pid 2>/dev/null && [ ! -e "$work/stop" ]; do
    r=$(rss); [ "${r:-0}" -gt "$peak" ] && peak=$r; echo "$peak" > "$work/peak.new"; mv "$work/peak.new" "$work/peak"
    sleep 0.05
  done ) &
( while [ ! -e "$work/stop" ]; do
    curl -s -o /dev/null -w '%{http_code} %{time_total}\n' "http://$RADAR_ADDR/api/v1/tracker?limit=1" \
      -H "Authorization: Bearer $key" >> "$work/api"; sleep 0.05
  done ) &

for i in $(seq 1 200); do
  curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 -d "email=user$i@storm.example&password=wrong" \
    -H "X-Forwarded-For: 198.51.100.$i" http://$RADAR_ADDR/login >> "$work/logins" &
done
start=$(date +%s.%N)
while [ "$(wc -l < "$work/logins" 2>/dev/null || echo 0)" -lt 200 ]; do sleep 0.05; done
end=$(date +%s.%N)
sleep 0.5
touch "$work/stop"
sleep 0.3

echo "RSS before the storm: $((before / 1024)) MiB; peak during it: $(( $(cat "$work/peak") / 1024 )) MiB"
printf 'sign-ins answered in %.1f s: ' "$(echo "$end - $start" | bc)"
sort "$work/logins" | uniq -c | awk '{printf "%s x %s  ", $1, $2}'; echo
echo "API reads during the storm (status, count, slowest s):"
awk '{n[$1]++; if ($2 > m[$1]) m[$1] = $2} END {for (s in n) print "  " s, n[s], m[s]}' "$work/api"
