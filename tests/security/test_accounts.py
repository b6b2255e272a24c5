"""Password guessing, floods of guests, and what expires.

Before: 80 wrong passwords then the right one, with no lockout and no 429; a flood of wrong
guesses made honest logins take 6–8 s (a queue of argon2 checks); 275 guest sign-ups per second
from one client, each a permanent player, session and reserved name.
"""

from __future__ import annotations

import concurrent.futures
import sqlite3
from collections.abc import Callable

import httpx2
import pytest
from tests.support.attacks import account, error_of, guest, http
from tests.support.serverproc import Server, wait_until


def login(server: Server, name: str, password: str, ip: str = "127.0.0.1") -> httpx2.Response:
    with http(server, ip) as c:
        return c.post("/api/login", json={"name": name, "password": password})


def test_wrong_passwords_are_limited_per_address(servers: Callable[..., Server]) -> None:
    server = servers()
    account(server, "Cofre", "senha-certa-123")
    for _ in range(10):
        r = login(server, "Cofre", "chute-errado")
        assert r.status_code == 401 and error_of(r)["code"] == "bad_login"
    locked = login(server, "Cofre", "senha-certa-123")  # even the right one, from here
    assert locked.status_code == 429 and error_of(locked)["code"] == "rate_limited"
    assert 1 <= int(locked.headers["retry-after"]) <= 600
    other = login(server, "Cofre", "senha-certa-123", "127.0.0.2")  # the owner, elsewhere
    assert other.status_code == 200, other.text


def test_wrong_passwords_are_limited_per_account_but_not_for_its_devices(
    servers: Callable[..., Server]
) -> None:
    server = servers(env={"CARROCA_LIMIT_LOGIN_ACCOUNT": "6/10 minutes"})
    account(server, "Alvo", "senha-certa-123")
    with http(server, "127.0.0.30") as owner:  # the owner's browser, signed in before
        assert owner.post("/api/login", json={"name": "Alvo",
                                              "password": "senha-certa-123"}).status_code == 200
        assert "carroca_device" in owner.cookies
        for i in range(6):  # a guesser spread over many addresses
            assert login(server, "alvo", "chute", f"127.0.0.{10 + i}").status_code == 401
        stranger = login(server, "ALVO", "senha-certa-123", "127.0.0.31")  # a new browser
        assert stranger.status_code == 429 and "retry-after" in stranger.headers
        assert "aparelho" in error_of(stranger)["message"]
        # The owner's browser is not locked out by the guesses of others.
        again = owner.post("/api/login", json={"name": "Alvo", "password": "senha-certa-123"})
        assert again.status_code == 200, again.text
    assert login(server, "Outro", "qualquer", "127.0.0.31").status_code == 401  # others not
    # Other spellings of the name find the same account, and share its allowance.
    for spelling in ("ＡＬＶＯ", "alvo", "Ａlvo"):
        assert login(server, spelling, "chute", "127.0.0.32").status_code == 429


def test_even_right_passwords_are_limited_per_address(servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_LIMIT_PASSWORD_IP": "5/10 minutes"})
    account(server, "Repete", "senha-certa-123", "127.0.0.40")  # one check: registering
    codes = [login(server, "Repete", "senha-certa-123", "127.0.0.40").status_code
             for _ in range(6)]
    assert codes == [200, 200, 200, 200, 429, 429], codes


def test_a_flood_of_guesses_neither_hashes_nor_blocks_honest_logins(
    servers: Callable[..., Server]
) -> None:
    server = servers()
    account(server, "Honesta", "senha-certa-123")
    with http(server) as c:
        checks_before = c.get("/api/stats").json()["password_checks"]

    def guess(i: int) -> int:
        return login(server, "Honesta", f"chute-{i}", "127.0.0.3").status_code

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        flood = pool.map(guess, range(200))
        honest = [login(server, "Honesta", "senha-certa-123").status_code for _ in range(3)]
        codes = list(flood)
    assert honest == [200, 200, 200]
    assert codes.count(401) <= 10 and codes.count(429) >= 190, codes  # no more than 10 tries
    with http(server) as c:
        checks = c.get("/api/stats").json()["password_checks"] - checks_before
    assert checks <= 10 + 3, checks  # the refused guesses cost no argon2


def test_guest_sign_ups_are_limited_per_address(servers: Callable[..., Server]) -> None:
    server = servers()
    for i in range(10):
        guest(server, f"Enxame{i}")
    with http(server) as c:
        r = c.post("/api/guest", json={"name": "Enxame10"})
    assert r.status_code == 429 and error_of(r)["code"] == "rate_limited"
    assert 1 <= int(r.headers["retry-after"]) <= 60
    guest(server, "Vizinha", "127.0.0.2")  # another address signs up as usual
    with http(server) as c:  # registrations have their own limit
        for i in range(5):
            assert c.post("/api/register", json={"name": f"Conta{i}",
                                                 "password": "senha-secreta"}).status_code == 200
        r = c.post("/api/register", json={"name": "Conta5", "password": "senha-secreta"})
        assert r.status_code == 429


def test_unplayed_guests_and_old_sessions_expire(servers: Callable[..., Server],
                                                 database: str) -> None:
    server = servers(env={"CARROCA_GUEST_UNPLAYED_HOURS": "0.001",  # 3.6 s
                          "CARROCA_GUEST_SESSION_DAYS": "0.00002",  # 1.7 s
                          "CARROCA_PURGE_SECONDS": "0.5"})
    passing = guest(server, "Passageiro")
    host = guest(server, "Anfitriao")
    with http(server, token=host) as c:  # a guest waiting at a table is kept
        assert c.post("/api/tables", json={"ruleset": "bloqueio",
                                           "seats": ["me", "open"]}).status_code == 201

    def sessions() -> int:
        with sqlite3.connect(database.removeprefix("sqlite:///")) as conn:
            return int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])

    def names() -> set[str]:
        with sqlite3.connect(database.removeprefix("sqlite:///")) as conn:
            return {r[0] for r in conn.execute("SELECT name FROM players")}

    with http(server, token=passing) as c:
        wait_until(lambda: c.get("/api/me").status_code == 401, "the guest session to expire")
    wait_until(lambda: sessions() == 0, "expired sessions to be removed")
    wait_until(lambda: "Passageiro" not in names(), "the unplayed guest to be removed")
    assert "Anfitriao" in names()
    guest(server, "Passageiro", "127.0.0.2")  # the name is free again


def test_a_flood_of_newcomers_from_rotating_addresses_waits_and_regulars_come_in(
        servers: Callable[..., Server]) -> None:
    """Before: guests from rotating addresses behind a trusted proxy signed up at 914-1,640
    in 10 s, each address under its own limit. After: newcomers share a budget (60 in 10 s);
    a regular (a returning guest's key, an account's password) still signs in at once."""
    server = servers(env={"CARROCA_FORWARDED_ALLOW_IPS": "127.0.0.1",
                          "CARROCA_LIMIT_SIGNUPS": "20/minute"})
    with http(server) as c:
        back = c.post("/api/guest", json={"name": "Antiga"})
        key = back.json()["guest_key"]
        account_made = c.post("/api/register", json={"name": "Cliente",
                                                     "password": "senha-secreta"})
        assert back.status_code == account_made.status_code == 200
        codes = []
        for n in range(60):
            r = c.post("/api/guest", json={"name": f"Onda{n}"},
                       headers={"X-Forwarded-For": f"10.9.{n // 256}.{n % 256}"})
            codes.append(r.status_code)
        assert codes.count(200) == 18 and codes.count(429) == 42, codes  # 2 spent above
        refused = r
        assert error_of(refused)["code"] == "rate_limited"
        assert "quem já jogou aqui entra normalmente" in error_of(refused)["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 60
        again = c.post("/api/guest", json={"name": "Antiga", "key": key},
                       headers={"X-Forwarded-For": "10.9.9.9"})
        assert again.status_code == 200, again.text
        login = c.post("/api/login", json={"name": "Cliente", "password": "senha-secreta"},
                       headers={"X-Forwarded-For": "10.9.9.10"})
        assert login.status_code == 200, login.text


@pytest.mark.slow
def test_a_hash_flood_from_rotating_addresses_lets_new_browsers_in(
        servers: Callable[..., Server]) -> None:
    """Before: while wrong guesses at 12 accounts came from rotating addresses (each address
    under its limit), 3 of 6 people signing in to their own accounts from a new browser were
    refused as busy. After: a login to an account nobody guessed at lately waits its turn in a
    longer queue; the flood's own requests are the ones refused."""
    server = servers(env={"CARROCA_FORWARDED_ALLOW_IPS": "127.0.0.1",
                          "CARROCA_LIMIT_REGISTER_IP": "1000/minute",
                          "CARROCA_LIMIT_PASSWORD_IP": "1000/minute",  # the set-up's accounts
                          "CARROCA_LIMIT_SIGNUPS": "1000/minute"})
    for i in range(12):
        account(server, f"Alvo{i}", "senha-do-alvo")
    for i in range(6):
        account(server, f"Gente{i}", f"senha-da-gente-{i}")

    def through(n: int, name: str, password: str) -> int:
        with http(server, timeout=120) as c:  # a login waits its turn, on a busy machine
            return c.post("/api/login", json={"name": name, "password": password},
                          headers={"X-Forwarded-For": f"10.7.{n // 256}.{n % 256}"}
                          ).status_code

    with concurrent.futures.ThreadPoolExecutor(24) as pool:
        flood = [pool.submit(through, n, f"Alvo{n % 12}", f"chute-{n}") for n in range(48)]
        honest = [pool.submit(through, 5000 + i, f"Gente{i}", f"senha-da-gente-{i}")
                  for i in range(6)]  # in the middle of the flood
        flood += [pool.submit(through, n, f"Alvo{n % 12}", f"chute-{n}")
                  for n in range(48, 240)]
        people = [f.result() for f in honest]
        guesses = [f.result() for f in flood]
    assert people == [200] * 6, people
    assert guesses.count(429) > 0, guesses  # the flood did fill the queue
    assert guesses.count(200) == 0
