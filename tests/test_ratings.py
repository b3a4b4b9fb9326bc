"""Ratings over a league (SPEC §15): ``cf tally --rank-by rating`` and ``--history``.

The ``openskill`` package is the reference: cf must give exactly its results for the same
sequence of games; cf's own part is the order of the games, the ties and the books.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import BradleyTerryFull, PlackettLuce

from cf.record.league import game_of, in_date_order
from cf.record.ratings import RatingError, outcomes, rate
from cf.render.rating_chart import history_svg
from cf.render.ratings import history_csv, history_json

ROOT = Path(__file__).parent.parent


def scores_file(tmp_path: Path, name: str, players: list[str], rounds: list[list[int]],
                date: str | None = None, total_rounds: int | None = None) -> str:  # fmt: skip
    """A complete game file scored by totals (``rules.rounds`` = the rounds given)."""
    lines = ["set: double-six", f"rules: {{rounds: {total_rounds or len(rounds)}}}"]
    if date:
        lines.insert(0, f"date: {date}")
    lines += [f"players: [{', '.join(players)}]", "rounds:"]
    for points in rounds:
        pairs = ", ".join(f"{p}: {s}" for p, s in zip(players, points, strict=True))
        lines.append(f"  - scores: {{{pairs}}}")
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


# --- the reference: openskill's own results --------------------------------------------

SEQUENCE = [
    (["Ana", "Ben", "Cy"], [{"Ana": 0, "Ben": 12, "Cy": 30}]),
    (["Ben", "Cy", "Dee"], [{"Ben": 5, "Cy": 5, "Dee": 0}]),  # Ben and Cy tie for 2nd
    (["Ana", "Dee"], [{"Ana": 20, "Dee": 3}, {"Ana": 0, "Dee": 9}]),  # Dee 12 < Ana 20
    (["Ana", "Ben", "Cy", "Dee"], [{"Ana": 7, "Ben": 7, "Cy": 7, "Dee": 7}]),  # all tie
]


def by_hand(model) -> dict[str, tuple[float, float]]:  # type: ignore[no-untyped-def]
    """The sequence rated with openskill directly: one rate() call per game."""
    r = {p: model.rating(name=p) for p in ("Ana", "Ben", "Cy", "Dee")}
    ranks = [[1, 2, 3], [2, 2, 1], [2, 1], [1, 1, 1, 1]]
    for (seats, _), rk in zip(SEQUENCE, ranks, strict=True):
        new = model.rate([[r[p]] for p in seats], ranks=rk)
        for p, team in zip(seats, new, strict=True):
            r[p] = team[0]
    return {p: (x.mu, x.sigma) for p, x in r.items()}


def league() -> list:  # type: ignore[type-arg]
    return [game_of(f"g{i}", seats, pts) for i, (seats, pts) in enumerate(SEQUENCE, 1)]


@pytest.mark.parametrize(
    ("name", "model"), [("plackett-luce", PlackettLuce), ("bradley-terry-full", BradleyTerryFull)]
)
def test_ratings_are_openskills_own_results(name, model):
    expected = by_hand(model())
    got = rate(league(), name)
    assert {p.player: (p.mu, p.sigma) for p in got.players} == expected
    assert all(p.ordinal == p.mu - 3 * p.sigma for p in got.players)
    ordinals = [p.ordinal for p in got.players]
    assert ordinals == sorted(ordinals, reverse=True)


def test_a_game_is_its_final_order_ties_as_ties():
    g = game_of("g", ["A", "B", "C", "D"], [{"A": 5, "B": 0, "C": 5, "D": 9}])
    assert outcomes(g, "game") == [{"A": 2, "B": 1, "C": 2, "D": 4}]
    assert outcomes(g, "round") == [{"A": 5, "B": 0, "C": 5, "D": 9}]
    r = rate([g])
    a, c = (next(p for p in r.players if p.player == n) for n in "AC")
    assert (a.mu, a.sigma) == (c.mu, c.sigma) and a.rank == c.rank


def test_unknown_model_is_refused():
    with pytest.raises(RatingError, match="plackett-luce"):
        rate(league(), "elo")


def test_provisional_below_min_games():
    r = rate(league(), min_games=3)
    games = {p.player: (p.games, p.provisional) for p in r.players}
    assert games == {"Ana": (3, False), "Ben": (3, False), "Cy": (3, False), "Dee": (3, False)}
    r = rate(league(), min_games=4)
    assert all(p.provisional for p in r.players)


def test_books_count_games_rounds_wins_and_totals():
    r = rate(league())
    ana = next(p for p in r.players if p.player == "Ana")
    # games 1, 3, 4; rounds 1 + 2 + 1; won game 1 and (tied) game 4; 0 + 20 + 7 points
    assert (ana.games, ana.rounds, ana.wins, ana.total) == (3, 4, 2, 27)


def test_games_go_in_date_order_then_the_order_given():
    a, b, c, d = (
        game_of(f, ["A", "B"], [{"A": 0, "B": 1}], date=dt)
        for f, dt in [("a", "2026-03-01"), ("b", None), ("c", "2026-01-10"), ("d", "2026-01-10")]
    )
    assert [g.file for g in in_date_order([a, b, c, d])] == ["c", "d", "a", "b"]


# --- properties ---------------------------------------------------------------------------

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli"]


@st.composite
def games(draw):  # type: ignore[no-untyped-def]
    seats = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True))
    n = draw(st.integers(1, 3))
    rounds = [{p: draw(st.integers(0, 40)) for p in seats} for _ in range(n)]
    return game_of("g", seats, rounds)


@settings(max_examples=40, deadline=None)
@given(st.lists(games(), min_size=1, max_size=6), games())
def test_adding_a_game_never_changes_earlier_history(played, extra):
    before = rate(played).history
    after = rate([*played, extra]).history
    assert after[: len(before)] == before
    assert len(after) == len(before) + 1


@settings(max_examples=40, deadline=None)
@given(st.lists(games(), min_size=1, max_size=6), st.permutations(NAMES))
def test_renaming_a_player_everywhere_changes_nothing_but_the_name(played, new_names):
    mapping = {old: f"{new}!" for old, new in zip(NAMES, new_names, strict=True)}
    first = rate(played)
    second = rate([g.renamed(mapping) for g in played])
    assert [(p.rank, mapping[p.player], p.mu, p.sigma, p.games, p.wins, p.provisional)
            for p in first.players] == [
        (p.rank, p.player, p.mu, p.sigma, p.games, p.wins, p.provisional)
        for p in second.players
    ]  # fmt: skip


# --- history ------------------------------------------------------------------------------


def test_history_has_everyone_rated_so_far_after_each_game():
    data = history_json(rate(league()))
    assert [g["game"] for g in data["games"]] == [1, 2, 3, 4]
    second = data["games"][1]["ratings"]
    assert [(r["player"], r["played"]) for r in second] == [
        ("Ana", False), ("Ben", True), ("Cy", True), ("Dee", True),
    ]  # fmt: skip
    # Ana sat out game 2: her rating did not move
    assert second[0]["mu"] == data["games"][0]["ratings"][0]["mu"]
    rows = list(csv.DictReader(io.StringIO(history_csv(rate(league())))))
    assert len(rows) == 3 + 4 + 4 + 4
    assert rows[3]["player"] == "Ana" and rows[3]["game"] == "2" and rows[3]["played"] == "False"


HOSTILE = ['Ana "the <b>best</b>"', "Ben & Jerry's", "=cmd|' /C calc'!A0"]


def test_history_chart_escapes_every_name():
    g = game_of("a<&>.yaml", HOSTILE, [dict(zip(HOSTILE, (0, 5, 9), strict=True))])
    svg = history_svg(rate([g, g]))
    root = ET.fromstring(svg.split("\n", 1)[1])  # well-formed
    ns = "{http://www.w3.org/2000/svg}"
    assert {e.get("data-player") for e in root.iter(f"{ns}g")} == set(HOSTILE)
    assert "<b>" not in svg


# --- the command --------------------------------------------------------------------------


def test_cli_rating_table_and_json(cli, tmp_path):
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben", "Cy"], [[0, 12, 30]], "2026-02-01")
    b = scores_file(tmp_path, "b.yaml", ["Ben", "Cy", "Dee"], [[5, 5, 0]], "2026-01-01")
    result = cli("tally", a, b, "--rank-by", "rating", "-f", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ranked_by"] == "rating" and data["model"] == "plackett-luce"
    assert data["per"] == "game" and data["min_games"] == 3
    # b is dated first: rated first, whatever the order on the command line
    expected = rate(
        [game_of("b", ["Ben", "Cy", "Dee"], [{"Ben": 5, "Cy": 5, "Dee": 0}]),
         game_of("a", ["Ana", "Ben", "Cy"], [{"Ana": 0, "Ben": 12, "Cy": 30}])]
    )  # fmt: skip
    assert [(s["player"], s["mu"], s["sigma"]) for s in data["standings"]] == [
        (p.player, round(p.mu, 6), round(p.sigma, 6)) for p in expected.players
    ]
    assert set(data["standings"][0]) == {
        "rank", "player", "games", "rounds", "wins", "total", "average", "mu", "sigma",
        "ordinal", "provisional",
    }  # fmt: skip
    text = cli("tally", a, b, "--rank-by", "rating").stdout
    assert "provisional: fewer than 3 games rated" in text
    assert "leader by rating (plackett-luce, per game)" in text
    assert " ?" in text


def test_cli_players_equal_on_rating_are_listed_in_order_of_first_appearance(cli, tmp_path):
    """SPEC section 7: equal on the ranking criterion, in order of first appearance (seating
    order of the first file they appear in, files in the order given), even where the
    games are rated in another order (date order: b is rated first, Carla seated before
    Ben there)."""
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben", "Carla"], [[0, 5, 5]], "2026-02-01")
    b = scores_file(tmp_path, "b.yaml", ["Dan", "Carla", "Ben"], [[0, 5, 5]], "2026-01-01")
    for first, then, order in ((a, b, ["Ben", "Carla"]), (b, a, ["Carla", "Ben"])):
        result = cli("tally", first, then, "--rank-by", "rating", "-f", "json")
        assert result.exit_code == 0, result.output
        tied = [s for s in json.loads(result.stdout)["standings"] if s["games"] == 2]
        assert [s["player"] for s in tied] == order
        assert tied[0]["rank"] == tied[1]["rank"] and tied[0]["ordinal"] == tied[1]["ordinal"]
    rated = [
        game_of("b", ["Dan", "Carla", "Ben"], [{"Dan": 0, "Carla": 5, "Ben": 5}]),
        game_of("a", ["Ana", "Ben", "Carla"], [{"Ana": 0, "Ben": 5, "Carla": 5}]),
    ]
    assert [p.player for p in rate(rated).players][2:] == ["Carla", "Ben"]  # as rated
    given = rate(rated, appearance=["Ana", "Ben", "Carla", "Dan", "Carla", "Ben"])
    assert [p.player for p in given.players][2:] == ["Ben", "Carla"]


def test_cli_equal_results_are_a_tie_whatever_the_seating(cli, tmp_path):
    """OpenSkill's results for two players with the same results can differ in the last
    bits with where each sits in a game; equal to the precision shown, they tie."""
    files = [
        scores_file(tmp_path, "g1.yaml", ["Xan", "Ana", "Yol", "Bea", "Cai"],
                    [[2, 6, 2, 7, 11], [2, 8, 2, 2, 14]], "2026-01-01"),
        scores_file(tmp_path, "g2.yaml", ["Xan", "Bea", "Ana", "Cai", "Yol"],
                    [[10, 10, 1, 5, 10], [10, 9, 18, 7, 10]], "2026-01-02"),
        scores_file(tmp_path, "g3.yaml", ["Bea", "Cai", "Yol", "Xan", "Ana"],
                    [[12, 2, 8, 8, 7]], "2026-01-03"),
    ]  # fmt: skip
    data = json.loads(cli("tally", *files, "--rank-by", "rating", "-f", "json").stdout)
    xan, yol = (next(s for s in data["standings"] if s["player"] == p) for p in ("Xan", "Yol"))
    assert xan["ordinal"] == yol["ordinal"] and xan["rank"] == yol["rank"]
    order = [s["player"] for s in data["standings"]]
    assert order.index("Xan") < order.index("Yol")  # first appearance


def test_cli_model_and_min_games(cli, tmp_path):
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12]])
    result = cli("tally", a, "--rank-by", "rating", "--model", "thurstone-mosteller-part",
                 "--min-games", "1", "-f", "json")  # fmt: skip
    data = json.loads(result.stdout)
    assert data["model"] == "thurstone-mosteller-part"
    assert not any(s["provisional"] for s in data["standings"])


@pytest.mark.parametrize(
    "args",
    [
        ["--model", "plackett-luce"],
        ["--min-games", "2"],
        ["--history", "h.json"],
        ["--rank-by", "rating", "--history", "h.txt"],
        ["--rank-by", "rating", "--model", "elo"],
        ["--rank-by", "rating", "--stats"],
        ["--rank-by", "rating", "--per", "night"],
    ],
)
def test_cli_rating_options_misused_are_usage_errors(cli, tmp_path, args):
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12]])
    result = cli("tally", a, *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_cli_partial_games_are_not_rated_unless_asked(cli, tmp_path):
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12]])
    p = scores_file(tmp_path, "p.yaml", ["Ana", "Ben"], [[30, 0]], total_rounds=3)
    result = cli("tally", a, p, "--rank-by", "rating", "-f", "json")
    assert "1 partial game not rated" in result.stderr
    assert [s["games"] for s in json.loads(result.stdout)["standings"]] == [1, 1]
    result = cli("tally", a, p, "--rank-by", "rating", "--count-partial", "-f", "json")
    assert [s["games"] for s in json.loads(result.stdout)["standings"]] == [2, 2]


def test_cli_no_game_rated_names_no_leader(cli, tmp_path):
    p = scores_file(tmp_path, "p.yaml", ["Ana", "Ben"], [[30, 0]], total_rounds=3)
    result = cli("tally", p, "--rank-by", "rating")
    assert result.exit_code == 0
    assert "1 partial game not rated" in result.stderr
    assert "leader" not in result.stdout and "ordinal" in result.stdout


def test_cli_history_files(cli, tmp_path):
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12]], "2026-01-01")
    b = scores_file(tmp_path, "b.yaml", ["Ben", "Cy"], [[0, 12]], "2026-01-02")
    for kind in ("json", "csv", "svg"):
        out = tmp_path / f"h.{kind}"
        assert cli("tally", a, b, "--rank-by", "rating", "--history", str(out)).exit_code == 0
        text = out.read_text(encoding="utf-8")
        if kind == "json":
            assert [g["file"] for g in json.loads(text)["games"]] == [a, b]
        elif kind == "csv":
            assert text.splitlines()[0] == "game,file,date,player,played,mu,sigma,ordinal"
        else:
            ET.fromstring(text.split("\n", 1)[1])


def test_cli_png_history_without_the_extra_prints_nothing(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import fails as if not installed
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12]], "2026-01-01")
    out = tmp_path / "h.png"
    result = cli("tally", a, "--rank-by", "rating", "--history", str(out))
    assert result.exit_code == 2
    assert "pip install 'chickenfoot[charts]'" in result.output
    assert result.stdout == "" and not out.exists()


def test_cli_rating_in_a_subprocess(tmp_path):
    files = sorted(str(p) for p in (ROOT / "examples" / "league").glob("*.yaml"))
    r = subprocess.run(
        [sys.executable, "-m", "cf", "tally", *files, "--rank-by", "rating", "-f", "csv"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == 7 and rows[0]["rank"] == "1"
    assert float(rows[0]["ordinal"]) >= float(rows[-1]["ordinal"])


def test_cli_rating_file_with_problems_exits_1(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(textwrap.dedent("""\
        players: [Ana, Ben]
        rounds:
          - scores: {Ana: 3}
    """), encoding="utf-8")  # fmt: skip
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12]])
    result = cli("tally", a, str(bad), "--rank-by", "rating")
    assert result.exit_code == 1
    assert "missing-score" in result.stderr


def test_per_round_is_openskills_own_results_with_the_round_beta():
    from cf.record.ratings import ROUND_BETA

    model = PlackettLuce(beta=ROUND_BETA)
    r = {p: model.rating(name=p) for p in ("Ana", "Ben", "Cy", "Dee")}
    for seats, rounds in SEQUENCE:
        for points in rounds:
            ranks = [float(points[p]) for p in seats]
            new = model.rate([[r[p]] for p in seats], ranks=ranks)
            for p, team in zip(seats, new, strict=True):
                r[p] = team[0]
    got = rate(league(), per="round")
    assert got.per == "round"
    assert {p.player: (p.mu, p.sigma) for p in got.players} == {
        p: (x.mu, x.sigma) for p, x in r.items()
    }
    assert got.players != rate(league()).players


def test_cli_per_round(cli, tmp_path):
    a = scores_file(tmp_path, "a.yaml", ["Ana", "Ben"], [[0, 12], [5, 0]])
    data = json.loads(
        cli("tally", a, "--rank-by", "rating", "--per", "round", "-f", "json").stdout
    )
    assert data["per"] == "round"
    assert "per round" in cli("tally", a, "--rank-by", "rating", "--per", "round").stdout
    assert cli("tally", a, "--per", "round").exit_code == 2


def test_openskill_is_loaded_only_for_ratings():
    code = (
        "import sys, glob\n"
        "from typer.testing import CliRunner\n"
        "from cf.cli import app\n"
        "files = sorted(glob.glob('examples/league/*.yaml'))\n"
        "for args in (['score', '9-7'], ['tally', *files], ['player', 'Ana', *files]):\n"
        "    assert CliRunner().invoke(app, args).exit_code == 0, args\n"
        "    assert 'openskill' not in sys.modules, args\n"
        "assert CliRunner().invoke(app, ['tally', *files, '--rank-by', 'rating']).exit_code == 0\n"
        "assert 'openskill' in sys.modules\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)  # fmt: skip
    assert r.returncode == 0, r.stderr


def test_csv_outputs_never_start_a_cell_with_a_formula():
    from cf.render.ratings import render_ratings

    g = game_of("g.yaml", HOSTILE, [dict(zip(HOSTILE, (0, 5, 9), strict=True))])
    ratings = rate([g])
    for text in (history_csv(ratings), render_ratings(ratings, "csv")):
        cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
        assert "'=cmd|' /C calc'!A0" in cells
        assert not any(c.startswith("=") for c in cells)


def test_history_never_writes_over_an_input(cli, tmp_path):
    a = scores_file(tmp_path, "g.json", ["Ana", "Ben"], [[0, 12]])
    before = Path(a).read_bytes()
    result = cli("tally", a, "--rank-by", "rating", "--history", a)
    assert result.exit_code == 2
    assert "one of the inputs" in result.output
    assert Path(a).read_bytes() == before
