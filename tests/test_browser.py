"""The HTML replay in a real browser: headless Chromium loads the page from a file (so
nothing can come from the network), steps forward and back, and we read what it shows.

Skipped, with the reason, where Chromium, its driver or selenium is not installed
(.ci/run installs them: apt-get install chromium chromium-driver).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import CHROMIUM, DRIVER, chromium
from fuzz_families import HOSTILE_NAMES, hostile_name_game

from cf.record.check import validate
from cf.record.reader import read_game, read_game_file
from cf.record.standings import standings_of
from cf.render.chart import chart_svg, running_totals
from cf.render.html import game_page

ROOT = Path(__file__).parent.parent

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no headless browser: apt-get install chromium chromium-driver",
)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    yield from chromium(webdriver)


def open_page(driver, tmp_path: Path, example: str):
    game = read_game_file(str(ROOT / example))
    path = tmp_path / "replay.html"
    path.write_text(game_page(game, validate(game)), encoding="utf-8")
    driver.get(path.as_uri())
    return driver


def counter(driver) -> str:
    return driver.find_element(By.ID, "counter").text


def key(driver, name) -> None:
    driver.find_element(By.TAG_NAME, "body").send_keys(name)


def hand(driver, player: str) -> str:
    box = driver.find_element(By.CSS_SELECTOR, f'.hand[data-player="{player}"] .tiles')
    return box.get_attribute("data-tiles")


def visible_tiles(driver) -> list[str]:
    shown = driver.find_elements(By.CSS_SELECTOR, "#board > svg:not(.hidden) g.tile")
    return [g.get_attribute("data-tile") for g in shown if g.is_displayed()]


def test_steps_forward_and_back_and_marks_the_problem(browser, tmp_path):
    d = open_page(browser, tmp_path, "examples/mistakes/foot-open.yaml")
    assert counter(d) == "Round 1 · move 0 of 5"
    assert hand(d, "Ana") == "6-1 5-0 1-1"
    assert visible_tiles(d) == ["6-6"]
    key(d, Keys.ARROW_RIGHT)
    assert counter(d) == "Round 1 · move 1 of 5"
    assert hand(d, "Ana") == "5-0 1-1"
    assert sorted(visible_tiles(d)) == ["6-1", "6-6"]
    d.find_element(By.ID, "next").click()
    d.find_element(By.ID, "next").click()
    assert counter(d) == "Round 1 · move 3 of 5"
    problem = d.find_element(By.ID, "problem")
    assert not problem.is_displayed()
    # Where the next tiles go: the open end 2, and the three toes of the 1-1 foot.
    ends = d.find_elements(By.CSS_SELECTOR, "#board > svg:not(.hidden) .marks .open-end")
    assert [e.get_attribute("data-number") for e in ends] == ["2"]
    assert len(d.find_elements(By.CSS_SELECTOR, "#board .marks .free-place")) == 3
    key(d, Keys.ARROW_RIGHT)  # move 4 is the one cf validate rejects
    assert counter(d) == "Round 1 · move 4 of 5"
    assert "refused" in d.find_element(By.ID, "what").text
    assert len(visible_tiles(d)) == 4  # the board stays as after move 3
    assert problem.is_displayed()
    assert problem.get_attribute("data-codes") == "foot-open"
    assert "[foot-open] Ben played 2-0" in problem.text
    assert len(d.find_elements(By.CSS_SELECTOR, "#timeline .mark")) == 1
    key(d, Keys.ARROW_RIGHT)  # the end: nothing after the stop
    key(d, Keys.ARROW_LEFT)
    key(d, Keys.ARROW_LEFT)
    assert counter(d) == "Round 1 · move 2 of 5"
    assert not problem.is_displayed()
    assert hand(d, "Ben") == "4-4 2-0"
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_the_whole_example_game(browser, tmp_path):
    d = open_page(browser, tmp_path, "examples/family-night.yaml")
    assert counter(d) == "Round 1 · move 0 of 47"
    key(d, Keys.END)
    assert counter(d) == "Round 10 · move 49 of 49"
    rows = d.find_elements(By.CSS_SELECTOR, "#scores tr")
    assert len(rows) == 11  # the heading and ten rounds
    assert [c.text for c in rows[-1].find_elements(By.TAG_NAME, "td")] == [
        "10", "204", "186", "138", "400",
    ]  # fmt: skip
    d.find_element(By.ID, "first").click()
    assert counter(d) == "Round 1 · move 0 of 47"
    slider = d.find_element(By.ID, "slider")
    d.execute_script(
        "arguments[0].value = 48; arguments[0].dispatchEvent(new Event('input'))", slider
    )
    assert counter(d) == "Round 2 · move 0 of 44"  # past round 1's 47 moves
    assert len(d.find_elements(By.CSS_SELECTOR, "#scores tr")) == 2
    assert d.find_element(By.ID, "problems").text == ""


def test_a_game_without_move_logs(browser, tmp_path):
    d = open_page(browser, tmp_path, "examples/scorekeeper.yaml")
    assert counter(d) == "Round 1 · scored without a move log"
    assert len(d.find_elements(By.CSS_SELECTOR, "#scores tr")) == 2
    key(d, Keys.END)
    assert counter(d) == "Round 10 · scored without a move log"
    last = d.find_elements(By.CSS_SELECTOR, "#scores tr")[-1]
    assert [c.text for c in last.find_elements(By.TAG_NAME, "td")] == [
        "10", "130", "133", "125", "194",
    ]  # fmt: skip
    assert [e for e in d.get_log("browser") if e["level"] == "SEVERE"] == []


def test_names_and_titles_are_text_not_markup(browser, tmp_path):
    source = (ROOT / "examples/mistakes/foot-open.yaml").read_text(encoding="utf-8")
    source = source.replace("title: tiny", 'title: "<i>tiny</i> & co"').replace(
        "Ana", "<b>Ana</b>"
    )
    source = source.replace("<b>Ana</b>]", '"<b>Ana</b>"]').replace(
        "- <b>Ana</b>:", '- "<b>Ana</b>":'
    )
    source = source.replace("      <b>Ana</b>:", '      "<b>Ana</b>":')
    game_file = tmp_path / "odd.yaml"
    game_file.write_text(source, encoding="utf-8")
    game = read_game_file(str(game_file))
    assert "<b>Ana</b>" in game.players
    path = tmp_path / "odd.html"
    path.write_text(game_page(game, validate(game)), encoding="utf-8")
    browser.get(path.as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "<i>tiny</i> & co"
    assert browser.find_elements(By.CSS_SELECTOR, "h1 i, .hand b") == []
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".hand .name")]
    assert names[0].startswith("<b>Ana</b> (3)")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_last_step_shows_who_won(browser, tmp_path):
    d = open_page(browser, tmp_path, "examples/family-night.yaml")
    banner = d.find_element(By.ID, "over")
    assert not banner.is_displayed()
    key(d, Keys.END)
    assert banner.is_displayed() and banner.text == "Game over: Carla wins with 138"
    key(d, Keys.ARROW_LEFT)
    assert not banner.is_displayed()


def test_a_scores_only_game_at_phone_width(browser, tmp_path):
    """No empty board pane, and a long title wraps inside a phone's 360 px."""
    game = read_game_file(str(ROOT / "examples/scorekeeper.yaml"))
    game.title = "Sunday at the club, the long-awaited rematch of the " + "grand" * 12 + " finals"
    path = tmp_path / "replay.html"
    path.write_text(game_page(game, validate(game)), encoding="utf-8")
    browser.set_window_size(360, 740)
    try:
        browser.get(path.as_uri())
        assert browser.find_elements(By.ID, "board") == []
        width = browser.execute_script("return document.documentElement.clientWidth")
        heading = browser.find_element(By.TAG_NAME, "h1")
        assert heading.rect["x"] + heading.rect["width"] <= width
        scroll = browser.execute_script("return document.documentElement.scrollWidth")
        assert scroll <= width
        key(browser, Keys.END)
        assert browser.find_element(By.ID, "over").text == "Game over: Carla wins with 125"
    finally:
        browser.set_window_size(1280, 900)


# --- issue 22 items 4, 5: hostile names opened in the browser --------------------------

#: Names that would run script (set window.pwned) if any of them were taken for markup.
_SCRIPTED = [n for n in HOSTILE_NAMES if "pwned" in n or n in ("<!--<script>", "</script>")]


def _no_script_ran(driver) -> None:
    assert driver.execute_script("return window.pwned === undefined")
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


@pytest.mark.parametrize("name", _SCRIPTED)
def test_a_hostile_name_in_the_chart_svg_runs_nothing(browser, tmp_path, name):
    game = read_game(hostile_name_game(name), "g.yaml")
    report = validate(game)
    path = tmp_path / "chart.svg"
    path.write_text(
        chart_svg(*running_totals([standings_of(game, report.round_points)])), encoding="utf-8"
    )
    browser.get(path.as_uri())
    series = browser.find_elements(By.CSS_SELECTOR, "g.series")
    assert [g.get_attribute("data-player") for g in series] == [game.players[0], "Ben"]
    for g in series:  # a focus or load handler would run now
        browser.execute_script("arguments[0].dispatchEvent(new Event('focus'))", g)
    _no_script_ran(browser)


@pytest.mark.parametrize("name", _SCRIPTED)
def test_a_hostile_name_and_title_leave_the_replay_page_working(browser, tmp_path, name):
    game = read_game(hostile_name_game(name, title=name), "g.yaml")
    path = tmp_path / "replay.html"
    path.write_text(game_page(game, validate(game)), encoding="utf-8")
    browser.get(path.as_uri())
    assert counter(browser) == "Round 1 · move 0 of " + counter(browser).rsplit(" ", 1)[1]
    key(browser, Keys.END)
    assert counter(browser).startswith("Round 2 · move ")
    assert browser.find_element(By.TAG_NAME, "h1").text == name
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".hand .name")]
    assert names[0].startswith(name)
    _no_script_ran(browser)
