"""The scores database's schema, as the migrations that build it one version at a time.

Written once for SQLite and PostgreSQL (``sql.Dialect`` renders ``{double}`` and the
parameters). A ``?`` in a migration is the local account's name: rows from before
records were kept per player are that account's. The PostgreSQL store starts at an empty
database, so the data fixes of versions 2 to 4 find nothing to fix there; they run all
the same, so that both databases reach each version by the same steps.
"""

from __future__ import annotations

# Each entry moves the schema up one version; the database records how many have run
# (SQLite in its user_version, as it always has; PostgreSQL in a schema_version table).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE scores (
        run_id      TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        variant     TEXT NOT NULL DEFAULT '',
        score       INTEGER NOT NULL,
        used_undo   INTEGER NOT NULL DEFAULT 0,
        player      TEXT NOT NULL,
        recorded_at {double} NOT NULL
    );
    CREATE INDEX scores_by_game ON scores (game, variant, score);
    CREATE TABLE progress (
        game       TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at {double} NOT NULL,
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
    UPDATE scores SET marks = 'undo' WHERE used_undo <> 0;
    """,
    # Version 4: every personal record is the player's own. Progress (Sokoban's solved
    # levels and best solutions) is keyed by player too, and the marks of a way out
    # shown (once kept as progress values of '1') get a table of their own; what was
    # there before belongs to the local account. Results say whether help made them, so
    # that helped ones rank apart.
    """
    CREATE TABLE player_progress (
        player     TEXT NOT NULL,
        game       TEXT NOT NULL,
        key        TEXT NOT NULL,
        value      TEXT NOT NULL,
        updated_at {double} NOT NULL,
        PRIMARY KEY (player, game, key)
    );
    INSERT INTO player_progress (player, game, key, value, updated_at)
        SELECT ?, game, key, value, updated_at FROM progress
        WHERE game NOT IN ('maze', 'sokoban-shown');
    CREATE TABLE marks (
        player    TEXT NOT NULL,
        space     TEXT NOT NULL,
        key       TEXT NOT NULL,
        marked_at {double} NOT NULL,
        PRIMARY KEY (player, space, key)
    );
    INSERT INTO marks (player, space, key, marked_at)
        SELECT ?, game, key, updated_at FROM progress
        WHERE game IN ('maze', 'sokoban-shown');
    DROP TABLE progress;
    ALTER TABLE player_progress RENAME TO progress;
    ALTER TABLE scores ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;
    UPDATE scores SET assisted = 1 WHERE ' ' || marks || ' ' LIKE '% undo %'
        OR ' ' || marks || ' ' LIKE '% autoplay %' OR ' ' || marks || ' ' LIKE '% helped %';
    CREATE INDEX scores_by_player ON scores (game, player, recorded_at);
    """,
    # Version 5: a progress value has a rank (lower is better: Sokoban's is helped, then
    # moves, then pushes), so that a value waiting in a host's spool, sent late or twice,
    # never replaces a better one another host kept meanwhile. Older values have none:
    # any new value replaces them, as before.
    """
    ALTER TABLE progress ADD COLUMN rank BIGINT;
    """,
    # Version 6: tables where two people play Reversi, each an ordered list of events
    # (opened, joined, a move, resigned, left, back, a rematch). Two players acting at
    # once both ask for the next number: the key lets one in, the other reads and asks
    # again.
    """
    CREATE TABLE table_events (
        table_name TEXT NOT NULL,
        seq        INTEGER NOT NULL,
        kind       TEXT NOT NULL,
        player     TEXT NOT NULL,
        detail     TEXT NOT NULL,
        at         {double} NOT NULL,
        PRIMARY KEY (table_name, seq)
    );
    """,
    # Version 7: when each player at a table was there last (their game says so every
    # few seconds), so that one whose game was killed without a word is seen to be gone.
    """
    CREATE TABLE table_presence (
        table_name TEXT NOT NULL,
        player     TEXT NOT NULL,
        seen_at    {double} NOT NULL,
        PRIMARY KEY (table_name, player)
    );
    """,
    # Version 8: a score holds 64 bits, so a day's challenge ranks by several numbers in
    # one (Sokoban's moves, then pushes, then time). PostgreSQL's INTEGER held 32.
    """
    {widen_scores};
    """,
)
