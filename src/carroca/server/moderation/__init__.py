"""Moderation: reports with their context, moderators' actions and sanctions, the audit log,
the offensive-word filter and the abandonment ladder (docs/moderation.md)."""
