"""The scores database's schema, as the migrations that build it one version at a time."""

from __future__ import annotations

# Each entry moves the schema up one version; user_version records how many have run.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE scores (
        run_id      TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL DEFAULT '',
        score       INTEGER NOT NULL,
        used_undo   INTEGER NOT NULL DEFAULT 0,
        player      TEXT NOT NULL,
        recorded_at REAL NOT NULL
    );
    CREATE INDEX scores_by_game ON scores (game, variant, score);
    CREATE TABLE progress (
        game       TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (game, key)
    );
    """,
    # Version 2: variants say what a result compares with (2048: board and goal; Reversi:
    # the opponent). Older results did not record the goal or whether --ai overrode the
    # level, so they say so rather than guess, and rank apart from newer ones.
    """
    UPDATE scores SET variant = variant || ', goal not recorded'
        WHERE game = '2048' AND variant NOT LIKE '%goal%';
    UPDATE scores SET variant = variant || ', opponent not recorded'
        WHERE game = 'reversi' AND variant LIKE 'level %';
    """,
    # Version 3: every help a result had, not only undo (autoplay, a solver's hint, a
    # name nobody verified), space-separated.
    """
    ALTER TABLE scores ADD COLUMN marks TEXT NOT NULL DEFAULT '';
    UPDATE scores SET marks = 'undo' WHERE used_undo;
    """,
)
