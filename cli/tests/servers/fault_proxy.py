"""A fault-injecting HTTP proxy for the tests of reading recordings by URL.

Usage: fault_proxy.py PORT UPSTREAM_PORT

Forwards GET requests to nginx on 127.0.0.1:UPSTREAM_PORT, with faults
chosen by the first part of the path, which is stripped before forwarding:

  /errors-N/...    the first N requests answer 503, then every one passes
  /stall-N/...     request N (from 1) waits 30 s before answering
  /stall-always/... every request after the first waits 30 s
  /cut-N/...       request N sends half its body and closes the connection
  /cut-always/...  every request after the first sends half its body
  /replace-N/...   from request N on, the file served is NAME.new (another
                   version of it: another ETag), as if replaced meanwhile
  /unpinned/...    no fault, but answers without ETag or Last-Modified
                   (and, having none, takes no conditional request)
  /unpinnedreplace-N/... as /unpinned/, and from request N on the file
                   served is NAME.new
  /plain/...       no fault

Counts are per fault path and file. Stops by itself after 10 minutes.
"""

import http.client
import http.server
import re
import sys
import threading
import time

COUNTS = {}
LOCK = threading.Lock()


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_HEAD(self):
        self.forward(head=True)

    def do_GET(self):
        self.forward(head=False)

    def forward(self, head):
        match = re.match(r"^/([a-z]+)-?([a-z0-9]*)(/.*)$", self.path)
        if not match:
            self.send_error(404)
            return
        fault, arg, path = match.group(1), match.group(2), match.group(3)
        key = f"{fault}-{arg}{path}"
        with LOCK:
            COUNTS[key] = COUNTS.get(key, 0) + 1
            n = COUNTS[key]
        if fault == "errors" and n <= int(arg):
            self.reply(503, b"try again")
            return
        if fault == "stall" and (arg == "always" and n > 1 or arg.isdigit() and n == int(arg)):
            time.sleep(30)
        if fault in ("replace", "unpinnedreplace") and n >= int(arg):
            path = path + ".new"
        unpinned = fault.startswith("unpinned")
        upstream = http.client.HTTPConnection("127.0.0.1", UPSTREAM, timeout=60)
        passed = ("range",) if unpinned else ("range", "if-match", "if-unmodified-since")
        headers = {k: v for k, v in self.headers.items() if k.lower() in passed}
        upstream.request("HEAD" if head else "GET", path, headers=headers)
        response = upstream.getresponse()
        body = response.read()
        self.send_response(response.status)
        for k, v in response.getheaders():
            validator = k.lower() in ("etag", "last-modified")
            if k.lower() in ("content-type", "content-range", "etag", "last-modified", "accept-ranges") and not (unpinned and validator):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        cut = (fault == "cut" and (arg == "always" and n > 1 or arg.isdigit() and n == int(arg)))
        if cut:
            self.send_header("Connection", "close")
        self.end_headers()
        if head:
            return
        if cut:
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)

    def reply(self, status, body):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gave up on a stalled or cut response: expected.
        pass


if __name__ == "__main__":
    port, UPSTREAM = int(sys.argv[1]), int(sys.argv[2])
    server = Server(("127.0.0.1", port), Proxy)
    threading.Timer(600, server.shutdown).start()
    server.serve_forever()
