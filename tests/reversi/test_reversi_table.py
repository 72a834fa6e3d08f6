"""A Reversi table as values: seats, moves checked once by the rules, the clocks, a
pass, the end, resignation, a dropped link's grace period and forfeit, a rematch with the
colours swapped; and the Glicko-2 ratings its results feed."""

from __future__ import annotations

import random

import pytest

from termgames.reversi.board import Side, square_name
from termgames.reversi.table import (
    NEW,
    Clocks,
    Ending,
    Rating,
    Status,
    Table,
    TableError,
    TimeControl,
    control_named,
    held,
    joined,
    left,
    moved,
    opened,
    rated,
    rematch,
    resigned,
    returned,
    settled,
    shown,
)

FIVE = TimeControl(5, 0)
BLITZ = TimeControl(3, 2)
TO_A_PASS = ["53", "63", "73", "72", "35", "83", "81", "61"]
"""Squares after which X has no move and O moves again."""
TO_THE_END = ["35", "36", "37", "34", "53", "43", "33", "63", "72"]
"""Squares to a game over in nine moves: X 13, O 0."""


def square(name: str) -> int:
    """A square as typed (column, then row) as its index."""
    column, row = int(name[0]), int(name[1])
    return (row - 1) * 8 + column - 1


def playing(control: TimeControl = FIVE, at: float = 0.0) -> Table:
    """Ann on X, Bob on O, the game just started at ``at``."""
    return joined(opened("t1", "ann", control, at), "bob", at)


def play(table: Table, squares: list[str], start: float, step: float = 1.0) -> Table:
    """Each square by whoever is to move, ``step`` seconds apart."""
    now = start
    for name in squares:
        now += step
        side = table.to_move()
        assert side is not None
        player = table.seats[side]
        assert player is not None
        table = moved(table, player, square(name), now)
    return table


def test_a_table_waits_for_its_second_player_then_x_moves_first() -> None:
    table = opened("t1", "ann", FIVE, 0.0)
    assert table.status is Status.WAITING and table.to_move() is None
    with pytest.raises(TableError, match="starts when someone sits down"):
        moved(table, "ann", square("53"), 1.0)
    table = joined(table, "bob", 2.0)
    assert table.status is Status.PLAYING and table.seats == {Side.X: "ann", Side.O: "bob"}
    assert table.to_move() is Side.X and table.clocks.running is Side.X
    with pytest.raises(TableError, match="is full"):
        joined(table, "cy", 3.0)


def test_an_invitation_keeps_the_seat_for_its_player() -> None:
    table = opened("t1", "ann", FIVE, 0.0, invited="bob")
    with pytest.raises(TableError, match="waits for bob"):
        joined(table, "cy", 1.0)
    assert joined(table, "bob", 1.0).status is Status.PLAYING
    with pytest.raises(TableError, match="someone else"):
        opened("t2", "ann", FIVE, 0.0, invited="ann")


def test_nobody_moves_for_the_other_side_out_of_turn_or_illegally() -> None:
    table = playing()
    for player, name, said in [("bob", "53", "not your turn"), ("cy", "53", "do not play"),
                               ("ann", "11", "11 is not a legal move")]:
        with pytest.raises(TableError, match=said):
            moved(table, player, square(name), 1.0)
    table = moved(table, "ann", square("53"), 1.0)
    with pytest.raises(TableError, match="not your turn"):
        moved(table, "ann", square("63"), 2.0)
    assert table.to_move() is Side.O


def test_random_requests_from_both_players_only_ever_play_legal_moves_in_turn() -> None:
    rng = random.Random(4)
    table, now, played = playing(TimeControl(10, 5)), 0.0, 0
    while table.status is Status.PLAYING:
        now += 0.01
        player = rng.choice(["ann", "bob"])
        try:
            after = moved(table, player, rng.randrange(64), now)
        except TableError:
            continue
        assert table.seats[table.match().turn] == player  # it was their turn
        table, played = after, played + 1
    assert table.finish is not None and table.finish.ending is Ending.DISCS
    assert len(table.squares) == played


def test_a_pass_gives_the_other_side_the_move_and_its_clock() -> None:
    table = play(playing(), TO_A_PASS, 0.0)
    assert table.to_move() is Side.O and table.clocks.running is Side.O
    with pytest.raises(TableError, match="not your turn"):
        moved(table, "ann", square("12"), 20.0)


def test_the_end_by_discs_stops_the_clocks() -> None:
    table = play(playing(), TO_THE_END, 0.0)
    assert table.finish is not None
    assert (table.finish.winner, table.finish.ending, table.finish.x, table.finish.o) == \
        (Side.X, Ending.DISCS, 13, 0)
    assert table.clocks.running is None and table.status is Status.OVER
    assert table.finish.score_for(Side.X) == 1.0 and table.finish.score_for(Side.O) == 0.0


def test_each_clock_runs_only_on_its_turn_and_gains_its_increment() -> None:
    table = playing(BLITZ, 100.0)
    table = moved(table, "ann", square("53"), 110.0)  # X thought 10 s, gains 2
    assert table.clocks.remaining(Side.X, 150.0) == 180 - 10 + 2
    assert table.clocks.remaining(Side.O, 150.0) == 180 - 40
    table = moved(table, "bob", square("63"), 150.0)
    assert table.clocks.remaining(Side.O, 150.0) == 180 - 40 + 2


def test_running_out_of_time_loses_even_before_the_next_request() -> None:
    table = moved(playing(TimeControl(1, 0)), "ann", square("53"), 1.0)
    assert settled(table, 60.0).finish is None
    over = settled(table, 62.0)
    assert over.finish is not None and over.finish.ending is Ending.TIME
    assert over.finish.winner is Side.X
    assert over.clocks.remaining(Side.O, 62.0) == 0
    with pytest.raises(TableError, match="over"):
        moved(table, "bob", square("63"), 62.0)  # too late: the clock said so first


def test_resigning_gives_the_other_side_the_game() -> None:
    table = resigned(play(playing(), ["53"], 0.0), "ann", 5.0)
    assert table.finish is not None and table.finish.winner is Side.O
    assert table.finish.ending is Ending.RESIGNED
    with pytest.raises(TableError, match="no game under way"):
        resigned(table, "bob", 6.0)


def test_a_dropped_link_has_its_grace_period_then_forfeits() -> None:
    table = left(play(playing(), ["53"], 0.0), "bob", 10.0)
    back = returned(table, "bob", 69.0)  # within the minute
    assert back.finish is None and not back.away
    gone = settled(table, 70.0)
    assert gone.finish is not None and gone.finish.ending is Ending.FORFEIT
    assert gone.finish.winner is Side.X
    assert returned(table, "bob", 75.0).finish == gone.finish  # too late: lost all the same


def test_the_clock_of_an_absent_player_runs_and_may_end_the_game_first() -> None:
    table = play(playing(TimeControl(1, 0)), ["53"], 0.0)  # O to move from 1.0
    table = left(table, "bob", 30.0)  # 31 s of O's minute left, 60 s of grace
    over = settled(table, 100.0)
    assert over.finish is not None and over.finish.ending is Ending.TIME


def test_both_gone_forfeits_the_first_to_go_or_on_a_tie_the_side_to_move() -> None:
    table = play(playing(), ["53"], 0.0)
    one_first = settled(left(left(table, "bob", 5.0), "ann", 6.0), 100.0)
    assert one_first.finish is not None and one_first.finish.winner is Side.X
    together = settled(left(left(table, "ann", 5.0), "bob", 5.0), 100.0)  # O to move
    assert together.finish is not None and together.finish.winner is Side.X
    assert together.finish.ending is Ending.FORFEIT


def test_leaving_a_table_that_waits_forfeits_nothing() -> None:
    table = left(opened("t1", "ann", FIVE, 0.0), "ann", 10.0)
    assert not table.away
    table = joined(table, "bob", 500.0)
    assert settled(table, 500.5).finish is None


def test_a_rematch_waits_for_both_players_to_be_here() -> None:
    over = settled(left(play(playing(), ["53"], 0.0), "bob", 5.0), 100.0)  # a forfeit
    with pytest.raises(TableError, match="bob is not at the table"):
        rematch(over, 101.0)
    back = returned(over, "bob", 102.0)
    assert back.finish == over.finish and rematch(back, 103.0).status is Status.PLAYING


def test_a_rated_game_counts_in_the_rematchs_ratings_and_an_unrated_one_does_not() -> None:
    table = joined(opened("t1", "ann", FIVE, 0.0, rating=NEW), "bob", 0.0, NEW)
    assert table.rated
    over = play(table, TO_THE_END, 0.0)
    again = rematch(over, 50.0)
    assert again.ratings == {"ann": rated(NEW, [(NEW, 1.0)]), "bob": rated(NEW, [(NEW, 0.0)])}
    assert again.game == 2
    unrated = joined(opened("t2", "ann", FIVE, 0.0, rating=NEW), "cy", 0.0, None)
    assert not unrated.rated
    assert rematch(play(unrated, TO_THE_END, 0.0), 50.0).ratings == unrated.ratings


def test_a_rematch_swaps_the_colours_and_fills_the_clocks() -> None:
    over = play(playing(), TO_THE_END, 0.0)
    with pytest.raises(TableError, match="not over"):
        rematch(playing(), 1.0)
    again = rematch(over, 50.0)
    assert again.seats == {Side.X: "bob", Side.O: "ann"} and again.squares == ()
    assert again.status is Status.PLAYING and again.to_move() is Side.X
    assert again.clocks.remaining(Side.X, 50.0) == 300


def test_clocks_read_as_players_expect() -> None:
    assert [shown(s) for s in (300.0, 61.5, 10.0, 9.97, 0.04, 0.0)] == [
        "5:00", "1:01", "0:10", "0:09.9", "0:00.0", "0:00.0"]
    assert control_named("3+2") == BLITZ
    with pytest.raises(ValueError, match="1\\+0, 3\\+2, 5\\+0, 10\\+5"):
        control_named("2+1")
    stopped = Clocks.started(FIVE, 0.0)
    assert stopped.remaining(Side.X, 1000.0) == 300 and stopped.flagged(1000.0) is None


def test_glicko2_matches_glickmans_worked_example() -> None:
    # Glickman's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.
    after = rated(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0),
                                            (Rating(1700, 300), 0.0)])
    assert round(after.rating, 2) == 1464.05 and round(after.deviation, 2) == 151.52
    assert round(after.volatility, 5) == 0.06


def test_a_win_raises_a_loss_lowers_and_an_idle_period_widens() -> None:
    winner, loser = rated(NEW, [(NEW, 1.0)]), rated(NEW, [(NEW, 0.0)])
    assert winner.rating > 1500 > loser.rating
    assert round(winner.rating - 1500, 6) == round(1500 - loser.rating, 6)  # symmetric
    assert rated(NEW, [(NEW, 0.5)]).rating == pytest.approx(1500)
    sure = Rating(1600, 60, 0.06)
    assert rated(sure, []).deviation > 60 and rated(sure, []).rating == 1600
    assert NEW.shown == "1500?" and sure.shown == "1600"


def test_every_square_name_the_tests_type_is_its_index() -> None:
    assert all(square_name(square(name)) == name for name in TO_A_PASS + TO_THE_END)


def test_a_wait_stops_both_clocks_and_every_grace_period_but_undoes_no_end() -> None:
    table = left(play(playing(TimeControl(1, 0)), ["53"], 0.0), "ann", 10.0)  # O to move
    waited = held(table, 20.0, 500.0)  # out of reach from 20 s to 500 s
    assert waited.clocks.remaining(Side.O, 500.0) == pytest.approx(41.0)  # 19 s spent
    assert settled(waited, 540.0).finish is None  # ann's grace: 10 s used, 50 s left
    assert settled(waited, 551.0).finish is not None  # O's minute ran out first
    late = held(table, 70.0, 500.0)  # O's minute ran out at 61 s, before the wait
    assert late.finish is not None and late.finish.ending is Ending.TIME
    twice = held(waited, 15.0, 501.0)  # the other host's wait, from a little earlier
    assert twice.clocks.remaining(Side.O, 501.0) == pytest.approx(41.0)
