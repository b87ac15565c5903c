"""Each table names the rules version of its game (GameSpec.rules_version; issue 16).

Tables of the releases before were played under each game's first rules version, 1. A table that
cannot go on under a later release's rules gets the status "interrupted" (no column needed).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("stammtisch_tables") as table:
        table.add_column(sa.Column("rules_version", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("stammtisch_tables") as table:
        table.drop_column("rules_version")
