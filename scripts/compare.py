"""Driver of scripts/compare.sh: starts the servers, sends the requests, prints the table."""
import http.client
import os
import re
import socket
import statistics
import subprocess
import sys
import threading
import time

out, rounds, flags = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
small = open(f"{out}/small.json", "rb").read()
k1 = open(f"{out}/catset-1000.json", "rb").read()
k10 = open(f"{out}/catset-10000.json", "rb").read()
log = open(f"{out}/servers.log", "ab")


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p


def start(cmd, env=None):
    port = free_port()
    proc = subprocess.Popen([c.replace("PORT", str(port)) for c in cmd], stdout=log, stderr=log,
                            env=dict(os.environ, METAHOOKS_PORT=str(port), **(env or {})))
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.05)
    raise SystemExit(f"{cmd[0]} did not start")


def post(port, path, body):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    t = time.perf_counter()
    try:
        c.request("POST", path, body, {"Content-Type": "application/json"})
        r = c.getresponse(); r.read()
        status = r.status
    except OSError:  # the server answered early (413) and closed while the body was still being sent
        status = -1
    return status, (time.perf_counter() - t) * 1000


def retried(port, path, body):
    """As Metacontroller calls: after a 429 or 503, again one second later (at most 30 times)."""
    first = time.perf_counter()
    statuses = []
    for _ in range(30):
        status, _ = post(port, path, body)
        statuses.append(status)
        # -1: the server answered (429) before the body was sent and closed; Python's client, unlike Go's, loses
        # that answer, so this is a refusal too
        if status not in (429, 503, -1):
            break
        time.sleep(1)
    return statuses, (time.perf_counter() - first) * 1000


def peak_rss(proc):
    return int(re.search(r"VmHWM:\s+(\d+)", open(f"/proc/{proc.pid}/status").read()).group(1)) // 1024


def wrk(port, seconds=4):
    lua = f"{out}/post.lua"
    open(lua, "w").write('wrk.method="POST"\nwrk.headers["Content-Type"]="application/json"\n'
                         f'local f=io.open("{out}/small.json","rb")\nwrk.body=f:read("*all")\nf:close()\n')
    text = subprocess.run(["wrk", "-t2", "-c8", f"-d{seconds}s", "--latency", "-s", lua,
                           f"http://127.0.0.1:{port}/hello-world/sync"], capture_output=True, text=True).stdout
    def ms(v):
        n, unit = re.match(r"([\d.]+)(us|ms|s)", v).groups()
        return float(n) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    return (int(re.search(r"(\d+) requests in", text).group(1)),
            ms(re.search(r"^\s+99%\s+(\S+)", text, re.M).group(1)),
            ms(re.search(r"^\s+50%\s+(\S+)", text, re.M).group(1)))


TICK = os.sysconf("SC_CLK_TCK")


def cpu(proc):
    """CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat."""
    fields = open(f"/proc/{proc.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def load():
    return open("/proc/loadavg").read().split()[:3]


print("load average at start:", " ".join(load()))
# As in the Deployment's 512 MiB limit: MaxRAMPercentage makes the heap 384 MiB, and the first heap is 1/64 of it, as
# in the pod (-Xmx384m on a host of 24 GiB would start with all 384 MiB committed).
java = ["java", *flags, "-XX:MaxRAM=512m", "-jar", "target/metahooks.jar"]
computed = {"METAHOOKS_RESPONSE_CACHE_BYTES": "0", "METAHOOKS_SHUTDOWN_DELAY_MS": "0"}
mh, mh_port = start(java, computed)
node, node_port = start(["node", "scripts/baselines/hooks.js", "PORT"])
py, py_port = start(["python3", "scripts/baselines/hello_world.py", "PORT"])
try:
    # Warm-up: the JIT compiles the hot paths on every size.
    for _ in range(3):
        post(mh_port, "/catset/sync", k10); post(node_port, "/catset/sync", k10)
    for _ in range(10):
        post(mh_port, "/catset/sync", k1); post(node_port, "/catset/sync", k1)
    # Small calls to a steady state: the JVM's throughput climbs for 25-30 s of full load; Python has no JIT.
    for _ in range(3):
        wrk(mh_port, 10)
    wrk(py_port, 4)
    # Small requests: 3 x 4 s at c=8, the two servers alternating.
    # CPU per call: each server's own CPU over its runs only (the other one is idle meanwhile).
    small_runs = {"metahooks": [], "python": []}
    small_cpu = {"metahooks": 0.0, "python": 0.0}
    for _ in range(3):
        for name, proc, port in (("metahooks", mh, mh_port), ("python", py, py_port)):
            before = cpu(proc); small_runs[name].append(wrk(port)); small_cpu[name] += cpu(proc) - before
    # Sized requests, alternating call by call; medians.
    sized, sized_cpu = {}, {}
    for name, body in (("1000", k1), ("10000", k10)):
        times = {"metahooks": [], "node": []}
        used = {"metahooks": 0.0, "node": 0.0}
        n = rounds * (3 if name == "1000" else 1)
        for _ in range(n):
            for server, proc, port in (("metahooks", mh, mh_port), ("node", node, node_port)):
                before = cpu(proc)
                s, t = post(port, "/catset/sync", body); assert s == 200, s; times[server].append(t)
                used[server] += cpu(proc) - before
        sized[name] = times
        sized_cpu[name] = {server: used[server] / n for server in used}
    floor = {name: float(subprocess.run(["node", "scripts/baselines/floor.js", f"{out}/catset-{name}.json",
                                         str(rounds)], capture_output=True, text=True).stdout)
             for name in ("1000", "10000")}
    mh_rss_single = peak_rss(mh)
    classpath = "target/test-classes:target/classes:" + open("target/test.classpath").read().strip()
    tokenize = {name: [float(v) for v in subprocess.run(
        ["java", "-XX:MaxRAM=512m", "-cp", classpath, "dev.metahooks.bench.TokenizeFloor",
         f"{out}/catset-{name}.json", str(rounds)], capture_output=True, text=True).stdout.split()[:2]]
        for name in ("1000", "10000")}
finally:
    for p in (mh, node, py):
        p.terminate(); p.wait()

# Four 10,000-Pod requests at once on a fresh server; then one in a 256 MiB heap.
mh, mh_port = start(java, computed)
for _ in range(2):  # a cold JVM may miss the deadline on its first 39 MB request
    retried(mh_port, "/catset/sync", k10)
results = []
threads = [threading.Thread(target=lambda: results.append(retried(mh_port, "/catset/sync", k10))) for _ in range(4)]
[t.start() for t in threads]; [t.join() for t in threads]
four_rss = peak_rss(mh)
mh.terminate(); mh.wait()
small_heap = ["java", *flags, "-Xmx256m", "-jar", "target/metahooks.jar"]
# The defaults follow the heap (a body budget of 28 MiB, answers up to 8 MiB): a 39 MB body and its 10 MB
# answer need them raised.
mh, mh_port = start(small_heap, dict(computed, METAHOOKS_BODY_BUDGET_BYTES=str(40 << 20),
                                     METAHOOKS_MAX_BODY_BYTES=str(40 << 20),
                                     METAHOOKS_MAX_RESPONSE_BYTES=str(12 << 20)))
heap256 = [retried(mh_port, "/catset/sync", k10) for _ in range(3)]
heap256_rss = peak_rss(mh)
mh.terminate(); mh.wait()

print("load average at end:", " ".join(load()))
mhs, pys = small_runs["metahooks"], small_runs["python"]
mh_req, py_req = sum(r[0] for r in mhs), sum(r[0] for r in pys)
print(f"| hello-world sync, c=8, wrk 3 x 4 s | {mh_req:,} requests, p50 {statistics.median(r[2] for r in mhs):.2f} ms,"
      f" p99 {max(r[1] for r in mhs):.2f} ms (worst run) | Python http.server {py_req:,}, p99"
      f" {max(r[1] for r in pys):.2f} ms | {mh_req / py_req:.1f}x the throughput |")
for name in ("1000", "10000"):
    m, n = statistics.median(sized[name]["metahooks"]), statistics.median(sized[name]["node"])
    print(f"| CatSet of {int(name):,} Pods ({len(k1 if name == '1000' else k10) / 1e6:.0f} MB), median of"
          f" {len(sized[name]['metahooks'])} | {m:.1f} ms | Node hook {n:.1f} ms; Node JSON.parse+stringify alone"
          f" {floor[name]:.1f} ms | {m / n:.2f}x Node's hook, {m / floor[name]:.2f}x its parse+stringify |")
m1, m10 = statistics.median(sized["1000"]["metahooks"]), statistics.median(sized["10000"]["metahooks"])
print(f"| time per Pod 1,000 -> 10,000 | {m1 / 1000 * 1000:.1f} -> {m10 / 10000 * 1000:.1f} us | | {m10 / 10 / m1:.2f}x |")
print(f"| 4 x 10,000 Pods at once, heap 384 MiB (MaxRAM 512 MiB), retried after 429/503 | statuses {[s for s, _ in results]},"
      f" all answered after {max(t for _, t in results):.0f} ms | | peak RSS {four_rss} MiB"
      f" (the server of the runs above: {mh_rss_single} MiB) |")
print(f"| 10,000 Pods in a 256 MiB heap (body budget and limit 40 MiB, answers 12 MiB), retried | statuses"
      f" {[s for s, _ in heap256]},"
      f" {heap256[-1][1]:.0f} ms |"
      f" | peak RSS {heap256_rss} MiB |")
mh_small, py_small = small_cpu["metahooks"] / mh_req * 1e6, small_cpu["python"] / py_req * 1e6
print(f"| CPU per hello-world call (c=8, /proc/<pid>/stat over the runs above) | {mh_small:.0f} us |"
      f" Python {py_small:.0f} us | {mh_small / py_small:.2f}x |")
for name in ("1000", "10000"):
    m, n = sized_cpu[name]["metahooks"] * 1000, sized_cpu[name]["node"] * 1000
    wall, tok_cpu = tokenize[name]
    print(f"| CPU per CatSet call of {int(name):,} Pods | {m:.0f} ms | Node {n:.0f} ms | {m / n:.2f}x Node;"
          f" Jackson's tokenizer alone on the same bytes {wall:.1f} ms ({tok_cpu:.1f} ms CPU): {m / tok_cpu:.1f}x it |")
