"""``cf player NAME FILES…`` (SPEC §15): a player's record, checked by hand on a tiny league."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cf.record.league import game_of
from cf.record.player import player_record

G1 = """\
date: 2026-01-01
set: double-six
rules: {rounds: 2}
players: [Ana, Ben, Cy]
rounds:
  - hands: {Ana: "", Ben: 0-0, Cy: 6-5}
  - scores: {Ana: 10, Ben: 0, Cy: 4}
"""
G2 = """\
date: 2026-01-08
set: double-six
rules: {rounds: 1}
players: [Ben, Ana]
rounds:
  - scores: {Ben: 7, Ana: 7}
"""
G3 = """\
date: 2025-12-25
set: double-six
rules: {rounds: 1}
players: [Cy, Ana]
rounds:
  - scores: {Cy: 0, Ana: 20}
"""


@pytest.fixture
def tiny(tmp_path: Path) -> list[str]:
    """Three games given out of date order: G3 is the first played."""
    paths = []
    for name, text in (("g1.yaml", G1), ("g2.yaml", G2), ("g3.yaml", G3)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    return paths


def test_record_by_hand(cli, tiny):
    result = cli("player", "Ana", *tiny, "--format", "json")
    assert result.exit_code == 0, result.output
    r = json.loads(result.stdout)
    # In date order: G3 (lost to Cy), G1 (won: 10 < 15 < 50), G2 (tied with Ben: won).
    assert (r["games"], r["rounds"], r["wins"], r["total"]) == (3, 4, 2, 37)
    assert r["average"] == 9.25
    assert r["rounds_won"] == 2  # G1 round 1 (out, 0) and G2's (7 = 7)
    assert r["out_first"] == 1  # G1 round 1: her hand was empty
    assert r["best_round"] == {"points": 0, "file": tiny[0], "round": 1}
    assert r["worst_round"] == {"points": 20, "file": tiny[2], "round": 1}
    assert (r["double_blank_held"], r["double_blank_known_rounds"]) == (0, 1)
    assert r["streaks"] == {"games_won": 2, "rounds_won": 1, "out_first": 1}
    assert (r["first_date"], r["last_date"]) == ("2025-12-25", "2026-01-08")
    assert r["head_to_head"] == [
        # Cy: G3 (behind; -20 in its round), G1 (ahead; +11 and -6): -15 over 3 rounds
        {"opponent": "Cy", "games": 2, "ahead": 1, "behind": 1, "level": 0, "rounds": 3,
         "margin_per_round": -5.0},
        # Ben: G1 (ahead; +50, -10), G2 (level; 0): +40 over 3 rounds
        {"opponent": "Ben", "games": 2, "ahead": 1, "behind": 0, "level": 1, "rounds": 3,
         "margin_per_round": 40 / 3},
    ]  # fmt: skip
    assert (r["rival"], r["nemesis"]) == ("Cy", "Cy")


def test_the_double_blank_holder(cli, tiny):
    r = json.loads(cli("player", "Ben", *tiny, "-f", "json").stdout)
    assert (r["double_blank_held"], r["double_blank_known_rounds"]) == (1, 1)
    assert r["out_first"] == 1  # G1 round 2: the one player on 0 of a round scored by totals
    # Ana and Cy each finished ahead of him once: Cy in every game they met (1 of 1)
    assert r["nemesis"] == "Cy"


def test_text_record(cli, tiny):
    result = cli("player", "Ana", *tiny)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Ana: 3 games, 4 rounds, 2025-12-25 to 2026-01-08"
    assert lines[1] == "games won: 2; rounds won: 2; out first: 1 of 4 rounds"
    assert lines[2] == (
        "points per round: 9.25; best round 0 (g1.yaml, round 1); worst round 20 "
        "(g3.yaml, round 1)"
    )
    assert "rival: Cy; nemesis: Cy" in lines
    assert any(line.split() == ["Cy", "2", "1", "1", "0", "3", "-5.00"] for line in lines)


@pytest.mark.parametrize("written", ["ana", "ANA", " Ana "])
def test_names_match_as_cf_add_matches_them(cli, tiny, written):
    r = json.loads(cli("player", written, *tiny, "-f", "json").stdout)
    assert r["player"] == "Ana"


def test_accents_and_did_you_mean(cli, tmp_path):
    f = tmp_path / "z.yaml"
    f.write_text("players: [Zoé, Bea]\nrounds:\n  - scores: {Zoé: 0, Bea: 3}\n", "utf-8")
    assert json.loads(cli("player", "zoe", str(f), "-f", "json").stdout)["player"] == "Zoé"
    result = cli("player", "Zoey", str(f))
    assert result.exit_code == 1
    assert "did you mean 'Zoé'?" in result.stderr


def test_a_file_with_problems_is_left_out(cli, tiny, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Ana, Ben]\nrounds:\n  - scores: {Ana: 3}\n", "utf-8")
    result = cli("player", "Ana", *tiny, str(bad), "-f", "json")
    assert result.exit_code == 1
    assert "missing-score" in result.stderr
    assert json.loads(result.stdout)["games"] == 3


def test_nobody_to_find(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [Ana]\n", "utf-8")
    result = cli("player", "Ana", str(bad))
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_partial_games_win_nothing():
    g = game_of("p", ["A", "B"], [{"A": 0, "B": 9}], complete=False)
    r = player_record("A", [g])
    assert (r.games, r.wins, r.streaks.games_won, r.head_to_head[0].ahead) == (1, 0, 0, 1)


def test_player_in_a_subprocess(tiny):
    r = subprocess.run(
        [sys.executable, "-m", "cf", "player", "cy", *tiny],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Cy: 2 games, 3 rounds")


# --- properties ---------------------------------------------------------------------------


NAMES = ["Ana", "Ben", "Cy", "Dee"]


@st.composite
def league_games(draw):  # type: ignore[no-untyped-def]
    seats = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True))
    rounds = [{p: draw(st.integers(0, 30)) for p in seats} for _ in range(draw(st.integers(1, 3)))]
    return game_of("g", seats, rounds, complete=draw(st.booleans()))


@settings(max_examples=50, deadline=None)
@given(st.lists(league_games(), min_size=1, max_size=5), st.permutations(NAMES))
def test_renaming_everywhere_changes_nothing_but_the_names(games, shuffled):
    from dataclasses import astuple

    names = dict(zip(NAMES, (f"{n} 2" for n in shuffled), strict=True))
    for p in NAMES:
        before = player_record(p, games)
        after = player_record(names[p], [g.renamed(names) for g in games])
        assert after.player == names[p]
        assert [names[h.opponent] for h in before.head_to_head] == [
            h.opponent for h in after.head_to_head
        ]
        assert (before.rival and names[before.rival]) == after.rival
        assert (before.nemesis and names[before.nemesis]) == after.nemesis
        strip = lambda r: astuple(r)[1:12]  # noqa: E731 - everything but the names
        assert strip(before) == strip(after)


@settings(max_examples=50, deadline=None)
@given(st.lists(league_games(), min_size=1, max_size=5), league_games())
def test_a_later_game_never_changes_what_came_before_it(games, extra):
    # the record over the first games is the record of the league cut at that point
    for p in NAMES:
        r = player_record(p, games)
        longer = player_record(p, [*games, extra])
        played = p in extra.seating
        assert longer.games == r.games + played
        assert longer.rounds == r.rounds + (len(extra.rounds) if played else 0)
