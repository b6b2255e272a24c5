"""Who plays: guests, accounts, sessions, and their ratings."""
