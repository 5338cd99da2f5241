"""Baseline: the hello-world sync hook as a minimal Python http.server, doing the work metahooks' controller does
(parse the request, build the Pod, write the answer). Written for the comparison in docs/performance.md.
    python3 scripts/baselines/hello_world.py PORT
"""
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Hook(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/hello-world/sync":
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        parent = request["parent"]
        pods = (request.get("children") or {}).get("Pod.v1") or {}
        answer = {
            "status": {"succeeded": sum(1 for p in pods.values() if p.get("status", {}).get("phase") == "Succeeded")},
            "children": [{
                "apiVersion": "v1", "kind": "Pod", "metadata": {"name": parent["metadata"]["name"]},
                "spec": {"restartPolicy": "OnFailure", "containers": [
                    {"name": "hello", "image": "busybox", "command": ["echo", "Hello, %s!" % parent["spec"]["who"]]}]},
            }],
        }
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1] if len(sys.argv) > 1 else 18092)), Hook).serve_forever()
