"""Attacks on a real `carroca serve` (tests/serverproc.py), each shown to fail against the limits.

Clients bind to other loopback addresses (127.0.0.2, 127.0.0.3, …) to stand for other players'
addresses: the server sees each as its own client, as it would across the internet.
"""

from __future__ import annotations

from tests.server.conftest import database, template_database  # noqa: F401  (fixtures)
from tests.serverproc import servers  # noqa: F401  (a fixture)
