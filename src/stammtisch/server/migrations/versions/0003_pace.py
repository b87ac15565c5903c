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
    # One row per log entry stays one insert per move: the time and stand-in are the entry's columns.
    with op.batch_alter_table("stammtisch_moves") as batch:
        batch.add_column(sa.Column("at", sa.Float))
        batch.add_column(sa.Column("standin", sa.String(16)))
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
    for table in ("stammtisch_seat_changes", "stammtisch_paces"):
        op.drop_table(table)
    with op.batch_alter_table("stammtisch_moves") as batch:
        batch.drop_column("standin")
        batch.drop_column("at")
