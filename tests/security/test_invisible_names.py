"""A nickname cannot hide an invisible mark: "Ana" and "Ana" plus a variation selector (or a
combining grapheme joiner, a Mongolian or Khmer invisible sign) look the same on screen, so the
second would pass for the first. Before, these default-ignorable marks were accepted as accents.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import client, settings  # noqa: F401  (fixtures)

from carroca.server.errors import ServerError
from carroca.server.players.accounts import check_name


@pytest.mark.parametrize("name", [
    "Ana\ufe0f", "An\ufe00a", "A\u034fna", "Ana\U000e0100", "Ana\U000e01ef", "An\u180ba",
    "An\u180fa", "An\u17b4a", "An\u17b5a",
])
def test_invisible_marks_are_refused(name: str) -> None:
    with pytest.raises(ServerError) as refused:
        check_name(name)
    assert refused.value.code == "bad_name"


@pytest.mark.parametrize("name", ["José", "Jose\u0301", "Tiê\u0301ng", "Nguyễn", "Ана"])
def test_real_accents_still_pass(name: str) -> None:
    assert check_name(name)


def test_the_route_refuses_them_too(client: TestClient) -> None:  # noqa: F811
    assert client.post("/api/guest", json={"name": "Paca"}).status_code == 200
    lookalike = client.post("/api/guest", json={"name": "Paca\ufe0f"})
    assert lookalike.status_code == 422 and lookalike.json()["error"]["code"] == "bad_name"
