"""Every player's records are their own on a served arcade (issue 23), over real SSH
connections: what one stranger solved or was helped with is never another's."""

from __future__ import annotations

from termgames.sokoban.format.bundled import BUNDLED, load_bundled
from termgames.sokoban.solver import solve
from tests.harness.serving import Seat, Server, connect, run, server, sit

__all__ = ["server"]  # the fixture

MICROBAN = next(entry for entry in BUNDLED if entry.slug == "microban")
LURD_KEYS = {"l": "left", "u": "up", "r": "right", "d": "down"}


async def microban(port: int, player: str) -> Seat:
    """``player`` opens Microban over SSH: at their first unsolved level."""
    conn = await connect(port, user=player)
    seat = await sit(conn, "sokoban --collection microban")
    await seat.wait_for("Microban")
    return seat


async def leave(seat: Seat) -> None:
    """Quit the game, and wait for the session to end."""
    seat.press("q")
    assert await seat.finish() == 0


def test_one_players_solved_and_helped_levels_are_not_anothers(server: Server) -> None:
    first = load_bundled(MICROBAN).levels[0]
    solution = solve(first, time_limit=30).lurd
    assert solution

    async def play() -> None:
        ann = await microban(server.port, "ann")
        await ann.wait_for("level 1 (1 of 155)")
        ann.press(*[LURD_KEYS[step.lower()] for step in solution])
        await ann.wait_for("Solved level 1")
        ann.press("enter")  # the next level, where ann asks for a hint
        await ann.wait_for("level 2 (2 of 155)")
        ann.press("t")
        await ann.wait_for("Next push")
        await ann.wait_for("(helped)")
        await leave(ann)

        bob = await microban(server.port, "bob")  # connecting after: none of it is his
        await bob.wait_for("level 1 (1 of 155)")
        await bob.wait_for("not solved yet")
        bob.press("n")
        await bob.wait_for("level 2 (2 of 155)")
        assert "(helped)" not in bob.text(), bob.text()
        bob.press("tab")
        await bob.wait_for("Microban: 0 of 155 solved")
        bob.press("q")
        await leave(bob)

        ann = await microban(server.port, "ann")  # back: both are still hers
        await ann.wait_for("level 2 (2 of 155)")  # her first unsolved level
        await ann.wait_for("(helped)")
        ann.press("tab")
        await ann.wait_for("Microban: 1 of 155 solved")
        ann.press("q")
        await leave(ann)

        async with await connect(server.port, user="bob") as conn:  # bob's menu
            launcher = await sit(conn)
            await launcher.wait_for("no level solved yet")
            launcher.press("q")
            await launcher.finish()

    run(play())
