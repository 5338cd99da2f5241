"""Baseline: the hello-world sync hook as a minimal Python http.server, doing the work metahooks' controller does
(parse the request, build the Pod, write the answer). Written for the comparison in docs/performance.md.
    python3 scripts/baselines/hello_world.py PORT

The server model is that of Metacontroller's own Python examples (docs/src/guide/create.md at v4.17.2, and
examples/*/manifest/sync.py): one thread, HTTP/1.0, the connection closed after each answer. The answer leaves in
one write with Nagle's algorithm off, so that no header waits for a delayed ACK before its body.
"""
import json
import socket
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer


class Hook(BaseHTTPRequestHandler):
    def setup(self):
        super().setup()
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, status, body):
        head = "HTTP/1.0 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (
            status, "OK" if status == 200 else "Not Found", len(body))
        self.wfile.write(head.encode() + body)

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path != "/hello-world/sync":
            self.answer(404, b"")
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
        self.answer(200, json.dumps(answer).encode())

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", int(sys.argv[1] if len(sys.argv) > 1 else 18092)), Hook).serve_forever()
