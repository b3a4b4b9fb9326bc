"""The pictures and the replay page in the reader's language (issue 25, SPEC §14): the
HTML replay of ``cf show --format html``, the SVG table of ``--format svg`` and both
charts (``cf tally --chart``, ``--history``) show no English sentence under
``CF_LANG=es`` or ``gl``, while what machines read (data attributes, the page's data)
stays as in English."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from browser_helpers import CHROMIUM, DRIVER, chromium

from cf import i18n
from cf.record.check import validate
from cf.record.reader import read_game_file
from cf.render import html as replay

ROOT = Path(__file__).parent.parent
LANGUAGES = ("es", "gl")

#: English words none of the pictures may show in Spanish or Galician (whole words, any
#: case): none of them is a Spanish or Galician word.
STOP_WORDS = (
    "the", "of", "to", "and", "with", "without", "move", "moves", "round", "rounds",
    "after", "before", "play", "open", "ends", "starter", "arms", "toes", "foot", "chicken",
    "yard", "draw", "blocked", "went", "out", "first", "last", "previous", "next", "home",
    "end", "problem", "problems", "scoreboard", "finds", "found", "running", "totals",
    "lower", "higher", "better", "rating", "ratings", "game", "games", "each", "replay",
    "none", "empty", "free", "place", "goes", "here", "stopped", "yet", "finished",
    "scored", "refused", "table", "stays", "over", "wins",
)  # fmt: skip
_STOP = re.compile(r"\b(" + "|".join(STOP_WORDS) + r")\b", re.IGNORECASE)
_SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|aria-label)="([^"]*)"')


def english_words(text: str, *ignore: str) -> list[str]:
    """The stop words in ``text`` once the names in ``ignore`` (players, titles, files,
    problem codes) are taken out."""
    for name in sorted(ignore, key=len, reverse=True):
        text = text.replace(name, " ")
    return _STOP.findall(text)


def visible_text(markup: str) -> str:
    """What a person sees of an SVG or HTML document: its text (tooltips included) and
    the tooltips and labels in attributes; no script, style or data."""
    shown = " ".join(html.unescape(v) for v in _SHOWN_ATTRIBUTES.findall(markup))
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", " ", markup, flags=re.S)
    markup = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>", " ", markup)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup)) + " " + shown


def page_data(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="cf-data">(.*?)</script>', page)
    assert found is not None
    return json.loads(found.group(1))


def _codes(game_file: str) -> list[str]:
    """The problem codes of ``game_file`` as pages show them (``[foot-open]``): machine
    words, never translated."""
    game = read_game_file(str(ROOT / game_file))
    return [f"[{p.code}]" for p in validate(game).problems]


def test_the_stop_words_catch_the_english_pictures(cli, tmp_path):
    """The check can fail: every English picture is full of stop words."""
    page = tmp_path / "en.html"
    cli("show", "examples/family-night.yaml", "-f", "html", "-o", str(page))
    text = page.read_text(encoding="utf-8")
    assert {"first", "last", "Problems", "Scoreboard"} <= set(english_words(visible_text(text)))
    words = " ".join(page_data(text)["text"].values())
    assert {"move", "before", "yard"} <= set(english_words(words))
    svg = cli("show", "examples/family-night.yaml", "-r", "3", "-m", "20", "-f", "svg").stdout
    assert {"Round", "after", "move", "play"} <= set(english_words(visible_text(svg)))


# --- the replay page ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "game_file",
    [
        "examples/family-night.yaml",
        "examples/mistakes/foot-open.yaml",
        "examples/scorekeeper.yaml",
        "examples/in-progress/half-played.yaml",
    ],
)
def test_the_replay_page_speaks_the_language(cli, tmp_path, lang, game_file):
    game = read_game_file(str(ROOT / game_file))
    english, translated = tmp_path / "en.html", tmp_path / f"{lang}.html"
    assert cli("show", game_file, "-f", "html", "-o", str(english)).exit_code == 0
    result = cli("show", game_file, "-f", "html", "-o", str(translated), env={"CF_LANG": lang})
    assert result.exit_code == 0, result.output
    page = translated.read_text(encoding="utf-8")
    assert page.startswith(f'<!DOCTYPE html>\n<html lang="{lang}">')
    ignore = [*game.players, game.title or "", Path(game_file).name]
    ignore += _codes(game_file)
    assert english_words(visible_text(page), *ignore) == []
    # The words the page's script writes, and the problems it shows.
    data = page_data(page)
    placeholders = re.compile(r"\{\w+\}")
    words = placeholders.sub(" ", " ".join(data["text"].values()))
    assert english_words(words) == []
    for p in data["problems"]:
        assert english_words(p["where"] + p["message"]) == []
    assert english_words(data["outcome"] or "", *game.players) == []
    # What the script computes with is the English page's, word for word.
    before = page_data(english.read_text(encoding="utf-8"))
    for key in ("players", "rounds", "steps", "tiles", "back"):
        assert data[key] == before[key], key
    assert [p["code"] for p in data["problems"]] == [p["code"] for p in before["problems"]]
    assert set(data["text"]) == set(before["text"])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_to_play_mark_is_a_css_string_that_cannot_end_the_style(lang, monkeypatch):
    monkeypatch.setenv("CF_LANG", lang)
    style = replay._style()
    rule = re.search(r'\.hand\.next \.name::after\{content:"([^"]*)"', style)
    assert rule is not None
    assert re.fullmatch(r"  \\2190  [A-Za-z0-9 \\]+", rule.group(1)), rule.group(1)
    assert "to play" not in rule.group(1)


def test_a_translation_cannot_add_markup_or_script(monkeypatch):
    """Whatever a catalogue says, it is text: one style, one data element, one script."""
    hostile = '</script><script>window.pwned=1</script></style>"<b>'
    monkeypatch.setattr(replay, "_", lambda text: text + hostile)
    game = read_game_file(str(ROOT / "examples/mistakes/foot-open.yaml"))
    page = replay.game_page(game, validate(game))
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert page.count("<style>") == 1 and page.count("</style>") == 1
    assert "<b>" not in page and "<script>window.pwned" not in page
    assert page_data(page)["text"]["before"].endswith(hostile)


# --- the SVG table ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    ("game_file", "where"),
    [
        ("examples/family-night.yaml", ["-r", "1", "-m", "2"]),  # the starter's arms
        ("examples/family-night.yaml", ["-r", "3", "-m", "20"]),
        ("examples/family-night.yaml", ["-r", "1"]),  # somebody went out
        ("examples/mistakes/foot-open.yaml", ["-m", "3"]),  # a foot open
        ("examples/mistakes/foot-open.yaml", []),  # stopped at a refused move
        ("tests/games/valid-blocked-round.yaml", []),  # blocked
    ],
)
def test_the_svg_table_speaks_the_language(cli, lang, game_file, where):
    game = read_game_file(str(ROOT / game_file))
    args = ["show", game_file, *where, "-f", "svg"]
    english = cli(*args).stdout
    result = cli(*args, env={"CF_LANG": lang})
    assert result.exit_code == 0, result.output
    ignore = [*game.players, *_codes(game_file)]
    assert english_words(visible_text(result.stdout), *ignore) == []
    # Tiles, moves and classes are the machine's: as in English.
    data = re.compile(r'(?:data-[a-z]+|class)="[^"]*"')
    assert data.findall(result.stdout) == data.findall(english)


def test_the_svg_table_in_spanish_reads_as_spanish(cli):
    svg = cli(
        "show", "examples/mistakes/foot-open.yaml", "-m", "3", "-f", "svg", env={"CF_LANG": "es"}
    ).stdout
    shown = visible_text(svg)
    assert "Ronda 1, tras la jugada 3 de 5" in shown
    assert "pata abierta en el 1-1: 0 de 3 dedos · le toca a Ben" in shown
    assert "Ben (2)  ← le toca" in shown and "Pozo: 21 (19 para robar)" in shown


# --- the charts -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(
    "files", [["examples/family-night.yaml"], sorted(map(str, ROOT.glob("examples/league/*")))]
)
def test_the_running_totals_chart_speaks_the_language(cli, tmp_path, lang, files):
    chart = tmp_path / "chart.svg"
    result = cli("tally", *files, "--chart", str(chart), env={"CF_LANG": lang})
    assert result.exit_code == 0, result.output
    names = {p for f in files for p in read_game_file(f).players}
    shown = visible_text(chart.read_text(encoding="utf-8"))
    assert english_words(shown, *names, *(Path(f).name for f in files)) == []
    assert ("menos es mejor" if lang == "es" else "menos é mellor") in shown


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rating_history_chart_speaks_the_language(cli, tmp_path, lang):
    pytest.importorskip("openskill")
    files = sorted(map(str, ROOT.glob("examples/league/*")))
    chart = tmp_path / "history.svg"
    result = cli(
        "tally", *files, "--rank-by", "rating", "--history", str(chart), env={"CF_LANG": lang}
    )
    assert result.exit_code == 0, result.output
    names = {p for f in files for p in read_game_file(f).players}
    shown = visible_text(chart.read_text(encoding="utf-8"))
    assert english_words(shown, *names, *(Path(f).name for f in files)) == []
    # Each player's rating in the legend, written with a decimal comma.
    legend = re.findall(r"  (-?\d+[.,]\d)\b", shown)
    assert legend and all("," in value for value in legend)


# --- in a real browser ------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    if not (CHROMIUM and DRIVER):
        pytest.skip("no headless browser: apt-get install chromium chromium-driver")
    yield from chromium(webdriver)


def test_the_spanish_replay_in_a_browser(browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    i18n.set_language("es")
    try:
        game = read_game_file(str(ROOT / "examples/mistakes/foot-open.yaml"))
        path = tmp_path / "replay.html"
        path.write_text(replay.game_page(game, validate(game)), encoding="utf-8")
    finally:
        i18n.set_language(None)
    browser.get(path.as_uri())
    text = browser.find_element(By.ID, "counter").text
    assert text == "Ronda 1 · jugada 0 de 5"
    assert browser.find_element(By.ID, "what").text == "antes de la primera jugada"
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert browser.find_element(By.ID, "counter").text == "Ronda 1 · jugada 1 de 5"
    assert browser.find_element(By.ID, "what").text == "Ana: 6-1"
    assert browser.find_element(By.ID, "status").text == "doble de salida 6-6: 1 de 2 brazos"
    assert browser.find_element(By.ID, "yard").text == "Pozo: 21 (19 para robar)"
    assert browser.find_element(By.ID, "scorenote").text == "aún no ha terminado ninguna ronda"
    assert browser.find_element(By.CSS_SELECTOR, "#scores th").text == "tras la ronda"
    mark = browser.execute_script(
        "return getComputedStyle(document.querySelector('.hand.next .name'), '::after').content"
    )
    assert mark == '"  ← le toca"'
    for _ in range(3):
        browser.find_element(By.ID, "next").click()
    assert "(rechazada: la mesa queda como estaba)" in browser.find_element(By.ID, "what").text
    assert browser.find_element(By.ID, "problem").text.startswith("ronda 1, jugada 4: [")
    body = browser.find_element(By.TAG_NAME, "body").text
    assert english_words(body, *game.players, *_codes(game.file), "tiny") == []
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
