"""Notices (issue 15): the e-mail address a seat's player gave for notices, and the notices themselves
— one row per (table, seat, kind, mark), so that of several processes (or a restarted one) that find
the same turn or deadline only one adds it, and one sends it (a lease taken by a conditional update).

Revision ID: 0006
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stammtisch_contacts",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
    )
    op.create_table(
        "stammtisch_notices",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("mark", sa.BigInteger, primary_key=True),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("lease", sa.Float),
        sa.Column("tries", sa.Integer, nullable=False, server_default="0"),
        sa.Column("done", sa.Float),
        sa.Column("outcome", sa.String(16)),
    )
    op.create_index("stammtisch_notices_waiting", "stammtisch_notices", ["done", "due"])


def downgrade() -> None:
    op.drop_index("stammtisch_notices_waiting", "stammtisch_notices")
    op.drop_table("stammtisch_notices")
    op.drop_table("stammtisch_contacts")
