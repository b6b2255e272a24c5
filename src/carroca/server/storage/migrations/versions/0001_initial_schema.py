"""initial schema"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None


def upgrade() -> None:
    op.create_table('players',
    sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
    sa.Column('name', sa.String(length=24), nullable=False),
    sa.Column('name_key', sa.String(length=24), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=True),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('name_key')
    )
    op.create_table('matches',
    sa.Column('id', sa.String(length=16), nullable=False),
    sa.Column('mode', sa.String(length=10), nullable=False),
    sa.Column('ruleset', sa.String(length=20), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('turn_seconds', sa.Float(), nullable=False),
    sa.Column('bot_level', sa.String(length=10), nullable=False),
    sa.Column('invite', sa.String(length=16), nullable=True),
    sa.Column('host_id', sa.Integer(), nullable=True),
    sa.Column('server_seed', sa.String(length=64), nullable=False),
    sa.Column('commitment', sa.String(length=64), nullable=False),
    sa.Column('client_seeds', sa.JSON(), nullable=False),
    sa.Column('client_seed', sa.String(length=400), nullable=True),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('started_at', sa.Float(), nullable=True),
    sa.Column('finished_at', sa.Float(), nullable=True),
    sa.Column('score', sa.JSON(), nullable=True),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('record', sa.Text(), nullable=True),
    sa.ForeignKeyConstraint(['host_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('invite')
    )
    op.create_index(op.f('ix_matches_status'), 'matches', ['status'], unique=False)
    op.create_table('ratings',
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('family', sa.String(length=10), nullable=False),
    sa.Column('mu', sa.Float(), nullable=False),
    sa.Column('sigma', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('wins', sa.Integer(), nullable=False),
    sa.Column('ordinal', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('player_id', 'family')
    )
    op.create_index(op.f('ix_ratings_ordinal'), 'ratings', ['ordinal'], unique=False)
    op.create_table('sessions',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('expires_at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('token_hash')
    )
    op.create_index(op.f('ix_sessions_player_id'), 'sessions', ['player_id'], unique=False)
    op.create_table('moves',
    sa.Column('match_id', sa.String(length=16), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=24), nullable=False),
    sa.Column('auto', sa.Boolean(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'seq')
    )
    op.create_table('participants',
    sa.Column('match_id', sa.String(length=16), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rating_before', sa.Float(), nullable=True),
    sa.Column('rating_after', sa.Float(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('match_id', 'seat')
    )
    op.create_index(op.f('ix_participants_player_id'), 'participants', ['player_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_participants_player_id'), table_name='participants')
    op.drop_table('participants')
    op.drop_table('moves')
    op.drop_index(op.f('ix_sessions_player_id'), table_name='sessions')
    op.drop_table('sessions')
    op.drop_index(op.f('ix_ratings_ordinal'), table_name='ratings')
    op.drop_table('ratings')
    op.drop_index(op.f('ix_matches_status'), table_name='matches')
    op.drop_table('matches')
    op.drop_table('players')
