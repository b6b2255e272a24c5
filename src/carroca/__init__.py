"""carroca: Brazilian dominoes — rules engine, bots, verifiable shuffle and match records."""

from __future__ import annotations

__version__ = "0.1.0"
