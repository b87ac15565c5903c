"""Pace, clocks and stand-ins (issue 15): a timed table's pace and stand-in kind, when each log entry
was committed (and whether a stand-in made it), and the seat changes (a stand-in taking a seat, its
player coming back), numbered so that two processes cannot both add the same one.

Tables of the releases before are untimed (no row in stammtisch_paces); their log entries have no
stored time, which only timed tables need.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stammtisch_paces",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("pace", sa.Text, nullable=False),
        sa.Column("standin", sa.String(16), nullable=False),
        sa.Column("started", sa.Float),
    )
    op.create_table(
        "stammtisch_entry_times",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("move_no", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("standin", sa.String(16)),
    )
    op.create_table(
        "stammtisch_seat_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("stammtisch_tables.id"), primary_key=True),
        sa.Column("no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move_no", sa.Integer, nullable=False),
        sa.Column("what", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("stammtisch_seat_changes", "stammtisch_entry_times", "stammtisch_paces"):
        op.drop_table(table)
