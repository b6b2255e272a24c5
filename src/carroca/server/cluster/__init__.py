"""This node among others: its lease, the matches it owns and takes over, calls
between nodes and the fan-out over Redis."""
