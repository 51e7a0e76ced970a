"""Recordings read by URL: `rsbag.open(url)` and `rsbag.parallel` over
HTTP from Debian's nginx on 127.0.0.1 (started here, range requests) give
exactly what the local files give, and `info`/`check` too, for `.bag` and
`.db3` files."""

import hashlib
import shutil
import socket
import subprocess
import time

import pytest

import rsbag
import rsbag.parallel
from references import DB3, SAMPLES

# librealsense 2.55's and rsbag's .bag files, librealsense 2.59's .db3.
BAGS = sorted(SAMPLES.glob("*.bag")) + sorted(DB3.glob("*.db3"))


def digest(frame):
    return (frame.stream_name, frame.frame_number, frame.timestamp,
            hashlib.sha256(frame.get_data()).hexdigest())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """nginx serving copies of the sample bags; yields their base URL."""
    root = tmp_path_factory.mktemp("served")
    for bag in BAGS:
        shutil.copy(bag, root / bag.name)
    conf_dir = tmp_path_factory.mktemp("nginx")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    (conf_dir / "nginx.conf").write_text(
        f"daemon off;\nmaster_process off;\nworker_processes 1;\npid {conf_dir}/nginx.pid;\n"
        f"error_log {conf_dir}/error.log;\nevents {{ worker_connections 64; }}\n"
        f"http {{\n  access_log {conf_dir}/access.log;\n  client_body_temp_path {conf_dir}/body;\n"
        f"  server {{\n    listen 127.0.0.1:{port};\n    root {root};\n  }}\n}}\n")
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    server = subprocess.Popen([nginx, "-p", str(conf_dir), "-e", str(conf_dir / "error.log"),
                               "-c", str(conf_dir / "nginx.conf")])
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, "nginx exited at start"
                assert time.monotonic() < deadline, "nginx does not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.kill()
        server.wait()


@pytest.mark.parametrize("bag", BAGS, ids=[b.name for b in BAGS])
def test_open_url_reads_the_frames_of_the_file(served, bag):
    url = f"{served}/{bag.name}"
    remote = rsbag.open(url)
    assert remote.path == url
    local = [digest(f) for f in rsbag.open(bag).frames()]
    assert local
    assert [digest(f) for f in remote.frames()] == local
    assert rsbag.info(url)["messages"] == rsbag.info(bag)["messages"]
    assert rsbag.check(url) == rsbag.check(bag)


def test_dask_over_urls_gives_what_one_local_loop_gives(served):
    urls = [f"{served}/{bag.name}" for bag in BAGS]
    items = rsbag.parallel.work_items(urls, seconds=0.05)
    assert len(items) > len(urls)
    result = rsbag.parallel.map_frames(items, digest).compute(scheduler="processes")
    assert result == [digest(f) for bag in BAGS for f in rsbag.open(bag).frames()]


def test_a_missing_url_is_a_clear_error(served):
    url = f"{served}/no-such.bag"
    with pytest.raises(Exception) as error:
        rsbag.open(url)
    assert url in str(error.value) and "not found" in str(error.value).lower()


@pytest.fixture()
def faulty(served):
    """The fault-injecting proxy of the command line's tests in front of
    nginx; yields its base URL (a fault is the first part of a path)."""
    upstream = served.rsplit(":", 1)[1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    script = SAMPLES.parent / "cli" / "tests" / "servers" / "fault_proxy.py"
    proxy = subprocess.Popen(["python3", str(script), str(port), upstream])
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the proxy does not start"
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proxy.kill()
        proxy.wait()


@pytest.mark.parametrize("bag", [BAGS[0], sorted(DB3.glob("*.db3"))[0]], ids=lambda b: b.name)
def test_a_failed_read_is_an_io_error_never_damage(faulty, bag, monkeypatch):
    """`rsbag.check` of a healthy recording whose reads fail (every body
    cut off after the first) raises rsbag.IoError, never a report of
    damage."""
    monkeypatch.setenv("RSBAG_REMOTE_TIMEOUT", "2")
    monkeypatch.setenv("RSBAG_REMOTE_RETRIES", "2")
    url = f"{faulty}/cut-always/{bag.name}"
    with pytest.raises(rsbag.IoError) as error:
        rsbag.check(url)
    assert url in str(error.value)


def test_rerun_command_line_logs_a_recording_on_a_url(served, tmp_path):
    """`python -m rsbag.rerun URL --save` logs what the local file gives
    (test_rerun.py checks the .rrd's contents against librealsense)."""
    import sys

    from rerun.chunk import RrdReader

    bag = SAMPLES / "librealsense-depth-color-lz4.bag"
    out = tmp_path / "remote.rrd"
    done = subprocess.run([sys.executable, "-m", "rsbag.rerun", f"{served}/{bag.name}",
                           "--save", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    store = RrdReader(out).stream().collect()
    local = rsbag.open(bag)
    camera = local.info.get("Serial Number") or bag.stem
    entity = f"/{camera}/depth/image"
    table = store.reader(index="time", contents=entity).to_arrow_table()
    logged = [bytes(v[0]) for v in table.column(f"{entity}:DepthImage:buffer").to_pylist()
              if v is not None]
    assert logged == [f.get_data() for f in local.frames(streams=["Depth"])]
