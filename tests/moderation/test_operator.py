"""The operator's side of moderation: `carroca admin sanctions NAME` lists a player's
sanctions and `carroca admin lift ID --reason` ends one, a moderator's included (which no
moderator may), logged for the moderators."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.moderation.helpers import make_moderator, report
from tests.support.server_app import account, guest
from tests.support.wsplay import auth
from typer.testing import CliRunner

from carroca.cli import app as cli_app
from carroca.server.settings import Settings

pytestmark = pytest.mark.postgres


def admin(settings: Settings, *args: str) -> Any:
    return CliRunner().invoke(cli_app, ["admin", *args, "--database", settings.database])


def test_the_operator_lists_and_lifts_a_moderators_sanction(client: TestClient,
                                                            settings: Settings) -> None:
    ana, mara = guest(client, "Ana"), account(client, "Mara")
    make_moderator(settings.database, "Mara")
    report_id = report(client, account(client, "Bia"), player="Ana", reason="chat").json()["id"]
    done = client.post(f"/api/moderation/reports/{report_id}/action", headers=auth(mara),
                       json={"action": "ranked_ban", "days": 2, "reason": "conluio"})
    sanction = done.json()["sanction"]
    listed = admin(settings, "sanctions", "Ana")
    assert listed.exit_code == 0 and "ranked_ban" in listed.output and "conluio" in listed.output
    no_reason = admin(settings, "lift", str(sanction), "--reason", " ")
    assert no_reason.exit_code == 1 and "say why" in no_reason.output
    lifted = admin(settings, "lift", str(sanction), "--reason", "engano")
    assert lifted.exit_code == 0 and f"sanction {sanction} (ranked_ban): lifted" in lifted.output
    assert admin(settings, "lift", str(sanction), "--reason", "de novo").exit_code == 1
    assert client.get("/api/me", headers=auth(ana)).json()["sanctions"] == []
    log = client.get("/api/moderation/log", headers=auth(mara)).json()["log"]
    assert (log[0]["actor"], log[0]["action"], log[0]["reason"]) == \
        (None, "lift", "administração: engano")
