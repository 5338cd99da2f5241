#!/usr/bin/env bash
# Start-up time: from process start to the first successful sync (hello-world), median of 5 runs, with the JVM
# flags of the Dockerfile's ENTRYPOINT, without and with the application class-data archive the image builds; also
# the CPU time the process used until then (all its threads).
# Each JDK gets its own archive from a training run (`metahooks train`), as the image does; JDK 25 also an AOT cache.
#   scripts/startup.sh [runs]        JDKs: JAVA17 (default: java on PATH), JAVA25 (default: Temurin 25 if present)
#   scripts/startup.sh [runs] throughput   also small-call throughput (wrk, c=8) in each of the first 10 seconds
#                                    after the first sync, and at steady state, JDK 17 with its archive against
#                                    JDK 25 with its AOT cache, taking turns
#   scripts/startup.sh [runs] warm-up   only JDK 17 with its archive: start to readiness, and small-call throughput in
#                                    each of the first 10 seconds after readiness, with the warm-up before readiness
#                                    (METAHOOKS_WARM_UP_MS unset: its default; WARM_UP_MS sets it) and without it
#                                    (0), taking turns; medians per side at the end
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
java17=${JAVA17:-$(command -v java)}
java25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mvn -B -q -DskipTests package -pl :metahooks -am
mkdir -p target/startup

python3 - "$runs" "$java17" "$java25" "${2:-}" <<'PY'
import json, os, re, statistics, subprocess, sys, time, http.client, socket

runs, java17, java25, also = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
# The ENTRYPOINT of the Dockerfile, its /app paths mapped onto target/.
entry = next(l for l in open("Dockerfile") if l.startswith("ENTRYPOINT"))
words = json.loads(entry[len("ENTRYPOINT"):].strip())
# -XX:MaxRAM=512m: the JVM sizes itself as under the Deployment's limit (a 384 MiB heap that starts small).
flags = [w.replace("/app/", "target/") for w in words[1:-2]] + ["-XX:MaxRAM=512m"]
archive_flag = next((f for f in flags if f.startswith("-XX:SharedArchiveFile=")), None)
plain_flags = [f for f in flags if f != archive_flag]
body = open("src/test/resources/fixtures/hello-world/sync/01-first-sync.request.json", "rb").read()
# No warm-up but where the warm-up is measured: the other figures are of the server ready as soon as it listens.
env = dict(os.environ, METAHOOKS_LOG_LEVEL="warn", METAHOOKS_SHUTDOWN_DELAY_MS="0", METAHOOKS_WARM_UP_MS="0")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

def serve_until(java, jvm_flags, extra_env, answered, then):
    """Starts the server, asks answered(port) until it is true, then returns then(port, process, seconds since start)."""
    port = free_port()
    started = time.perf_counter()
    proc = subprocess.Popen([java, *jvm_flags, "-jar", "target/metahooks.jar"],
                            env={k: v for k, v in dict(env, METAHOOKS_PORT=str(port), **extra_env).items()
                                 if v is not None}, stdout=subprocess.DEVNULL,
                            stderr=open("target/startup/server.log", "ab"))
    try:
        while True:
            try:
                if answered(port):
                    return then(port, proc, time.perf_counter() - started)
            except OSError:
                pass
            if proc.poll() is not None:
                raise SystemExit(f"server exited with {proc.returncode}; see target/startup/server.log")
            time.sleep(0.002)
    finally:
        proc.terminate(); proc.wait()

def status(port, method, path, data=None):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request(method, path, data, {"Content-Type": "application/json"} if data else {})
    return c.getresponse().status

def first_sync(java, jvm_flags, then=None):
    def done(port, proc, elapsed):
        if then:
            return then(port)
        # CPU of every thread of the process (JIT, warm-up) so far: what a 1-CPU pod waits for, and much less
        # disturbed by other load on the machine than the wall time
        ticks = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()[11:13]
        return elapsed, sum(map(int, ticks)) / os.sysconf("SC_CLK_TCK")
    return serve_until(java, jvm_flags, {}, lambda port: status(port, "POST", "/hello-world/sync", body) == 200, done)

def train(java, archive, jvm_flags):
    subprocess.run([java, f"-XX:ArchiveClassesAtExit={archive}", "-Xlog:cds=error", *jvm_flags, "-jar", "target/metahooks.jar",
                    "train", "src/test/resources/fixtures"], env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=open("target/startup/train.log", "ab"))

def measure(label, java, jvm_flags):
    first_sync(java, jvm_flags)  # one unmeasured run: the page cache holds the jars afterwards
    measured = [first_sync(java, jvm_flags) for _ in range(runs)]
    times = [wall * 1000 for wall, _ in measured]
    cpu = [used * 1000 for _, used in measured]
    print(f"{label:44s} median {statistics.median(times):6.0f} ms   min {min(times):5.0f}   max {max(times):5.0f}"
          f"   CPU median {statistics.median(cpu):5.0f} ms   runs {' '.join(f'{t:.0f}' for t in times)}"
          f"   load {os.getloadavg()[0]:.1f}", flush=True)

def wrk(port, seconds):
    lua = "target/startup/post.lua"
    open(lua, "w").write('wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\n'
                         'local f=io.open("src/test/resources/fixtures/hello-world/sync/01-first-sync.request.json",'
                         '"rb")\nwrk.body=f:read("*all")\nf:close()\n')
    text = subprocess.run(["wrk", "-t2", "-c8", f"-d{seconds}s", "-s", lua, f"http://127.0.0.1:{port}/hello-world/sync"],
                          capture_output=True, text=True).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))

def first_seconds(port):
    """Calls/s in each of the first 10 seconds after the first sync, then the median of 3 x 4 s after 30 s more."""
    first = [wrk(port, 1) for _ in range(10)]
    wrk(port, 30)
    return first, statistics.median(wrk(port, 4) for _ in range(3))

def after_ready(java, jvm_flags, extra_env, then):
    """Starts the server, waits for /readyz to answer 200, and runs then(port, ms from start to ready)."""
    return serve_until(java, jvm_flags, extra_env, lambda port: status(port, "GET", "/readyz") == 200,
                       lambda port, proc, elapsed: then(port, elapsed * 1000))

print(f"flags of the Dockerfile: {' '.join(flags)}")
if also == "warm-up":
    archive = "target/startup/metahooks-JDK17.jsa"
    if os.path.exists(archive):
        os.remove(archive)
    train(java17, archive, plain_flags)
    jvm_flags = plain_flags + [f"-XX:SharedArchiveFile={archive}"]
    warm_up = os.environ.get("WARM_UP_MS")  # the warm-up side's METAHOOKS_WARM_UP_MS; unset: the default
    sides = [("without warm-up (METAHOOKS_WARM_UP_MS=0)", {"METAHOOKS_WARM_UP_MS": "0"}),
             (f"with the warm-up ({warm_up or 'default'} ms)", {"METAHOOKS_WARM_UP_MS": warm_up})]  # None: unset
    results = {label: [] for label, _ in sides}
    for round in range(runs):
        for label, extra in sides:
            ready, first, steady = after_ready(java17, jvm_flags, extra,
                                               lambda port, ms: (ms, *first_seconds(port)))
            results[label].append((ready, statistics.mean(first) / steady, first[0] / steady))
            print(f"{label:42s} ready after {ready:5.0f} ms   calls/s in seconds 1-10: "
                  f"{' '.join(f'{r:.0f}' for r in first)}   steady {steady:.0f}   first second {first[0] / steady:.2f}"
                  f" of steady, seconds 1-10 {statistics.mean(first) / steady:.2f}   load {os.getloadavg()[0]:.1f}",
                  flush=True)
    for label, rows in results.items():
        print(f"{label:42s} medians: ready after {statistics.median(r[0] for r in rows):5.0f} ms, seconds 1-10 "
              f"{statistics.median(r[1] for r in rows):.2f} of steady, first second "
              f"{statistics.median(r[2] for r in rows):.2f}")
    sys.exit(0)
for name, java in (("JDK 17", java17), ("JDK 25", java25)):
    if not os.path.exists(java):
        print(f"{name}: {java} not found, skipped"); continue
    version = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    archive = f"target/startup/metahooks-{name.replace(' ', '')}.jsa"
    if os.path.exists(archive):
        os.remove(archive)
    train(java, archive, plain_flags)
    measure(f"{name} ({version}) without archive", java, plain_flags)
    measure(f"{name} with the application archive", java, plain_flags + [f"-XX:SharedArchiveFile={archive}"])
    if name == "JDK 25":  # JDK 25 can also keep classes linked and profiled: an AOT cache (JEP 483, 514)
        cache = "target/startup/metahooks-JDK25.aot"
        if os.path.exists(cache):
            os.remove(cache)
        subprocess.run([java, f"-XX:AOTCacheOutput={cache}", "-Xlog:aot=error", "-Xlog:cds=error", *plain_flags,
                        "-jar", "target/metahooks.jar", "train", "src/test/resources/fixtures"], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=open("target/startup/train.log", "ab"))
        measure(f"{name} with an AOT cache (-XX:AOTCache)", java, plain_flags + [f"-XX:AOTCache={cache}"])

if also == "throughput":
    sides = [("JDK 17 with the application archive", java17,
              plain_flags + ["-XX:SharedArchiveFile=target/startup/metahooks-JDK17.jsa"]),
             ("JDK 25 with an AOT cache", java25, plain_flags + ["-XX:AOTCache=target/startup/metahooks-JDK25.aot"])]
    for round in range(2):
        for label, java, jvm_flags in sides:
            first, steady = first_sync(java, jvm_flags, first_seconds)
            print(f"{label:40s} calls/s in seconds 1-10: {' '.join(f'{r:.0f}' for r in first)}   steady {steady:.0f}"
                  f"   first second {first[0] / steady:.2f} of steady, seconds 1-10 {statistics.mean(first) / steady:.2f}"
                  f"   load {os.getloadavg()[0]:.1f}", flush=True)
PY
