"""`script/cluster down` stops what `up` started, whatever path names its binary: `up`
records `.build/release/bindery` when it builds one, a link, which /proc never shows
(seen twice: two nodes alive after `down`)."""
import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone as far as `down` is concerned.
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def test_down_stops_a_node_whose_recorded_binary_is_a_link(tmp_path):
    binary = Path(os.environ.get("BINDERY_BINARY", ROOT / ".build/debug/bindery")).resolve()
    link_dir = tmp_path / "release"
    link_dir.mkdir()
    link = link_dir / "bindery"
    link.symlink_to(binary)
    node = subprocess.Popen(
        [str(link), "serve", "--host", "127.0.0.1", "--port", "0", "--database", ":memory:", "--public-directory", str(ROOT / "Public")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        assert node.stdout.readline().startswith(b"Bindery listening on"), "the node did not start"
        cluster = tmp_path / "cluster"
        cluster.mkdir()
        (cluster / "state").write_text(f"binary {link}\nnode 1 0 {node.pid}\n")
        stopped = subprocess.run([str(ROOT / "script/cluster"), "down"], env={**os.environ, "BINDERY_CLUSTER_DIR": str(cluster)},
                                 capture_output=True, text=True, timeout=60)
        assert stopped.returncode == 0, stopped.stderr
        deadline = time.monotonic() + 20
        while node.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert node.poll() == 0, "down left the node running (or it did not exit cleanly on SIGTERM)"
        assert not (cluster / "state").exists()
    finally:
        if node.poll() is None:
            node.kill()
            node.wait()
