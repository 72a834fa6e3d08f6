"""Helped results rank apart from unhelped ones everywhere (issue 23): an autoplayed 2048
game never becomes the player's best while they have one of their own, and its mark is
never dropped; the launcher says whose a best is when it is not the player's."""

from __future__ import annotations

from pathlib import Path

from termgames.scoreboard import Best, ScoreKind, best_shown, launcher_best
from termgames.store import Score
from tests.harness.drivers import fake_program
from tests.harness.stores import PLAYER, store_at

VARIANT = "4x4, goal 2048"


def line(home: Path) -> str:
    store = store_at(home)
    try:
        return launcher_best(store, "2048", ScoreKind.POINTS, "no score yet", PLAYER)
    finally:
        store.close()


def test_the_launcher_keeps_every_help_mark_and_prefers_an_unhelped_best(
        tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.record_score("ai", "2048", VARIANT, 150_344, player=PLAYER, marks=["autoplay"],
                       assisted=True)
    store.close()
    assert line(tmp_path) == f"best 150,344 ({VARIANT}) (autoplay)"
    store = store_at(tmp_path)
    store.record_score("own", "2048", VARIANT, 1_604, player=PLAYER)
    store.close()
    assert line(tmp_path) == f"best 1,604 ({VARIANT})"
    store = store_at(tmp_path)
    store.record_score("ann", "2048", VARIANT, 2_000, player="ann", marks=["unverified"])
    store.close()
    assert line(tmp_path) == f"best 2,000 by ann ({VARIANT})"


def test_the_menu_shows_it_too(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    store.record_score("ai", "2048", VARIANT, 150_344, player=PLAYER, marks=["autoplay"],
                       assisted=True)
    store.record_score("own", "2048", VARIANT, 1_604, player=PLAYER, marks=["undo"],
                       assisted=True)
    store.close()
    with fake_program([], tmp_path) as run:
        run.wait_for("best 150,344")
        assert f"best 150,344 ({VARIANT}) (autoplay)" in run.text(), run.text()


def test_a_helped_run_never_replaces_an_unhelped_best_and_the_other_way_round() -> None:
    own = Score("2048", VARIANT, 1_604, frozenset(), PLAYER, 0.0)
    helped = Score("2048", VARIANT, 9_000, frozenset({"autoplay"}), PLAYER, 0.0, True)
    autoplayed = Best(150_344, frozenset({"autoplay"}))
    assert best_shown(own, autoplayed) == Best(1_604)
    assert best_shown(own, Best(2_000)) == Best(2_000)
    assert best_shown(own, Best(1_000)) == Best(1_604)
    assert best_shown(helped, Best(500)) == Best(500)  # one's own beats any helped best
    assert best_shown(helped, autoplayed) == autoplayed
    assert best_shown(None, autoplayed) == autoplayed
    assert autoplayed.note() == " (autoplay)"
    assert Best(7, frozenset({"undo", "unverified"})).note() == " (undo)"
