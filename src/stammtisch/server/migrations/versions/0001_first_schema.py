"""The first versioned schema: the tables as the releases before migrations created them.

A database of such a release has these tables and no version: it is stamped with this revision
(server/schema.py) and upgraded from here.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stammtisch_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "stammtisch_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot_kind", sa.String(16)),
        sa.Column("token_hash", sa.String(64)),
    )
    op.create_table(
        "stammtisch_moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("move_no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text),
    )


def downgrade() -> None:
    op.drop_table("stammtisch_moves")
    op.drop_table("stammtisch_seats")
    op.drop_table("stammtisch_tables")
