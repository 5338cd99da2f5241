#!/usr/bin/env bash
# HTTP load against the real server (the jar, with the Dockerfile's JVM flags and a 512 MiB heap, as the
# Deployment's memory limit gives it): wrk at concurrency 1, 8 and 64 for a small request (hello-world) and a
# large one (a CatSet of 1,000 Pods, 3.9 MB); throughput, p50/p99/max latency, and the server's peak RSS.
# Then a CatSet of 10,000 Pods (39 MB) posted alone: median and spread of 5 warm calls.
# Server settings compared: the production default (INFO log line per call, response cache on), the cache off
# (every call computed), and the cache off with METAHOOKS_LOG_LEVEL=warn (what the access log costs).
#   scripts/load.sh [seconds per run, default 10]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
port=${METAHOOKS_LOAD_PORT:-18081}
if ! command -v wrk >/dev/null 2>&1; then
  echo "installing wrk from Debian's packages" >&2
  (apt-get update -qq && apt-get install -y -qq wrk) >/dev/null
fi
mvn -B -q -DskipTests package test-compile -pl :metahooks -am
mvn -B -q test-compile dependency:build-classpath -pl :metahooks -am -Dmdep.includeScope=test -Dmdep.outputFile=target/test.classpath
out=target/load
mkdir -p "$out"
generate() { [ -f "$out/$2" ] || java -cp "target/test-classes:target/classes:$(cat target/test.classpath)" \
  -Dmetahooks.projectDir="$PWD" dev.metahooks.bench.RequestGenerator "$1" "$out/$2"; }
generate hello-world small.json
generate catset:1000 large.json
generate catset:10000 huge.json
cat > "$out/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = io.open(os.getenv("BODY_FILE"), "rb")
wrk.body = file:read("*all")
file:close()
LUA

# The ENTRYPOINT's JVM flags (paths mapped onto target/), the heap pinned to the Deployment's.
flags=$(python3 -c 'import json; e=next(l for l in open("Dockerfile") if l.startswith("ENTRYPOINT"));
print(" ".join(w.replace("/app/","target/") for w in json.loads(e[10:])[1:-2]))')
if [[ $flags == *SharedArchiveFile=* ]] && [ ! -f target/metahooks.jsa ]; then
  # shellcheck disable=SC2086 # $flags holds several JVM options: split into words on purpose
  METAHOOKS_LOG_LEVEL=warn java -XX:ArchiveClassesAtExit=target/metahooks.jsa ${flags//-XX:SharedArchiveFile=target\/metahooks.jsa/} \
    -jar target/metahooks.jar train src/test/resources/fixtures 2>/dev/null
fi

server=
stop_server() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi; server=; }
trap stop_server EXIT
start_server() { # env assignments for the server
  # shellcheck disable=SC2086 # $flags holds several JVM options: split into words on purpose
  env METAHOOKS_PORT="$port" METAHOOKS_SHUTDOWN_DELAY_MS=0 "$@" java $flags -Xmx512m -jar target/metahooks.jar \
    2>> "$out/server.log" &
  server=$!
  for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.05; done
  echo "server did not start" >&2; exit 1
}
peak_rss() { awk '/VmHWM/ {printf "%d MB", $2/1024}' "/proc/$server/status"; }
run_wrk() { # name body concurrency
  local threads=$(( $3 < 2 ? 1 : 2 ))
  BODY_FILE="$out/$2" wrk -t"$threads" -c"$3" -d"${seconds}s" --timeout 30s --latency -s "$out/post.lua" \
    "http://127.0.0.1:$port/$4" > "$out/wrk.txt"
  python3 - "$1" "$3" "$out/wrk.txt" <<'PY'
import re, sys
name, c, text = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
def ms(v):
    n, unit = re.match(r"([\d.]+)(us|ms|s)", v).groups()
    return float(n) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
p50 = ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1)); p99 = ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1))
mx = ms(re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", text).group(1))
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
bad = re.search(r"Non-2xx or 3xx responses: (\d+)", text); errors = re.search(r"Socket errors: (.*)", text)
print(f"  {name:6s} c={c:>2s}  {rps:9.0f} req/s   p50 {p50:8.2f} ms   p99 {p99:8.2f} ms   max {mx:8.2f} ms"
      + (f"   non-2xx {bad.group(1)}" if bad else "") + (f"   socket errors {errors.group(1)}" if errors else ""))
PY
}
huge_calls() {
  local times=()
  sleep 5 # calls that wrk left behind finish first
  for i in $(seq 1 8); do
    for _ in 1 2 3 4 5; do # 429: retry after the second Retry-After asks for, as Metacontroller does
      t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H 'Content-Type: application/json' \
        --data-binary "@$out/huge.json" "http://127.0.0.1:$port/catset/sync")
      [ "${t%% *}" = 429 ] || break
      sleep 1
    done
    [ "${t%% *}" = 200 ] || { echo "  catset 10,000 Pods: HTTP ${t%% *}"; return; }
    [ "$i" -gt 3 ] && times+=("${t#* }") # three warm-up calls
  done
  python3 -c 'import statistics,sys; t=[float(x)*1000 for x in sys.argv[1:]];
print(f"  catset 10,000 Pods (39 MB) alone: median {statistics.median(t):.0f} ms, min {min(t):.0f}, max {max(t):.0f} (5 warm calls)")' "${times[@]}"
}

for setting in "default (INFO access log, cache on)|" \
               "cache off|METAHOOKS_RESPONSE_CACHE_BYTES=0" \
               "cache off, METAHOOKS_LOG_LEVEL=warn|METAHOOKS_RESPONSE_CACHE_BYTES=0 METAHOOKS_LOG_LEVEL=warn"; do
  label=${setting%%|*}; vars=${setting#*|}
  echo "== $label; JVM: $flags -Xmx512m"
  # shellcheck disable=SC2086 # $vars holds several assignments: split into words on purpose
  start_server $vars
  run_wrk small small.json 1 hello-world/sync >/dev/null # warm-up
  run_wrk large large.json 8 catset/sync >/dev/null
  for c in 1 8 64; do run_wrk small small.json $c hello-world/sync; done
  for c in 1 8 64; do run_wrk large large.json $c catset/sync; done
  huge_calls
  echo "  server peak RSS $(peak_rss)"
  stop_server
done
if grep -q OutOfMemoryError "$out/server.log"; then echo "OutOfMemoryError in $out/server.log"; fi
