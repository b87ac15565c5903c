"""Table chat (issue 14): the players' messages, numbered per table so that two processes cannot
both add the same one, with the seat that wrote each and when.

Tables of the releases before simply have no messages.

Revision ID: 0005
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stammtisch_chat",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("stammtisch_chat")
