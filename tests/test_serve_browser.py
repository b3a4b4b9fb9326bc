"""``cf serve`` in a real browser: headless Chromium on a phone-sized screen enters a whole
round (one hand from a synthetic photo, its reading confirmed), a second window sees it
without reloading, a mistyped round is fixed, the last undone, and a ``cf add`` from a
shell shows up live. Also the phone-width screenshot: nothing wider than the screen.

Skipped, with the reason, without Chromium and its driver, selenium, or the serve extra.
``CF_SCREENSHOTS=docs/images pytest tests/test_serve_browser.py`` writes the screenshots
docs/serve.md shows (then record the page's fingerprint there, as the test says).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from browser_helpers import CHROMIUM, DRIVER, chromium

pytest.importorskip("uvicorn", reason="cf serve needs the serve extra")
pytest.importorskip("starlette", reason="cf serve needs the serve extra")
cv2 = pytest.importorskip("cv2", reason="the photo round needs the photo extra")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="no headless browser: apt-get install chromium chromium-driver",
)

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402
from serve_helpers import running  # noqa: E402

from cf.photo.synth import render_hand  # noqa: E402
from cf.record.check import validate  # noqa: E402
from cf.record.keeper import new_game_text  # noqa: E402
from cf.record.reader import read_game_file  # noqa: E402
from cf.rules import Rules  # noqa: E402

ROOT = Path(__file__).parent.parent
TOKEN = "browser-token"
HOSTILE = "<script>alert(1)</script>"
PLAYERS = ["Ana", "Ben", "Cy", HOSTILE]
PHONE = {"width": 360, "height": 780, "deviceScaleFactor": 2, "mobile": True}
TV = {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False}


@pytest.fixture(scope="module")
def browser():
    # pages in background windows keep their timers: the live-update test needs them
    yield from chromium(
        webdriver,
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
    )


def wait(driver, check, timeout: float = 10):
    """``check(driver)`` once it is true; an element redrawn while it looked (a live
    update) is looked at again."""
    from selenium.common.exceptions import StaleElementReferenceException

    return WebDriverWait(
        driver, timeout, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: check(d))


def tap(d, element) -> None:
    """Click ``element`` after scrolling it to the middle (clear of the sticky header)."""
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def card(d, player: str):
    for c in d.find_elements(By.CSS_SELECTOR, "#players .player"):
        if c.get_attribute("data-player") == player:
            return c
    raise AssertionError(f"no card for {player}")


def mode(d, player: str, which: str) -> None:
    tap(d, card(d, player).find_element(By.CSS_SELECTOR, f'.modes button[data-mode="{which}"]'))


def score(d, player: str, points: int) -> None:
    mode(d, player, "score")
    box = card(d, player).find_element(By.CSS_SELECTOR, "input.score")
    box.clear()
    box.send_keys(str(points))


def board(d) -> list[tuple[str, str]]:
    rows = d.find_elements(By.CSS_SELECTOR, "#scoreboard tbody tr")
    return [
        (r.get_attribute("data-player"), r.find_element(By.CSS_SELECTOR, ".total").text)
        for r in rows
    ]


def round_head(d) -> str:
    return d.find_element(By.ID, "round-head").text


def emulate(d, metrics: dict) -> None:
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def open_phone(d, base: str) -> None:
    """The game's page on a phone-sized screen, its form drawn."""
    emulate(d, PHONE)
    d.get(f"{base}?t={TOKEN}")
    wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player"))


def rounds_in_file(path: Path) -> list:
    game = read_game_file(str(path))
    assert validate(game).valid
    return game.rounds


def test_a_game_night_from_the_phone(browser, tmp_path):
    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(
        new_game_text(PLAYERS, Rules(top=12), title="Friday", date="2026-12-04"), encoding="utf-8"
    )
    photo = tmp_path / "ben.png"
    hand = render_hand(3, size=(1024, 768), difficulty=0)  # 11-6 and 5-1, double-twelve
    cv2.imwrite(str(photo), hand.image)
    with running(path, TOKEN) as base:
        url = f"{base}?t={TOKEN}"
        emulate(d, PHONE)
        d.get(url)
        phone = d.current_window_handle
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player"))
        assert d.find_element(By.ID, "entry-title").text == "Round 1"
        assert round_head(d) == ""  # no "round 0" column before the first round
        # The hostile name is text: in the scoreboard and on its card, and nothing ran.
        assert card(d, HOSTILE).find_element(By.CSS_SELECTOR, ".name").text == HOSTILE
        assert [p for p, _ in board(d)] == PLAYERS
        assert not d.find_elements(By.CSS_SELECTOR, "main script, header script")

        # A second window (the TV) on the same game, opened before the round is in.
        d.switch_to.new_window("window")
        tv = d.current_window_handle
        d.get(f"{url}&view=board")
        wait(d, lambda d: len(board(d)) == 4)
        assert not d.find_element(By.ID, "entry").is_displayed()
        d.switch_to.window(phone)

        # Round 1: Ana by score, Ben from a photo, Cy out, the last by tiles from the grid.
        score(d, "Ana", 12)
        card(d, "Ben").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(photo))
        confirm = wait(d, lambda d: card(d, "Ben").find_elements(By.CSS_SELECTOR, ".confirm"), 30)
        ben = card(d, "Ben")
        assert (
            ben.find_element(By.CSS_SELECTOR, ".photo img")
            .get_attribute("src")
            .startswith("data:image/jpeg;base64,")
        )
        assert "2 tiles read" in ben.find_element(By.CSS_SELECTOR, ".photo-message").text
        on = ben.find_elements(By.CSS_SELECTOR, ".tile.on")
        picked = {b.get_attribute("data-tile") for b in on}
        assert picked == {"11-6", "5-1"}
        mode(d, "Cy", "out")
        mode(d, HOSTILE, "tiles")
        for tile in ("3-2", "1-0"):
            tap(d, card(d, HOSTILE).find_element(By.CSS_SELECTOR, f'.tile[data-tile="{tile}"]'))
        # a tile picked for one player is greyed at once in a grid already open for another
        assert "taken" in ben.find_element(
            By.CSS_SELECTOR, '.tile[data-tile="3-2"]'
        ).get_attribute("class")
        assert card(d, HOSTILE).find_element(By.CSS_SELECTOR, ".value").text == "3-2 1-0: 6"
        # Not before the reading is confirmed: nothing is written.
        tap(d, d.find_element(By.ID, "submit"))
        refusal = d.find_element(By.ID, "refusal")
        assert refusal.is_displayed() and "confirm" in refusal.text
        assert "bad" in ben.get_attribute("class")
        assert rounds_in_file(path) == []
        tap(d, confirm[0])
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: round_head(d) == "round 1")
        assert dict(board(d)) == {"Ana": "12", "Ben": "23", "Cy": "0", HOSTILE: "6"}
        assert "next starts with 11-11" in d.find_element(By.ID, "footer").text
        (r1,) = rounds_in_file(path)
        assert r1.scores is not None and r1.scores["Ben"][0] == 23

        # The TV saw it without reloading.
        d.switch_to.window(tv)
        wait(d, lambda d: round_head(d) == "round 1")
        assert dict(board(d))["Ben"] == "23"
        d.switch_to.window(phone)

        # A refused round says where and why, and writes nothing.
        score(d, "Ana", 0)
        mode(d, "Ben", "tiles")
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="11-11"]'))
        mode(d, "Cy", "out")
        score(d, HOSTILE, 7)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: "11-11" in d.find_element(By.ID, "refusal").text)
        assert "bad" in card(d, "Ben").get_attribute("class")
        assert len(rounds_in_file(path)) == 1

        # A mistyped round 2 (Ana 5, meant 50), then fixed. Ben holds 3-1 (Cy went out:
        # only one player can).
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="11-11"]'))
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="3-1"]'))
        score(d, "Ana", 5)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: round_head(d) == "round 2")
        # The rounds list: each name isolated, each tile kept whole on one line.
        two = '#history li[data-round="2"]'
        names = [b.text for b in d.find_elements(By.CSS_SELECTOR, f"{two} bdi")]
        assert names == ["Ana", "Ben", "Cy", HOSTILE]
        assert [e.text for e in d.find_elements(By.CSS_SELECTOR, f"{two} .tile-text")] == ["3-1"]
        tap(d, d.find_element(By.CSS_SELECTOR, '#history li[data-round="2"] .fix'))
        assert d.find_element(By.ID, "entry-title").text == "Fix round 2"
        ana = card(d, "Ana").find_element(By.CSS_SELECTOR, "input.score")
        assert ana.get_attribute("value") == "5"
        score(d, "Ana", 50)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 3")
        assert dict(board(d))["Ana"] == "62"
        assert rounds_in_file(path)[1].scores["Ana"][0] == 50

        # Undo the last round: two taps. The page names the round it undoes, so one
        # written meanwhile on another phone is never undone in its place.
        d.execute_script(
            "var f = window.fetch; window.fetch = function (url, options) {"
            " if (String(url).indexOf('api/undo') >= 0) window.undoBody = options.body;"
            " return f.apply(this, arguments); };"
        )
        tap(d, d.find_element(By.ID, "undo"))
        assert "Tap again" in d.find_element(By.ID, "undo").text
        tap(d, d.find_element(By.ID, "undo"))
        wait(d, lambda d: round_head(d) == "round 1")
        assert len(rounds_in_file(path)) == 1
        assert json.loads(d.execute_script("return window.undoBody")) == {"last": 2}

        # A round from a shell shows up on both pages, live.
        subprocess.run(
            [sys.executable, "-m", "cf", "add", str(path), "Ana=1", "Ben=2", "Cy=out",
             f"{HOSTILE}=3"],
            check=True, capture_output=True,
        )  # fmt: skip
        wait(d, lambda d: round_head(d) == "round 2", 5)
        assert dict(board(d)) == {"Ana": "13", "Ben": "25", "Cy": "0", HOSTILE: "9"}
        d.switch_to.window(tv)
        wait(d, lambda d: round_head(d) == "round 2", 5)
        d.switch_to.window(phone)

        # One-handed at 360 px: nothing wider than the screen.
        width = d.execute_script("return document.documentElement.scrollWidth")
        assert width <= 360
        shot = d.get_screenshot_as_png()
        assert shot.startswith(b"\x89PNG")
        errors = [
            e
            for e in d.get_log("browser")
            if e["level"] == "SEVERE" and "status of 422" not in e["message"]  # the refusal
        ]
        assert errors == []
        d.switch_to.window(tv)
        d.close()
        d.switch_to.window(phone)


def test_a_photo_with_no_domino_and_a_round_written_elsewhere(browser, tmp_path):
    """A photo in which no domino is found gives no value (SPEC §9: never the player out):
    the round is refused until the hand is given. A round written meanwhile from another
    phone (here cf add) clears what was typed for it, and says so: it must not slip into
    the next round unseen."""
    import numpy as np

    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(new_game_text(["Ana", "Ben", "Cy"], Rules(top=9)), encoding="utf-8")
    white = tmp_path / "white.png"
    cv2.imwrite(str(white), np.full((600, 800, 3), 255, np.uint8))
    with running(path, TOKEN) as base:
        open_phone(d, base)
        score(d, "Ana", 12)
        mode(d, "Cy", "score")
        score(d, "Cy", 3)
        card(d, "Ben").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(white))
        # read in the page itself: the card's photo panel is drawn again as the reading comes
        said = (
            "var c = document.querySelector('#players .player[data-player=\"Ben\"]');"
            "var m = c && c.querySelector('.photo-message'); return m ? m.textContent : '';"
        )
        wait(d, lambda d: "no domino" in d.execute_script(said), 30)
        assert "take it again" in d.execute_script(said)
        ben = card(d, "Ben")
        assert not ben.find_elements(By.CSS_SELECTOR, ".modes button.on")  # no tiles, not out
        assert not ben.find_elements(By.CSS_SELECTOR, ".confirm")
        tap(d, d.find_element(By.ID, "submit"))
        refusal = d.find_element(By.ID, "refusal")
        assert refusal.is_displayed() and "Ben: the photo shows no domino" in refusal.text
        assert "bad" in card(d, "Ben").get_attribute("class")
        assert rounds_in_file(path) == []

        # Meanwhile round 1 is written from another phone (a shell here).
        subprocess.run(
            [sys.executable, "-m", "cf", "add", str(path), "Ana=1", "Ben=out", "Cy=2"],
            check=True, capture_output=True,
        )  # fmt: skip
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 2", 5)
        refusal = d.find_element(By.ID, "refusal")
        assert refusal.is_displayed() and "changed on another phone" in refusal.text
        assert not d.find_elements(By.CSS_SELECTOR, "#players .modes button.on")
        assert not d.find_elements(By.CSS_SELECTOR, "#players .photo")
        tap(d, d.find_element(By.ID, "submit"))  # nothing typed: nothing written
        assert len(rounds_in_file(path)) == 1
        # A score that is no score says so (not just "give a score").
        score(d, "Ana", -3)
        mode(d, "Ben", "out")
        score(d, "Cy", 2)
        tap(d, d.find_element(By.ID, "submit"))
        assert "Ana: '-3' is not a score (a score is a whole number" in refusal.text
        assert len(rounds_in_file(path)) == 1
        # An undo from this page answers the table: the refusal above it is gone.
        tap(d, d.find_element(By.ID, "undo"))
        tap(d, d.find_element(By.ID, "undo"))
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 1", 5)
        assert rounds_in_file(path) == [] and not refusal.is_displayed()


def test_a_round_written_elsewhere_while_this_one_is_on_its_way(browser, tmp_path):
    """Two phones add round 1 at once and the other lands first, while this page's write
    waits for the file's lock: its refusal clears what was typed (it was for round 1) and
    says so, so that one more tap cannot write it as round 2. A round being fixed that
    another phone changes meanwhile is shown as it is now, not saved over unseen. A
    refusal about Anabel marks Anabel, not Ana."""
    from filelock import FileLock

    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(new_game_text(["Ana", "Anabel", "Cy"], Rules(top=9)), encoding="utf-8")
    with running(path, TOKEN) as base:
        open_phone(d, base)
        score(d, "Ana", 33)
        score(d, "Anabel", 44)
        mode(d, "Cy", "out")
        with FileLock(str(path) + ".lock"):
            tap(d, d.find_element(By.ID, "submit"))  # waits for the lock, server-side
            # the other phone's round 1 lands first (written here: the lock is held)
            text = path.read_text(encoding="utf-8")
            one = "rounds:\n  - scores: {Ana: 1, Anabel: 0, Cy: 2}\n"
            path.write_text(text.replace("rounds: []\n", one), encoding="utf-8")
            wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 2", 10)
        refusal = d.find_element(By.ID, "refusal")
        wait(d, lambda d: "changed on another phone" in refusal.text, 10)
        assert not d.find_elements(By.CSS_SELECTOR, "#players .modes button.on")
        tap(d, d.find_element(By.ID, "submit"))  # nothing typed: nothing written
        (r1,) = rounds_in_file(path)  # round 1 as the other phone wrote it, no round 2
        assert r1.scores is not None and {p: v[0] for p, v in r1.scores.items()} == {
            "Ana": 1,
            "Anabel": 0,
            "Cy": 2,
        }
        # Fixing round 1 while another phone changes it.
        tap(d, d.find_element(By.CSS_SELECTOR, '#history li[data-round="1"] .fix'))
        subprocess.run(
            [sys.executable, "-m", "cf", "add", str(path), "--round", "1", "Ana=5",
             "Anabel=out", "Cy=2"],
            check=True, capture_output=True,
        )  # fmt: skip
        wait(d, lambda d: "Round 1 changed on another phone" in refusal.text, 10)
        ana = card(d, "Ana").find_element(By.CSS_SELECTOR, "input[inputmode=numeric]")
        assert ana.get_attribute("value") == "5"
        tap(d, d.find_element(By.ID, "cancel-fix"))
        # A refusal naming Anabel marks her card alone.
        score(d, "Ana", 3)
        mode(d, "Cy", "out")
        tap(d, d.find_element(By.ID, "submit"))
        assert "Anabel" in refusal.text
        assert "bad" in card(d, "Anabel").get_attribute("class")
        assert "bad" not in card(d, "Ana").get_attribute("class")


def test_a_round_with_a_problem_is_mended_with_fix(browser, tmp_path):
    """A round typed by hand into the file with a score no hand holds leaves the game with
    problems (no scoreboard, no form for the next round); Fix loads that round into the
    form, and Save writes the mended round."""
    d = browser
    path = tmp_path / "night.yaml"
    text = new_game_text(["Ana", "Bo"], Rules(top=6))
    path.write_text(text.replace("rounds: []\n", "rounds:\n  - scores: {Ana: 5, Bo: 999}\n"))
    with running(path, TOKEN) as base:
        emulate(d, PHONE)
        d.get(f"{base}?t={TOKEN}")
        fix = '#history li[data-round="1"] .fix'
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, fix))
        assert d.find_element(By.ID, "entry").get_attribute("hidden") is not None
        tap(d, d.find_element(By.CSS_SELECTOR, fix))
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Fix round 1")
        score(d, "Bo", 9)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: "999" not in path.read_text(encoding="utf-8"))
        (r1,) = rounds_in_file(path)
        assert r1.scores is not None and {p: v[0] for p, v in r1.scores.items()} == {
            "Ana": 5,
            "Bo": 9,
        }


def test_a_photo_of_tiles_none_read_is_never_out(browser, tmp_path):
    """A photo that shows a domino none of whose tiles could be read (pink tiles only the
    networks read, on a patterned table; keyed to pink they are not read either) offers
    what it might be; confirmed with no tile
    read or picked it would be an empty hand, the player out: it asks for the tiles to
    be picked first, and the round is not written until they are. Nor is Tiles with no
    tile tapped (the photo's reading dropped) the player out."""
    from cf.photo.scenes import render_family

    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(new_game_text(["Ana", "Ben"], Rules(top=12)), encoding="utf-8")
    pink = tmp_path / "pink.png"
    cv2.imwrite(str(pink), render_family(940_007, "colour_body").image)  # 12-0 7-5 10-10
    with running(path, TOKEN) as base:
        open_phone(d, base)
        score(d, "Ana", 12)
        card(d, "Ben").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(pink))
        confirm = wait(d, lambda d: card(d, "Ben").find_elements(By.CSS_SELECTOR, ".confirm"), 30)
        ben = card(d, "Ben")
        assert "0 tiles read" in ben.find_element(By.CSS_SELECTOR, ".photo-message").text
        might = [u.text for u in ben.find_elements(By.CSS_SELECTOR, ".unreadable")]
        assert "not read: might be 12-0" in might
        assert not ben.find_elements(By.CSS_SELECTOR, ".tile.on")
        tap(d, confirm[0])
        ben = card(d, "Ben")
        said = ben.find_element(By.CSS_SELECTOR, ".photo-message").text
        assert said.startswith("no tile read or picked: pick the tiles")
        confirm = ben.find_elements(By.CSS_SELECTOR, ".confirm")
        assert confirm  # still waiting
        tap(d, d.find_element(By.ID, "submit"))
        refusal = d.find_element(By.ID, "refusal")
        assert refusal.is_displayed() and "Ben: confirm or correct" in refusal.text
        assert rounds_in_file(path) == []
        # Picked and confirmed, then taken back: what the card says follows, and no tile
        # tapped is no value (never the player out).
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="12-0"]'))
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, ".confirm"))
        said = "#players .player[data-player=Ben] .photo-message"
        # The nets' other doubts (7-5, a face of no tile's shape) are not picked: a second
        # tap says so.
        assert "found in the photo but not picked" in d.find_element(By.CSS_SELECTOR, said).text
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, ".confirm"))
        assert d.find_element(By.CSS_SELECTOR, said).text == "confirmed: 12-0"
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="12-0"]'))
        assert d.find_element(By.CSS_SELECTOR, said).text == "confirmed: no tiles"
        assert card(d, "Ben").find_element(By.CSS_SELECTOR, ".value").text == "no tiles: 0"
        tap(d, d.find_element(By.ID, "submit"))
        refusal = d.find_element(By.ID, "refusal")
        assert "Ben: tap the tiles left in the hand, or choose Out" in refusal.text
        assert rounds_in_file(path) == []
        # Tiles tapped again drops the photo's reading: the same.
        mode(d, "Ben", "tiles")
        assert not card(d, "Ben").find_elements(By.CSS_SELECTOR, ".photo")
        tap(d, d.find_element(By.ID, "submit"))
        refusal = d.find_element(By.ID, "refusal")
        assert "Ben: tap the tiles left in the hand, or choose Out" in refusal.text
        assert rounds_in_file(path) == []
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="12-0"]'))
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: len(rounds_in_file(path)) == 1)
        (r1,) = rounds_in_file(path)
        assert r1.scores is not None and r1.scores["Ben"][0] == 12


def test_a_photo_s_tiles_not_read_are_never_left_out_unsaid(browser, tmp_path):
    """A photo of nine tiles, seven read and two not (12-4 and 9-9): confirmed with none
    of the two picked, the card says how many are not picked and waits; picked, one tap
    confirms, and the round holds the whole hand (115, not the 81 of the seven read)."""
    from cf.photo.synth import render_hand

    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(new_game_text(["Ana", "Ben"], Rules(top=12)), encoding="utf-8")
    photo = render_hand(4, size=(1024, 768), difficulty=3, top=12)
    hand = tmp_path / "hand.png"
    cv2.imwrite(str(hand), photo.image)
    with running(path, TOKEN) as base:
        open_phone(d, base)
        score(d, "Ben", 12)
        card(d, "Ana").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(hand))
        confirm = wait(d, lambda d: card(d, "Ana").find_elements(By.CSS_SELECTOR, ".confirm"), 30)
        assert len(card(d, "Ana").find_elements(By.CSS_SELECTOR, ".tile.on")) == 7
        tap(d, confirm[0])
        said = "#players .player[data-player=Ana] .photo-message"
        assert d.find_element(By.CSS_SELECTOR, said).text.startswith(
            "2 found in the photo but not picked"
        )
        tap(d, d.find_element(By.ID, "submit"))
        assert "Ana: confirm or correct" in d.find_element(By.ID, "refusal").text
        assert rounds_in_file(path) == []
        for tile in ("12-4", "9-9"):
            tap(d, card(d, "Ana").find_element(By.CSS_SELECTOR, f'.tile[data-tile="{tile}"]'))
        tap(d, card(d, "Ana").find_element(By.CSS_SELECTOR, ".confirm"))
        assert d.find_element(By.CSS_SELECTOR, said).text.startswith("confirmed: ")
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: len(rounds_in_file(path)) == 1)
        (r1,) = rounds_in_file(path)
        assert r1.scores is not None and r1.scores["Ana"][0] == 115


def test_a_reload_keeps_what_was_typed_but_not_an_unconfirmed_photo(browser, tmp_path):
    """A phone may reload a tab it put aside: the round being typed comes back, except a
    photo's reading not yet confirmed (it would pass for tiles picked by hand)."""
    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(new_game_text(["Ana", "Ben", "Cy"], Rules(top=12)), encoding="utf-8")
    photo = tmp_path / "cy.png"
    cv2.imwrite(str(photo), render_hand(3, size=(1024, 768), difficulty=0).image)
    with running(path, TOKEN) as base:
        open_phone(d, base)
        score(d, "Ana", 12)
        mode(d, "Ben", "tiles")
        tap(d, card(d, "Ben").find_element(By.CSS_SELECTOR, '.tile[data-tile="3-2"]'))
        card(d, "Cy").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(photo))
        wait(d, lambda d: card(d, "Cy").find_elements(By.CSS_SELECTOR, ".confirm"), 30)
        d.refresh()
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player"))
        assert (
            card(d, "Ana").find_element(By.CSS_SELECTOR, "input.score").get_attribute("value")
            == "12"
        )
        assert card(d, "Ben").find_element(By.CSS_SELECTOR, ".value").text == "3-2: 5"
        assert not card(d, "Cy").find_elements(By.CSS_SELECTOR, ".modes button.on")
        # Once the round is written, a reload gives the next round's empty form.
        mode(d, "Cy", "out")
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 2")
        d.refresh()
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 2")
        assert not d.find_elements(By.CSS_SELECTOR, "#players .modes button.on")


def test_the_page_s_own_writes_and_a_refused_token(browser, tmp_path):
    """The page's own add and undo, answered after the live update already came, do not
    say that another phone changed the rounds; a write refused for its token (403) says
    to open the join link again, not that the server cannot be reached."""
    d = browser
    path = tmp_path / "night.yaml"
    path.write_text(new_game_text(["Ana", "Ben"], Rules(top=6)), encoding="utf-8")
    slow = (
        "var f = window.fetch; window.fetch = function (u, o) { return f(u, o).then("
        "function (r) { return new Promise(function (ok) { setTimeout(function () "
        "{ ok(r); }, 1500); }); }); };"
    )
    with running(path, TOKEN) as base:
        open_phone(d, base)
        d.execute_script(slow)  # every answer comes 1.5 s late: the live update first
        score(d, "Ana", 12)
        mode(d, "Ben", "out")
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 2")
        refusal = d.find_element(By.ID, "refusal")
        assert not refusal.is_displayed(), refusal.text
        score(d, "Ana", 3)  # something typed, then this page's own undo
        tap(d, d.find_element(By.ID, "undo"))
        tap(d, d.find_element(By.ID, "undo"))
        wait(d, lambda d: d.find_element(By.ID, "entry-title").text == "Round 1", 10)
        d.execute_script("return new Promise(function (ok) { setTimeout(ok, 2000); })")
        assert not refusal.is_displayed(), refusal.text
        assert rounds_in_file(path) == []

        # A write whose token the server does not know (another server's page, say).
        d.delete_all_cookies()
        d.execute_script(
            "var f = window.fetch; window.fetch = function (u, o) { o = o || {};"
            " o.headers = Object.assign({}, o.headers, {'X-CF-Token': 'wrong'});"
            " return f(u, o); };"
        )
        score(d, "Ana", 12)
        mode(d, "Ben", "out")
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: "open it again from the join link" in refusal.text, 10)
        assert rounds_in_file(path) == []


def test_the_screenshots_of_the_docs(browser, tmp_path):
    """A family's game in round 3: the phone with Ben's photo read and waiting to be
    confirmed, and the TV. Written to $CF_SCREENSHOTS (docs/images) when that is set."""
    d = browser
    path = tmp_path / "friday.yaml"
    path.write_text(
        new_game_text(["Ana", "Ben", "Carla", "Dan"], Rules(top=12), title="Friday night",
                      date="2026-12-04"),
        encoding="utf-8",
    )  # fmt: skip
    for entries in (
        ["Ana=0", "Ben=33", "Carla=12", "Dan=50"],
        ["Ana=8", "Ben=0", "Carla=21", "Dan=5"],
    ):
        subprocess.run([sys.executable, "-m", "cf", "add", str(path), *entries], check=True,
                       capture_output=True)  # fmt: skip
    photo = tmp_path / "ben.png"
    cv2.imwrite(str(photo), render_hand(3, size=(1024, 768), difficulty=0).image)
    folder = os.environ.get("CF_SCREENSHOTS")
    with running(path, TOKEN) as base:
        url = f"{base}?t={TOKEN}"
        emulate(d, TV)
        d.get(f"{url}&view=board")
        wait(d, lambda d: round_head(d) == "round 2")
        wait(d, lambda d: d.execute_script("return document.getElementById('chart').complete"))
        assert d.execute_script("return document.documentElement.scrollWidth") <= TV["width"]
        # read from across the room: the chart has half the screen, near its own size
        chart = d.execute_script("return document.getElementById('chart').clientWidth")
        assert chart >= 0.45 * TV["width"]
        if folder:
            d.save_screenshot(str(Path(folder) / "serve-tv.png"))
        emulate(d, PHONE)
        d.get(url)
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player"))
        score(d, "Ana", 12)
        card(d, "Ben").find_element(By.CSS_SELECTOR, "input[type=file]").send_keys(str(photo))
        wait(d, lambda d: card(d, "Ben").find_elements(By.CSS_SELECTOR, ".confirm"), 30)
        assert d.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
        d.execute_script("document.getElementById('entry').scrollIntoView()")
        d.execute_script("window.scrollBy(0, -60)")
        if folder:
            d.save_screenshot(str(Path(folder) / "serve-phone.png"))
        emulate(d, {**PHONE, "height": 1400})


def test_game_over_shows_the_winner_and_hides_the_form(browser, tmp_path):
    d = browser
    path = tmp_path / "short.yaml"
    path.write_text(new_game_text(["Ana", "Ben"], Rules(top=6, rounds=1)), encoding="utf-8")
    with running(path, TOKEN) as base:
        emulate(d, PHONE)
        d.get(f"{base}?t={TOKEN}")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player"))
        assert not d.find_element(By.ID, "banner").is_displayed()
        score(d, "Ana", 9)
        mode(d, "Ben", "out")
        tap(d, d.find_element(By.ID, "submit"))
        banner = wait(
            d,
            lambda d: (
                d.find_element(By.ID, "banner").is_displayed() and d.find_element(By.ID, "banner")
            ),
        )
        assert banner.text == "game over: Ben wins with 0"
        assert not d.find_element(By.ID, "entry").is_displayed()
        assert (
            d.find_element(By.CSS_SELECTOR, '#scoreboard tr[data-player="Ben"] .name').text
            == "Ben *"
        )
        # a round can still be fixed after the game is over
        tap(d, d.find_element(By.CSS_SELECTOR, '#history li[data-round="1"] .fix'))
        assert d.find_element(By.ID, "entry").is_displayed()
        score(d, "Ana", 0)
        mode(d, "Ben", "score")
        score(d, "Ben", 4)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: d.find_element(By.ID, "banner").text == "game over: Ana wins with 0")


def test_a_table_that_scores_going_out_on_a_double(browser, tmp_path):
    """With out_on_double in the rules, Out asks whether it was on a double (not
    without): ticked, it is written as cf add writes NAME=out-double, and a fix loads it
    so. When the rules stop scoring it, what was ticked is going out."""
    d = browser
    path = tmp_path / "double.yaml"
    path.write_text(
        new_game_text(["Ana", "Ben"], Rules(top=6, out_on_double=50)), encoding="utf-8"
    )

    def ana(css: str):
        return card(d, "Ana").find_elements(By.CSS_SELECTOR, css)

    with running(path, TOKEN) as base:
        open_phone(d, base)
        assert not ana("input.double")  # only once Out is chosen
        mode(d, "Ana", "out")
        assert ana(".value")[0].text == "out: 0"
        tap(d, ana("input.double")[0])
        assert ana(".value")[0].text == "out on a double: 50"
        assert ana(".modes button.on")[0].get_attribute("data-mode") == "out"
        # the tick is kept as a typed score is: Out tapped again, or Score then Out
        mode(d, "Ana", "out")
        assert ana("input.double")[0].is_selected()
        score(d, "Ana", 3)
        mode(d, "Ana", "out")
        assert ana(".value")[0].text == "out on a double: 50"
        score(d, "Ben", 7)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: round_head(d) == "round 1")
        assert board(d) == [("Ben", "7"), ("Ana", "50")]
        assert "# Ana: out-double" in path.read_text(encoding="utf-8")
        first = d.find_element(By.CSS_SELECTOR, '#history li[data-round="1"] span')
        assert first.text == "Ana out on a double · Ben 7"
        tap(d, d.find_element(By.CSS_SELECTOR, '#history li[data-round="1"] .fix'))
        assert ana("input.double")[0].is_selected()
        mode(d, "Ana", "out")  # tapped again in a fix: still 50, never rewritten as 0
        assert ana(".value")[0].text == "out on a double: 50"
        tap(d, d.find_element(By.ID, "cancel-fix"))
        mode(d, "Ana", "out")
        tap(d, ana("input.double")[0])
        path.write_text(
            path.read_text(encoding="utf-8").replace("out_on_double: 50", "out_on_double: 0"),
            encoding="utf-8",
        )
        wait(d, lambda d: not ana("input.double") and ana(".value")[0].text == "out: 0")
    plain = tmp_path / "plain.yaml"
    plain.write_text(new_game_text(["Ana", "Ben"], Rules(top=6)), encoding="utf-8")
    with running(plain, TOKEN) as base:
        open_phone(d, base)
        mode(d, "Ana", "out")
        assert not ana("input.double")


@pytest.fixture
def spanish_browser():
    """Chromium set up as a browser in Spain: its language, and the Accept-Language it
    sends."""
    yield from chromium(webdriver, "--lang=es", prefs={"intl.accept_languages": "es-ES,es"})


def test_a_spanish_phone_gets_the_page_in_spanish_and_enters_a_round(spanish_browser, tmp_path):
    d = spanish_browser
    path = tmp_path / "noche.yaml"
    path.write_text(
        new_game_text(["Ana", "Bea", "Cy"], Rules(top=6), title="Noche", date="2026-12-04"),
        encoding="utf-8",
    )
    with running(path, TOKEN) as base:
        emulate(d, PHONE)
        d.get(f"{base}?t={TOKEN}")
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#players .player"))
        assert d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
        assert d.find_element(By.ID, "entry-title").text == "Ronda 1"
        assert d.find_element(By.ID, "submit").text == "Añadir la ronda 1"
        modes = [b.text for b in card(d, "Ana").find_elements(By.CSS_SELECTOR, ".modes button")]
        assert modes == ["Puntos", "Fichas", "Fuera"]
        # refused by the page, then by the server: both say why in Spanish
        tap(d, d.find_element(By.ID, "submit"))
        refusal = d.find_element(By.ID, "refusal")
        assert refusal.text.startswith("No se ha escrito nada: Ana: indica los puntos")
        score(d, "Ana", 0)
        score(d, "Bea", 12)
        score(d, "Cy", 9999)  # more than any hand holds
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: "el archivo tendría estos problemas" in refusal.text)
        assert rounds_in_file(path) == []
        score(d, "Cy", 7)
        tap(d, d.find_element(By.ID, "submit"))
        wait(d, lambda d: round_head(d) == "ronda 1")
        assert (
            d.find_element(By.ID, "footer").text == "ronda 1 de 7, la siguiente empieza con el 5-5"
        )
        assert d.find_element(By.ID, "entry-title").text == "Ronda 2"
        assert len(rounds_in_file(path)) == 1
        # the longer Spanish words still fit a phone: nothing wider than the screen
        mode(d, "Bea", "tiles")
        assert d.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
        if os.environ.get("CF_SCREENSHOTS"):
            d.save_screenshot(str(Path(os.environ["CF_SCREENSHOTS"]) / "serve-phone-es.png"))
        # no script error (the 422 of the refused round is the network's, as it should be)
        log = d.get_log("browser")
        assert [e for e in log if e["level"] == "SEVERE" and e["source"] != "network"] == []
        # the rounds list says "out" in Spanish too
        subprocess.run([sys.executable, "-m", "cf", "add", str(path), "Ana=out", "Bea=3",
                        "Cy=4"], check=True, capture_output=True)  # fmt: skip
        second = '#history li[data-round="2"] span'
        wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, second))
        assert d.find_element(By.CSS_SELECTOR, second).text == "Ana fuera · Bea 3 · Cy 4"


NAMES = ["Maximiliano", "Guadalupe", "Bartholomew", "Jo", "Anastasiadis"]


def _one_line_names(d, tmp_path: Path, screen: dict = PHONE, view: str = "") -> dict[str, int]:
    """The height of each name in the scoreboard on ``screen`` (``view``: "board" for
    the TV), two rounds into a game of players with long names (the leader's star beside
    the first)."""
    path = tmp_path / "names.yaml"
    path.write_text(new_game_text(NAMES, Rules(top=9)), encoding="utf-8")
    for i in range(2):
        entries = [f"{p}={5 * i + j}" if j else f"{p}=out" for j, p in enumerate(NAMES)]
        subprocess.run([sys.executable, "-m", "cf", "add", str(path), *entries], check=True,
                       capture_output=True)  # fmt: skip
    with running(path, TOKEN) as base:
        emulate(d, screen)
        d.get(f"{base}?t={TOKEN}" + (f"&view={view}" if view else ""))
        wait(d, lambda d: len(board(d)) == len(NAMES))
        cells = d.find_elements(By.CSS_SELECTOR, "#scoreboard td.name")
        return {c.text: c.size["height"] for c in cells}


@pytest.mark.parametrize("fixture", ["browser", "spanish_browser"])
def test_names_keep_to_one_line_on_a_phone(request, fixture, tmp_path):
    """At 360 px the headings give the names room: 'Maximiliano *' and 'Anastasiadis'
    take one line, as 'Jo' does, in English and in Spanish (longer headings)."""
    heights = _one_line_names(request.getfixturevalue(fixture), tmp_path)
    assert set(heights) == {"Maximiliano *", *NAMES[1:]}
    assert len(set(heights.values())) == 1, heights


def test_names_keep_to_one_line_on_the_tv(browser, tmp_path):
    """The TV's scoreboard is as wide as its names need, the chart the rest."""
    heights = _one_line_names(browser, tmp_path, TV, "board")
    assert len(set(heights.values())) == 1, heights


def test_the_tv_scoreboard_is_as_wide_as_its_table_not_its_footer(spanish_browser, tmp_path):
    """Short names, the longer Spanish footer ("ronda 1 de 7, la siguiente empieza con el
    5-5"): it wraps within the table's width, and the chart has the rest of the screen."""
    d = spanish_browser
    path = tmp_path / "tv.yaml"
    path.write_text(new_game_text(["Ana", "Bea"], Rules(top=6)), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "cf", "add", str(path), "Ana=3", "Bea=out"],
                   check=True, capture_output=True)  # fmt: skip
    with running(path, TOKEN) as base:
        emulate(d, TV)
        d.get(f"{base}?t={TOKEN}&view=board")
        wait(d, lambda d: len(board(d)) == 2)
        wait(d, lambda d: d.execute_script("return document.getElementById('chart').complete"))
        chart = d.execute_script("return document.getElementById('chart').clientWidth")
        assert chart >= 0.45 * TV["width"]  # 467 px of 1280 when the footer set the width
        # the footer wraps, but never inside a tile's name
        tile = d.find_element(By.CSS_SELECTOR, "#footer .tile-text")
        assert tile.text == "5-5" and tile.value_of_css_property("white-space") == "nowrap"
