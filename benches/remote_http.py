"""Reading a recording over HTTP against reading it from the local disk.

Serves the recording with Debian's nginx on 127.0.0.1 (a port of its own,
configuration and logs in a temporary directory), then, ROUNDS times in
alternating order, times `rsbag frames --json` of every frame from the
local file and from its URL (the page cache warm for both: nginx reads the
same file), and `rsbag info URL`, whose requests and bytes nginx's access
log counts, and `rsbag info URL` again with a cache directory (`--cache`,
filled by a first run): the requests and bytes of the second. Prints the
median of the per-round speed ratios (remote over local) with their
spread, and the machine's load averages before and after (the figures of
a shared machine are only as good as its load).

Usage: python3 benches/remote_http.py RECORDING.bag [ROUNDS] [RSBAG]
(RSBAG defaults to target/release/rsbag).
"""

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def serve(root, work):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with open(os.path.join(work, "nginx.conf"), "w") as conf:
        conf.write(
            f"daemon off;\nmaster_process off;\nworker_processes 1;\npid {work}/nginx.pid;\n"
            f"error_log {work}/error.log;\nevents {{ worker_connections 256; }}\n"
            "http {\n  log_format counted '$request_method $uri $status $bytes_sent \"$http_range\"';\n"
            f"  access_log {work}/access.log counted;\n  client_body_temp_path {work}/body;\n"
            f"  sendfile on;\n  server {{\n    listen 127.0.0.1:{port};\n    root {root};\n  }}\n}}\n")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    server = subprocess.Popen([nginx, "-p", work, "-e", f"{work}/error.log", "-c", f"{work}/nginx.conf"])
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server, port
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise SystemExit("nginx does not start")


def timed(args):
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def take_log(work):
    path = os.path.join(work, "access.log")
    time.sleep(0.3)
    with open(path) as log:
        lines = log.read().splitlines()
    open(path, "w").close()
    return len(lines), sum(int(line.split(" ")[3]) for line in lines)


def main():
    recording = os.path.abspath(sys.argv[1])
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    rsbag = sys.argv[3] if len(sys.argv) > 3 else "target/release/rsbag"
    size = os.path.getsize(recording)
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as work:
        server, port = serve(os.path.dirname(recording), work)
        url = f"http://127.0.0.1:{port}/{os.path.basename(recording)}"
        try:
            ratios, local_times, remote_times = [], [], []
            timed([rsbag, "frames", "--json", recording])  # the page cache warm
            for round_ in range(rounds):
                order = [("local", recording), ("remote", url)]
                if round_ % 2:
                    order.reverse()
                took = {side: timed([rsbag, "frames", "--json", path]) for side, path in order}
                take_log(work)
                local_times.append(took["local"])
                remote_times.append(took["remote"])
                ratios.append(took["local"] / took["remote"])
            info_times = []
            for _ in range(rounds):
                info_times.append(timed([rsbag, "info", url]))
                requests, sent = take_log(work)
            cache = os.path.join(work, "cache")
            timed([rsbag, "--cache", cache, "info", url])
            take_log(work)
            cached_time = timed([rsbag, "--cache", cache, "info", url])
            cached_requests, cached_sent = take_log(work)
            print(f"load averages (1, 5, 15 min) before: {load_before}, after: {os.getloadavg()}")
            print(f"recording: {size / 1e6:.0f} MB, {rounds} rounds")
            print(f"every frame: local median {statistics.median(local_times):.2f} s, "
                  f"over HTTP {statistics.median(remote_times):.2f} s")
            print(f"speed over HTTP / local: median {statistics.median(ratios):.2f} "
                  f"(spread {min(ratios):.2f}-{max(ratios):.2f})")
            print(f"info over HTTP: median {statistics.median(info_times) * 1000:.0f} ms, "
                  f"{requests} requests, {sent / 1e6:.2f} MB")
            print(f"info again with --cache: {cached_time * 1000:.0f} ms, "
                  f"{cached_requests} requests, {cached_sent / 1e6:.2f} MB")
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
