"""Request bodies, slow or idle connections, connections per address, and the error shape.

Before: four 100 MiB bodies pushed the process from 114 MB to 874 MB; 300 half-sent request
headers stayed open for minutes; 200,000 unknown options got a 1.6 MB error; a 404 answered
FastAPI's own `{"detail": ...}`.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from pathlib import Path

from tests.support.attacks import close_quietly, error_of, http, raw, read_all
from tests.support.serverproc import Server, wait_until

from carroca.server.edge.guard import address_key

MiB = 1024 * 1024


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def post_declared(server: Server, size: int) -> bytes | None:
    """A request that declares a huge body and starts sending it."""
    sock = raw(server)
    try:
        sock.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: " + str(size).encode() + b"\r\n\r\n")
        try:
            for _ in range(64):  # up to 4 MiB: the server answers long before
                sock.sendall(b"x" * 65536)
        except OSError:
            pass
        return read_all(sock, 20)
    finally:
        close_quietly(sock)


def post_chunked(server: Server, total: int) -> bytes | None:
    """A body with no declared length, streamed in chunks."""
    sock = raw(server)
    try:
        sock.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"x" * 16384
        sent = 0
        try:
            while sent < total:
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        return read_all(sock, 20)
    finally:
        close_quietly(sock)


def test_large_bodies_get_413_and_cost_no_memory(shared_server: Server) -> None:
    server = shared_server
    before = rss_kib(server.proc.pid)
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda _: post_declared(server, 100 * MiB), range(4)))
    for answer in answers:
        assert answer is not None and answer.startswith(b"HTTP/1.1 413"), answer
        assert b'"code":"too_large"' in answer.replace(b" ", b"")
    streamed = post_chunked(server, 2 * MiB)
    assert streamed is not None and streamed.startswith(b"HTTP/1.1 413"), streamed
    assert rss_kib(server.proc.pid) - before < 50 * 1024  # was +760 MB
    with http(server) as c:  # a body under the limit is read as usual
        r = c.post("/api/guest", json={"name": "x" * 60_000})
        assert r.status_code == 422 and error_of(r)["code"] == "bad_request"
        assert c.get("/api/health").status_code == 200


def test_slow_and_idle_connections_are_closed(servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_HEADER_TIMEOUT": "2", "CARROCA_BODY_TIMEOUT": "2",
                          "CARROCA_MAX_CONNECTIONS_PER_IP": "0"})
    half_sent, silent = [], []
    try:
        for _ in range(40):
            s = raw(server)
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never finished
            half_sent.append(s)
            silent.append(raw(server))  # says nothing at all
        with http(server) as c:  # honest requests go on meanwhile
            assert c.get("/api/health").status_code == 200
        for s in half_sent:
            answer = read_all(s, 15)
            assert answer is not None, "a half-sent request was never closed"
            assert answer.startswith(b"HTTP/1.1 408"), answer
        for s in silent:
            assert read_all(s, 15) is not None, "a silent connection was never closed"
        # A slow body: headers sent, then nothing.
        body = raw(server)
        half_sent.append(body)
        body.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n{")
    finally:
        close_quietly(*silent)
    try:
        answer = read_all(body, 40)
        assert answer is not None and answer.startswith(b"HTTP/1.1 408"), answer
    finally:
        close_quietly(*half_sent)


def test_open_connections_per_address_are_capped(servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_MAX_CONNECTIONS_PER_IP": "20",
                          "CARROCA_HEADER_TIMEOUT": "60"})
    held = [raw(server, "127.0.0.1") for _ in range(20)]
    try:
        extra = raw(server, "127.0.0.1")
        answer = read_all(extra, 10)
        close_quietly(extra)
        assert answer is not None and answer.startswith(b"HTTP/1.1 429"), answer
        assert b"retry-after" in answer.lower()
        with http(server, "127.0.0.2") as other:  # another address is served
            assert other.get("/api/health").status_code == 200
    finally:
        close_quietly(*held)

    def served_again() -> bool:  # once the server has seen those connections close
        with http(server, "127.0.0.1") as again:
            return again.get("/api/health").status_code == 200

    wait_until(served_again, "the address to be served again")


def test_bytes_that_start_no_request_do_not_keep_a_connection(
    servers: Callable[..., Server]
) -> None:
    server = servers(env={"CARROCA_HEADER_TIMEOUT": "2"})
    sock = raw(server)
    try:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(10)
        assert sock.recv(65536).startswith(b"HTTP/1.1 200")
        sock.sendall(b"\r\n")  # cancels the keep-alive timer, starts no request
        assert read_all(sock, 15) is not None, "the connection was kept open"
    finally:
        close_quietly(sock)


def test_addresses_are_counted_as_networks() -> None:
    assert address_key("::ffff:10.1.2.3") == "10.1.2.3"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("192.0.2.7") == "192.0.2.7"


def test_every_error_has_the_json_shape(shared_server: Server) -> None:
    server = shared_server
    with http(server) as c:
        missing = c.get("/api/nada")
        assert missing.status_code == 404 and error_of(missing)["code"] == "not_found"
        wrong = c.delete("/api/health")
        assert wrong.status_code == 405 and error_of(wrong)["code"] == "method_not_allowed"
        token = c.post("/api/guest", json={"name": "Opcoes"}).json()["token"]
        many = {f"opcao{i}": i for i in range(2000)}
        r = c.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                   json={"ruleset": "bloqueio", "seats": ["me", "open"], "options": many})
        assert r.status_code == 422 and error_of(r)["code"] == "bad_request"
        assert len(r.content) < 2000  # was 1.6 MB for 200,000 options
        huge = {f"o{i}": i for i in range(200_000)}
        r = c.post("/api/tables", headers={"Authorization": f"Bearer {token}"},
                   json={"ruleset": "bloqueio", "seats": ["me", "open"], "options": huge})
        assert r.status_code == 413 and error_of(r)["code"] == "too_large"


def test_a_header_block_over_the_cap_is_refused_however_it_is_sent(
        shared_server: Server) -> None:
    """32 KiB of request line and headers at most, sent in pieces or in one write (the cap used
    to count only headers that came in several writes: 40-100 KB in one were parsed)."""
    server = shared_server

    def send(size: int, pieces: int) -> bytes | None:
        block = (b"GET /api/health HTTP/1.1\r\nHost: x\r\n"
                 + b"X-Pad: " + b"a" * size + b"\r\n\r\n")
        s = raw(server)
        try:
            step = -(-len(block) // pieces)
            for i in range(0, len(block), step):
                s.sendall(block[i:i + step])
            return read_all(s, 15)
        finally:
            close_quietly(s)

    cases = [(size, pieces) for size in (40_000, 100_000) for pieces in (1, 8)]
    # At once: the server closes each connection about 2 s after its answer.
    with concurrent.futures.ThreadPoolExecutor(len(cases)) as pool:
        answers = list(pool.map(lambda case: send(*case), cases))
    for answer in answers:
        assert answer is not None and answer.startswith(b"HTTP/1.1 431"), answer
    with http(server) as c:  # a request of a normal size still passes
        assert c.get("/api/health", headers={"X-Pad": "a" * 8000}).status_code == 200
