"""Personal keys and rematches (issue 15, "My games"): a player is a personal key, of which the
server keeps only the hash (``stammtisch_players``; later features attach more to it, e.g. an
e-mail address); a seat may be bound to a key (``key_hash``), and ``key_token_hash`` is the hash of
the seat token that key derives for that seat (server/players.py).  A finished table names its
rematch, and the rematch the table it repeats.

Tables, seats and keys of the releases before: no keys, no rematches (NULL).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stammtisch_players",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    with op.batch_alter_table("stammtisch_seats") as batch:
        batch.add_column(sa.Column("key_hash", sa.String(64)))
        batch.add_column(sa.Column("key_token_hash", sa.String(64)))
        batch.create_index("ix_stammtisch_seats_key_hash", ["key_hash"])
    with op.batch_alter_table("stammtisch_tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(32)))
        batch.add_column(sa.Column("rematch_of", sa.String(32)))


def downgrade() -> None:
    with op.batch_alter_table("stammtisch_tables") as batch:
        batch.drop_column("rematch_of")
        batch.drop_column("rematch")
    with op.batch_alter_table("stammtisch_seats") as batch:
        batch.drop_index("ix_stammtisch_seats_key_hash")
        batch.drop_column("key_token_hash")
        batch.drop_column("key_hash")
    op.drop_table("stammtisch_players")
