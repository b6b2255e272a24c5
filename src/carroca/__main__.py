"""`python -m carroca` runs the same command as the `carroca` script."""

from __future__ import annotations

from carroca.cli import app

if __name__ == "__main__":
    app(prog_name="carroca")
