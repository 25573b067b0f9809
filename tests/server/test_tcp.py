"""``--tcp PORT`` serves on 127.0.0.1 only."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(sock: socket.socket) -> dict:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, rest = data.split(b"\r\n\r\n", 1)
    length = int(next(h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length")).split(b":")[1])
    while len(rest) < length:
        rest += sock.recv(4096)
    return json.loads(rest[:length])


def listening_addresses(port: int) -> set[str]:
    """Local addresses of sockets listening on ``port`` (Linux /proc)."""
    out = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            addr, p = local.split(":")
            if int(p, 16) == port and state == "0A":  # LISTEN
                out.add(addr)
    return out


def test_tcp_binds_loopback_and_answers_initialize():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "distaff.server.app", "--tcp", str(port)], cwd=ROOT,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen"
                time.sleep(0.1)
        assert listening_addresses(port) == {"0100007F"}  # 127.0.0.1, nothing else
        with sock:
            sock.sendall(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                "params": {"processId": None, "rootUri": None, "capabilities": {}}}))
            reply = read_frame(sock)
            assert reply["id"] == 1
            assert reply["result"]["serverInfo"]["name"] == "distaff"
            commands = reply["result"]["capabilities"]["executeCommandProvider"]["commands"]
            assert sorted(commands) == ["distaff.checkFile", "distaff.checkFromHere", "distaff.clearContext",
                                        "distaff.pinThread", "distaff.writeReproducer"]
    finally:
        proc.kill()
        proc.wait()
