"""``cf serve`` in-process (Starlette's TestClient): every route, the join token, writes
through the scorekeeper, photo uploads bounded in bytes and pixels, hostile text shown as
text, no file but the game file reached. Skipped without the serve extra."""

from __future__ import annotations

import json
import re
import struct
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="cf serve needs the serve extra")
pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient

from cf.photo.limits import MAX_PIXELS
from cf.record.check import validate
from cf.record.keeper import new_game_text
from cf.record.reader import read_game_file
from cf.rules import Rules
from cf.serve.app import cookie_name, create_app, script_json
from cf.serve.photos import UploadError, check_upload, image_size
from cf.serve.store import Store

TOKEN = "test-token-123"
HOSTILE = "<script>alert(1)</script>"
PLAYERS = ["Ana", "Ben", HOSTILE]
WRITE = {"x-cf-token": TOKEN}

ROUTES = [
    ("GET", "/"),
    ("GET", "/?view=board"),
    ("GET", "/static/app.js"),
    ("GET", "/static/app.css"),
    ("GET", "/api/state"),
    ("GET", "/events"),
    ("GET", "/chart.svg"),
    ("GET", "/no-such-page"),
    ("GET", "/static/../../pyproject.toml"),
    ("POST", "/api/round"),
    ("POST", "/api/undo"),
    ("POST", "/api/photo"),
]


def make_game(folder: Path, players=PLAYERS, top: int = 6) -> Path:
    path = folder / "game.yaml"
    path.write_text(
        new_game_text(players, Rules(top=top), title=f"Night {HOSTILE}", date="2026-12-01"),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def game(tmp_path) -> Path:
    return make_game(tmp_path)


def client_for(path: Path, **options) -> TestClient:
    options.setdefault("max_events", 1)
    options.setdefault("photos", True)
    app = create_app(Store(str(path), "game.yaml"), TOKEN, **options)
    return TestClient(app, base_url="http://127.0.0.1:8765")


@pytest.fixture
def client(game) -> TestClient:
    c = client_for(game)
    c.get(f"/?t={TOKEN}")  # joins: the token is kept in the cookie from here on
    return c


def add(client: TestClient, entries, number=None, **headers):
    body = {"entries": entries, "round": number}
    return client.post("/api/round", json=body, headers={**WRITE, **headers})


def state_in_page(html: str) -> dict:
    m = re.search(r'<script type="application/json" id="cf-state">(.*?)</script>', html, re.S)
    assert m is not None
    return json.loads(m.group(1))


# --- the join token ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "said"),
    [
        ({"accept-language": "es"}, "el servidor rechaza esta página"),
        ({"accept-language": "gl-ES,en;q=0.5"}, "o servidor rexeita esta páxina"),
        ({}, "the server refused this page: open it again from the join link"),
    ],
)
def test_a_browser_without_the_token_is_told_what_to_do_in_its_language(game, headers, said):
    """A phone that scanned an old join code asks for a page (HTML): 403, and what to do
    in the page's language, not a bare 'forbidden'; a script still gets 'forbidden'."""
    c = client_for(game)
    browser = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8", **headers}
    r = c.get("/", headers=browser)
    assert r.status_code == 403 and said in r.text, r.text
    assert TOKEN not in r.text and "set-cookie" not in r.headers
    assert c.get("/", headers=headers).text == "forbidden"


def test_an_address_with_no_page_is_said_in_the_browsers_language(client):
    """A mistyped address (404) or a GET of a write (405): a browser reads what to do in
    its language, a script the framework's words; the status is kept (405 with Allow)."""
    browser = {"accept": "text/html,*/*;q=0.8", "accept-language": "gl"}
    for route, status in (
        ("/no-such-page", 404),
        ("/static/nothing.js", 404),
        ("/api/round", 405),
    ):
        r = client.get(route, headers=browser)
        assert r.status_code == status and "non hai ningunha páxina" in r.text, r.text
        assert client.get(route).text == ("Not Found" if status == 404 else "Method Not Allowed")
    assert "POST" in client.get("/api/round").headers["allow"]


@pytest.mark.parametrize(("method", "route"), ROUTES)
def test_no_token_is_403_everywhere_and_reveals_nothing(game, method, route):
    c = client_for(game)
    wrong = ({"cookie": f"{cookie_name(TOKEN)}=wrong"}, {"cookie": f"cf_token={TOKEN}"})
    for headers in ({}, {"x-cf-token": "wrong"}, *wrong):
        r = c.request(method, route, headers=headers)
        assert r.status_code == 403, (route, headers)
        assert r.text == "forbidden"
        assert "set-cookie" not in r.headers
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    r = c.request(method, route + ("&" if "?" in route else "?") + "t=wrong")
    assert r.status_code == 403
    assert game.read_text(encoding="utf-8").endswith("rounds: []\n")


def test_the_token_in_the_url_is_kept_in_a_cookie(game):
    c = client_for(game)
    r = c.get(f"/?t={TOKEN}")
    assert r.status_code == 200
    cookie = r.headers["set-cookie"]
    assert f"{cookie_name(TOKEN)}={TOKEN}" in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert c.get("/api/state").status_code == 200  # the cookie alone will do now
    assert "content-security-policy" in r.headers
    assert r.headers["x-content-type-options"] == "nosniff"


def test_two_servers_on_one_computer_keep_a_cookie_each(game, tmp_path):
    """A browser sends a host's cookies to every port: a second cf serve (a --view-only
    board) must not replace the first's cookie, and a write's header decides even beside
    a cookie that is not this server's."""
    other = "another-token-for-the-board-server"
    assert cookie_name(other) != cookie_name(TOKEN)
    c = client_for(game)
    assert c.get(f"/?t={TOKEN}").status_code == 200
    c.cookies.set(cookie_name(other), other)  # what the board's page left
    c.cookies.set("cf_token", other)  # and a cookie of the old, shared name
    assert c.get("/api/state").status_code == 200
    entries = [["Ana", "0"], ["Ben", "5"], [HOSTILE, "3"]]
    r = c.post("/api/round", json={"entries": entries}, headers=WRITE)
    assert r.status_code == 200, r.text
    c.cookies.clear()
    c.cookies.set("cf_token", TOKEN)  # the token under another server's name: no entry
    assert c.get("/api/state").status_code == 403


def test_an_old_join_link_is_let_in_by_this_server_s_cookie(game):
    """SPEC 13 looks for the token in the URL, then the cookie: a browser that joined this
    server and opens an old join link (a server since restarted: another token) holds the
    token in its cookie; a write needs it in its header or URL, either of them."""
    c = client_for(game)
    assert c.get(f"/?t={TOKEN}").status_code == 200
    assert c.get("/?t=an-old-servers-token").status_code == 200
    assert c.get("/api/state?t=an-old-servers-token").status_code == 200
    c.cookies.clear()
    assert c.get("/?t=an-old-servers-token").status_code == 403
    entries = [["Ana", "0"], ["Ben", "5"], [HOSTILE, "3"]]
    r = c.post(f"/api/round?t={TOKEN}", json={"entries": entries}, headers={"x-cf-token": "old"})
    assert r.status_code == 200, r.text


def test_a_round_entered_as_another_number_is_refused(client, game):
    """The page says which round it entered ("next"): written meanwhile elsewhere, the
    round it typed is not appended as the next one."""
    entries = [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]]
    assert (
        client.post("/api/round", json={"entries": entries, "next": 1}, headers=WRITE).status_code
        == 200
    )
    before = game.read_bytes()
    r = client.post("/api/round?lang=es", json={"entries": entries, "next": 1}, headers=WRITE)
    assert r.status_code == 422
    assert r.json()["error"].startswith(
        "nothing written: this was entered as round 1, but the next round is 2"
    )
    assert r.json()["shown"]["error"].startswith(
        "no se ha escrito nada: esto se introdujo como la ronda 1"
    )
    assert game.read_bytes() == before
    r = client.post("/api/round", json={"entries": entries, "next": "2"}, headers=WRITE)
    assert r.status_code == 400 and game.read_bytes() == before
    assert (
        client.post("/api/round", json={"entries": entries, "next": 2}, headers=WRITE).status_code
        == 200
    )


def test_a_write_needs_the_token_it_carries_not_only_the_cookie(client, game):
    before = game.read_bytes()
    r = client.post("/api/round", json={"entries": [["Ana", "0"]]})
    assert r.status_code == 403
    r = client.post("/api/undo")
    assert r.status_code == 403
    r = client.post("/api/undo?t=wrong", headers={"x-cf-token": "wrong"})
    assert r.status_code == 403
    assert game.read_bytes() == before
    # SPEC 13: writes are POSTs carrying the token: in the header, or in the URL.
    entries = [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]]
    r = client.post(f"/api/round?t={TOKEN}", json={"entries": entries, "round": None})
    assert r.status_code == 200, r.text
    assert "scores: {Ana: 0, Ben: 5" in game.read_text(encoding="utf-8")
    # Still refused from another site's page, wherever the token is.
    r = client.post(f"/api/undo?t={TOKEN}", headers={"origin": "http://evil.example"})
    assert r.status_code == 403


@pytest.mark.parametrize(("method", "route"), ROUTES)
def test_on_loopback_this_computer_needs_no_token(game, method, route):
    """SPEC 13: only --lan asks for the join token. Without it the server listens on
    127.0.0.1 alone, so a request addressed to this computer by name is let in (a write
    as JSON); a wrong token given changes nothing, and sets no cookie."""
    for base in ("http://127.0.0.1:8765", "http://localhost:8765"):
        c = TestClient(
            create_app(Store(str(game), "game.yaml"), TOKEN, max_events=1, loopback=True),
            base_url=base,
        )
        typed = {"content-type": "application/json"} if method == "POST" else {}
        r = c.request(method, route + ("&" if "?" in route else "?") + "t=wrong", headers=typed)
        assert r.status_code != 403, (base, route, r.text)
        assert "set-cookie" not in r.headers
        assert r.headers["x-frame-options"] == "DENY"


def test_on_loopback_another_name_or_site_still_needs_the_token(game):
    """A web page that points a name of its own at 127.0.0.1 (DNS rebinding) addresses the
    server by that name: without the token it is 403, read or write; a POST from another
    site's page is 403 whatever it carries."""
    app = create_app(Store(str(game), "game.yaml"), TOKEN, max_events=1, loopback=True)
    before = game.read_bytes()
    rebound = TestClient(app, base_url="http://evil.example:8765")
    assert rebound.get("/api/state").status_code == 403
    assert rebound.get("/api/state", headers=WRITE).status_code == 200
    entries = [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]]
    assert rebound.post("/api/round", json={"entries": entries}).status_code == 403
    local = TestClient(app, base_url="http://127.0.0.1:8765")
    for headers in (
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
    ):
        r = local.post("/api/round", json={"entries": entries}, headers=headers)
        assert r.status_code == 403, headers
    assert game.read_bytes() == before
    r = local.post("/api/round", json={"entries": entries})  # a shell's, or the page's
    assert r.status_code == 200, r.text
    assert "scores: {Ana: 0, Ben: 5" in game.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "headers",
    [
        {"content-type": "text/plain"},  # what a form, or a page's simple request, sends
        {"content-type": "application/x-www-form-urlencoded"},
        {"content-type": "multipart/form-data; boundary=x"},
        {"content-type": "application/json", "referer": "http://evil.example/page"},
        {"content-type": "application/json", "origin": "https://evil.example"},
        {},  # a beacon of an untyped blob, a bare fetch: no Content-Type at all
        {"content-type": "text/ping"},  # <a ping>
    ],
)
def test_on_loopback_a_write_no_page_could_send_unasked_is_the_only_one_without_a_token(
    game, headers
):
    """A browser that names no Origin (an old one, a webview) still posts another site's
    form, beacon or ping anywhere: without the token, a write must be JSON (or an image),
    which no page can send another site unasked, and not say it comes from another page;
    with the token, the page's own writes are as before."""
    app = create_app(Store(str(game), "game.yaml"), TOKEN, max_events=1, loopback=True)
    local = TestClient(app, base_url="http://127.0.0.1:8765")
    body = json.dumps({"entries": [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]]})
    before = game.read_bytes()
    r = local.post("/api/round", content=body, headers=headers)
    assert r.status_code == 403
    assert local.post("/api/undo", headers=headers).status_code == 403
    assert game.read_bytes() == before
    # a script on this computer is told what to send; a page of another site, nothing
    if "origin" in headers or "referer" in headers:
        assert r.text == "forbidden"
    else:
        assert r.text == (
            "forbidden: without the join token, a write is JSON (Content-Type: application/json)"
        )
    json_type = {"content-type": "application/json"}
    r = local.post("/api/round", content=body, headers=json_type)
    assert r.status_code == 200, r.text
    assert local.post("/api/undo", headers=json_type).status_code == 200
    assert game.read_bytes() == before
    # behind an HTTPS proxy the page's own Origin is https://, the same host and port
    proxied = {**json_type, "origin": "https://127.0.0.1:8765"}
    assert local.post("/api/round", content=body, headers=proxied).status_code == 200
    # JSON already, from another site's page: refused, and not told to send JSON
    fetched = {**json_type, "sec-fetch-site": "same-site"}
    r = local.post("/api/round", content=body, headers=fetched)
    assert r.status_code == 403 and r.text == "forbidden"


@pytest.mark.parametrize(
    ("host", "let_in"),
    [
        ("127.0.0.1:8765", True),
        ("LOCALHOST:8765", True),
        ("localhost", True),
        ("evil.example@127.0.0.1", False),
        ("127.0.0.1:evil", False),
        ("127.0.0.1.evil.example", False),
        ("localhost.", False),
        ("[::1]:8765", False),
    ],
)
def test_on_loopback_this_computer_is_named_exactly(game, host, let_in):
    app = create_app(Store(str(game), "game.yaml"), TOKEN, max_events=1, loopback=True)
    r = TestClient(app, base_url="http://127.0.0.1:8765").get("/api/state", headers={"host": host})
    assert (r.status_code == 200) is let_in, (host, r.status_code)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://127.0.0.1:9999"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ],
)
def test_a_cross_origin_post_is_refused(client, game, headers):
    before = game.read_bytes()
    r = add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]], **headers)
    assert r.status_code == 403
    assert game.read_bytes() == before


def test_a_same_origin_post_is_written(client, game):
    headers = {"origin": "http://127.0.0.1:8765", "sec-fetch-site": "same-origin"}
    r = add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]], **headers)
    assert r.status_code == 200, r.text
    assert "scores: {Ana: 0, Ben: 5" in game.read_text(encoding="utf-8")


# --- the page and its files ----------------------------------------------------------------


def test_the_page_shows_hostile_text_as_text(client, game):
    add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]])
    html = client.get("/").text
    assert HOSTILE not in html
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the title, escaped
    state = state_in_page(html)
    assert state["players"] == PLAYERS
    assert state == client.get("/api/state?lang=en").json()  # the page asks in its language
    # the JSON element cannot be closed from inside
    assert script_json({"n": "</script><!--"}).count("<") == 0


def test_the_page_loads_nothing_from_elsewhere(client):
    html = client.get("/").text
    links = re.findall(r'(?:src|href)="([^"]*)"', html)
    assert links and all(not re.match(r"[a-z]+://|//", u) for u in links), links
    for name in ("app.js", "app.css"):
        text = client.get(f"/static/{name}").text
        assert "http://" not in text and "https://" not in text and "@import" not in text


def test_the_board_view_and_view_only(game):
    c = client_for(game, view_only=True)
    c.get(f"/?t={TOKEN}")
    config = re.search(r'id="cf-config">(.*?)</script>', c.get("/?view=board").text, re.S)
    assert config is not None and json.loads(config.group(1))["viewOnly"] is True
    before = game.read_bytes()
    for route in ("/api/round", "/api/undo", "/api/photo"):
        r = c.post(route, json={"entries": []}, headers=WRITE)
        assert r.status_code == 403
        assert "view-only" in r.json()["error"]
    assert game.read_bytes() == before
    page = client_for(game).get(f"/?t={TOKEN}&view=board").text
    assert '<body class="board">' in page


@pytest.mark.parametrize(
    "route",
    [
        "/static/..%2f..%2fpyproject.toml",
        "/static/%2e%2e%2fapp.py",
        "/static/page.html",
        "/static/app.js%00",
        "/static/../store.py",
        "/static//etc/passwd",
        "/..%2f..%2fpyproject.toml",
        "/?view=../../pyproject.toml",
        "/chart.svg?file=../../pyproject.toml",
        "/api/state?file=/etc/passwd",
    ],
)
def test_dot_dot_in_any_parameter_reaches_no_file(client, route):
    r = client.get(route)
    assert r.status_code in (200, 404)
    for secret in ("[build-system]", "root:x:", "import ", "{{state}}"):
        assert secret not in r.text


def test_only_the_game_file_is_written(client, game):
    add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]])
    client.post("/api/undo", headers=WRITE)
    add(client, [["Ana", "1"], ["Ben", "5"], [HOSTILE, "7"]])
    assert sorted(p.name for p in game.parent.iterdir()) == ["game.yaml", "game.yaml.lock"]


# --- writes: the scorekeeper's checks and messages ------------------------------------------


def test_a_round_is_written_as_cf_add_writes_it(client, game):
    r = add(client, [["ana", "out"], ["Ben", "6-5 1-0"], [HOSTILE, "12"]])
    assert r.status_code == 200, r.text
    text = game.read_text(encoding="utf-8")
    assert text.endswith("  - scores: {Ana: 0, Ben: 12, \"<script>alert(1)</script>\": 12}"
                         "  # Ana: out; Ben: 6-5 1-0\n")  # fmt: skip
    assert validate(read_game_file(str(game))).valid
    board = r.json()["scoreboard"]
    assert [row["player"] for row in board["standings"]] == ["Ana", "Ben", HOSTILE]
    assert board["footer"] == "round 1 of 7, next starts with 5-5"
    assert board["leaders"] == ["Ana"]


def test_a_refusal_writes_nothing_and_says_why(client, game):
    before = game.read_bytes()
    r = add(client, [["Ana", "0"], ["Ben", "6-6"], [HOSTILE, "5"]])  # 6-6 starts round 1
    assert r.status_code == 422  # the starter is in no hand: cf validate's duplicate-tile
    (problem,) = r.json()["problems"]
    assert (problem["code"], problem["player"], problem["round"]) == ("duplicate-tile", "Ben", 1)
    assert "6-6 starts round 1" in problem["text"]
    r = add(client, [["Ana", "0"], ["Bob", "3"], [HOSTILE, "5"]])
    assert r.status_code == 422 and "'Bob'" in r.json()["error"]
    r = add(client, [["Ana", "0"], ["Ben", "3"]])
    assert r.status_code == 422 and "missing" in r.json()["error"]
    r = add(client, [["Ana", "0"], ["Ben", "3"], [HOSTILE, "9999"]])  # no hand is that big
    assert r.status_code == 422
    problems = r.json()["problems"]
    assert problems and problems[0]["code"] == "score-mismatch"
    assert problems[0]["text"].startswith("game.yaml:")
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        json.dumps([1, 2]),
        json.dumps({"entries": "Ana=0"}),
        json.dumps({"entries": [["Ana", None]]}),
        json.dumps({"entries": [["Ana", "0"]], "round": "2"}),
        json.dumps({"entries": [["Ana", "0"]], "round": 0}),
    ],
)
def test_a_malformed_request_is_400(client, game, body):
    before = game.read_bytes()
    r = client.post("/api/round", content=body, headers=WRITE)
    assert r.status_code == 400
    assert game.read_bytes() == before


def test_fix_round_k_and_undo(client, game):
    add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]])
    add(client, [["Ana", "3"], ["Ben", "0"], [HOSTILE, "9"]])
    r = add(client, [["Ana", "0"], ["Ben", "50"], [HOSTILE, "7"]], number=1)
    assert r.status_code == 200
    assert r.json()["rounds"][0] == {"Ana": "0", "Ben": "50", HOSTILE: "7"}
    r = add(client, [["Ana", "0"], ["Ben", "50"], [HOSTILE, "7"]], number=4)
    assert r.status_code == 422 and "there is no round 4" in r.json()["error"]
    r = client.post("/api/undo", headers=WRITE)
    assert r.status_code == 200 and r.json()["removed"] == 2
    assert len(r.json()["rounds"]) == 1
    assert client.post("/api/undo", headers=WRITE).status_code == 200
    r = client.post("/api/undo", headers=WRITE)
    assert r.status_code == 422 and "no rounds" in r.json()["error"]


def test_undo_names_the_round_it_undoes(client, game):
    """The page sends the round it asked to undo: a round entered meanwhile on another
    phone is never undone in its place (nothing undone, said); a bad "last" is a 400."""
    add(client, [["Ana", "3"], ["Ben", "0"], [HOSTILE, "9"]])
    add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]])
    before = game.read_bytes()
    r = client.post("/api/undo", headers=WRITE, json={"last": 1})
    assert r.status_code == 422
    assert r.json()["error"].startswith("nothing undone: round 1 was to be undone, but the last")
    assert game.read_bytes() == before
    for bad in ({"last": "2"}, {"last": True}, [2], {"last": 0}, {"last": -1}):
        r = client.post("/api/undo", headers=WRITE, json=bad)
        assert r.status_code == 400, bad
    assert r.json()["error"] == "last must be a round's number: 1, 2, …"
    assert game.read_bytes() == before
    r = client.post("/api/undo", headers=WRITE, json={"last": 2})
    assert r.status_code == 200 and r.json()["removed"] == 2
    # A file that cannot be undone in says why, not that the rounds changed.
    game.write_text("rounds: [\n", encoding="utf-8")
    r = client.post("/api/undo", headers=WRITE, json={"last": 1})
    assert r.status_code == 422 and "not valid YAML" in r.json()["error"]


def test_the_state_has_the_same_keys_whatever_the_file(client, game):
    """A page (or a script) finds every key of the state whether the file reads, has a
    problem, cannot be read as text, or is gone."""
    good = client.get("/api/state").json()
    assert good["error"] is None and good["scoreboard"] is not None
    game.write_bytes(b"players: [Ana, Ben]\nrounds: [\n")  # a YAML error: a problem
    broken = client.get("/api/state").json()
    game.write_bytes(b"title: \xff\xfe caf\xe9\n")  # not UTF-8: the file is refused
    refused = client.get("/api/state").json()
    assert refused["error"] and refused["scoreboard"] is None and refused["players"] == []
    game.unlink()
    gone = client.get("/api/state").json()
    assert gone["error"].startswith("cannot read game.yaml")
    for state in (broken, refused, gone):
        assert set(state) == set(good), state


def test_the_state_gives_each_round_for_fixing(client, game):
    """Each round as the entries that write it again, as cf undo gives them back: tiles
    kept in a comment beside scores are tiles again (a fix keeps them); a round with
    notes is fixed in the file only (a fix from the page would lose them)."""
    add(client, [["Ana", "out"], ["Ben", "6-5 1-0"], [HOSTILE, "3-2"]])
    add(client, [["Ana", "4"], ["Ben", "out"], [HOSTILE, "3-2"]])
    rounds = client.get("/api/state").json()["rounds"]
    assert rounds == [
        {"Ana": "out", "Ben": "6-5 1-0", HOSTILE: "3-2"},
        {"Ana": "4", "Ben": "out", HOSTILE: "3-2"},
    ]
    r = add(client, [["Ana", "4"], ["Ben", "out"], [HOSTILE, "3-2"]], number=2)  # a fix
    assert r.status_code == 200
    assert "# Ben: out; " in game.read_text(encoding="utf-8")  # the tiles' comment stays
    with game.open("a", encoding="utf-8") as handle:
        handle.write("    notes: Ben's cousin played for him\n")
    assert client.get("/api/state").json()["rounds"][1] is None


def test_going_out_on_a_double_is_entered_and_fixed_as_such(tmp_path):
    """A table that scores going out on a double: the state says how much (the page then
    offers it), gives that player as ``out-double`` for fixing, and a fix of another
    player's score keeps the round's note."""
    path = tmp_path / "double.yaml"
    path.write_text(
        new_game_text(["Ana", "Ben"], Rules(top=6, out_on_double=50)), encoding="utf-8"
    )
    c = client_for(path)
    c.get(f"/?t={TOKEN}")
    assert c.get("/api/state").json()["out_on_double"] == 50
    assert add(c, [["Ana", "out-double"], ["Ben", "7"]]).status_code == 200
    assert "# Ana: out-double" in path.read_text(encoding="utf-8")
    state = c.get("/api/state").json()
    assert state["rounds"][0] == {"Ana": "out-double", "Ben": "7"}
    assert [row["this_round"] for row in state["scoreboard"]["standings"]] == [7, 50]
    assert add(c, [["Ana", "out-double"], ["Ben", "9"]], number=1).status_code == 200
    text = path.read_text(encoding="utf-8")
    assert "# Ana: out-double" in text and "Ben: 9" in text
    r = add(c, [["Ana", "out-double"], ["Ben", "out"]], number=1)
    assert r.status_code == 422
    (problem,) = r.json()["problems"]
    assert (problem["code"], problem["player"], problem["round"]) == ("hands-mismatch", "Ben", 1)
    assert "only one player can go out in a round" in problem["text"]
    assert validate(read_game_file(str(path))).valid


def test_a_table_without_the_rule_has_no_out_on_a_double(client, game):
    assert client.get("/api/state").json()["out_on_double"] == 0
    r = add(client, [["Ana", "out-double"], ["Ben", "3"], [HOSTILE, "4"]])
    assert r.status_code == 422 and "out_on_double is 0" in r.json()["error"]


def test_game_over(tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(new_game_text(["Ana", "Ben"], Rules(top=6, rounds=1)), encoding="utf-8")
    c = client_for(path)
    c.get(f"/?t={TOKEN}")
    board = add(c, [["Ana", "3"], ["Ben", "0"]]).json()["scoreboard"]
    assert board["complete"] and board["winners"] == ["Ben"]
    assert board["footer"] == "game over: Ben wins with 0"
    assert board["next_starter"] is None
    r = add(c, [["Ana", "3"], ["Ben", "0"]])
    assert r.status_code == 422


def test_a_file_with_problems_is_shown_with_them(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"players: [Ana, {json.dumps(HOSTILE)}]\nrounds:\n  - scores: {{Ana: 1}}\n")
    c = client_for(path)
    state = c.get(f"/api/state?t={TOKEN}").json()
    assert state["scoreboard"] is None
    assert state["problems"][0]["code"] == "missing-score"
    assert HOSTILE not in c.get("/").text


def test_a_file_that_is_gone_is_said_so(tmp_path):
    path = make_game(tmp_path)
    c = client_for(path)
    path.unlink()
    state = c.get(f"/api/state?t={TOKEN}").json()
    assert "cannot read game.yaml" in state["error"]


# --- live updates and the chart --------------------------------------------------------------


def events(client: TestClient) -> list[dict]:
    text = client.get("/events").text
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def test_events_push_the_state_and_see_a_cf_add_from_elsewhere(client, game):
    first = events(client)
    assert len(first) == 1 and first[0]["rounds"] == []
    from typer.testing import CliRunner

    from cf.cli import app

    result = CliRunner().invoke(app, ["add", str(game), "Ana=0", "Ben=5", f"{HOSTILE}=7"])
    assert result.exit_code == 0, result.output
    (pushed,) = events(client)
    assert pushed["rounds"] == [{"Ana": "0", "Ben": "5", HOSTILE: "7"}]
    assert pushed["version"] != first[0]["version"]


def test_the_chart_is_cf_tallys(client, game):
    add(client, [["Ana", "0"], ["Ben", "5"], [HOSTILE, "7"]])
    r = client.get("/chart.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<polyline" in r.text
    assert HOSTILE not in r.text and "&lt;script&gt;" in r.text
    assert r.headers["content-security-policy"].startswith("default-src 'none'")
    # named by the game's title, as cf tally --chart names one game (not game.yaml)
    assert "Night &lt;script&gt;" in r.text and "game.yaml" not in r.text


# --- photos ------------------------------------------------------------------------------------


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares ``width`` x ``height`` pixels: a few KB of zlib'd zero rows,
    which would decode to width x height x 3 bytes (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\0" * (width * 3 + 1) * 50, 9)  # the first rows only
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


def test_image_size_from_the_header():
    assert image_size(png_header(640, 480)) == ("png", 640, 480)
    jpeg = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    jpeg += b"\xff\xc0\x00\x11\x08\x0b\xb8\x0f\xa0\x03"  # SOF0: 3000 x 4000
    assert image_size(jpeg) == ("jpeg", 4000, 3000)
    for bad in (b"GIF89a....", b"", b"\xff\xd8\xff\xe0\x00"):
        with pytest.raises(UploadError):
            image_size(bad)


def test_a_30000_square_png_of_a_few_kb_is_refused_from_its_header(client):
    bomb = png_header(30_000, 30_000)
    assert len(bomb) < 10_000
    with pytest.raises(UploadError, match="30000 x 30000"):
        check_upload(bomb)
    tracemalloc.start()
    start = time.perf_counter()
    r = client.post("/api/photo", content=bomb, headers={**WRITE, "content-type": "image/png"})
    elapsed = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert r.status_code == 422
    assert "30000 x 30000 pixels" in r.json()["error"]
    assert elapsed < 1.0 and peak < 20 * 2**20
    assert MAX_PIXELS < 30_000 * 30_000


def test_a_100_mb_upload_is_refused_quickly_with_bounded_memory(game):
    """Sent as a stream without a declared length, straight to the app: it stops taking
    chunks once past 25 MB (so it never holds more), and says why."""
    import anyio

    app = create_app(Store(str(game)), TOKEN, photos=True)
    block = b"\xff" * 2**20
    taken = 0
    sent: list[dict] = []

    async def receive():
        nonlocal taken
        taken += 1
        return {"type": "http.request", "body": block, "more_body": taken < 100}

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1", "method": "POST", "scheme": "http", "path": "/api/photo",
        "raw_path": b"/api/photo", "root_path": "", "query_string": b"",
        "headers": [(b"host", b"127.0.0.1"), (b"x-cf-token", TOKEN.encode())],
        "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8765),
    }  # fmt: skip
    start = time.perf_counter()
    anyio.run(app, scope, receive, send)
    elapsed = time.perf_counter() - start
    assert sent[0]["status"] == 413
    assert b"larger than 25 MB" in sent[1]["body"]
    assert taken <= 26 and elapsed < 5.0


def test_a_declared_100_mb_upload_is_refused_unread(client):
    start = time.perf_counter()
    r = client.post(
        "/api/photo", headers={**WRITE, "content-length": str(100 * 2**20)}, content=b"x"
    )
    assert r.status_code == 413
    assert time.perf_counter() - start < 1.0


def test_an_upload_that_is_no_photo_is_refused(client):
    for data in (b"hello", b"%PDF-1.4", png_header(0, 0)):
        r = client.post("/api/photo", content=data, headers=WRITE)
        assert r.status_code == 422, data
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200)
    r = client.post("/api/photo", content=heic, headers=WRITE)
    assert r.status_code == 422 and "send a JPEG" in r.json()["error"]


def test_a_photo_is_read_and_nothing_written(tmp_path, mallopt_calls):
    cv2 = pytest.importorskip("cv2")
    from cf.photo.synth import render_hand

    path = make_game(tmp_path, top=12)
    before = path.read_bytes()
    c = client_for(path)
    photo = render_hand(3, size=(1024, 768), difficulty=0)  # 11-6 and 5-1, double-twelve
    _ok, png = cv2.imencode(".png", photo.image)
    r = c.post(f"/api/photo?t={TOKEN}", content=png.tobytes(), headers=WRITE)
    assert r.status_code == 200, r.text
    data = r.json()
    assert sorted(data["tiles"]) == sorted(str(t) for t in photo.tiles)
    assert data["points"] == sum(t.high + t.low for t in photo.tiles)
    assert data["image"].startswith("data:image/jpeg;base64,")
    assert data["unreadable"] == [] and data["found"]
    assert path.read_bytes() == before
    assert mallopt_calls == []  # cf serve runs on: it keeps no freed memory


def test_a_portrait_photo_stored_on_its_side_comes_back_upright():
    """A phone stores a portrait photo on its side with an EXIF orientation (as browsers
    upload it): its tiles are read and the picture sent back is drawn as the phone shows
    it, not lying on its side."""
    cv2 = pytest.importorskip("cv2")
    import base64

    import numpy as np
    from photo_helpers import stored_on_its_side

    from cf.photo.synth import render_hand
    from cf.serve import photos

    photo = render_hand(3, size=(768, 1024), difficulty=0, count=3)
    result = photos.read_upload(stored_on_its_side(photo.image), photo.top, 50)
    assert sorted(result["tiles"]) == sorted(str(t) for t in photo.tiles)
    jpeg = base64.b64decode(result["image"].split(",", 1)[1])
    shown = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape[0] > shown.shape[1]  # portrait, as it was taken
    # The right way up, not turned the other way: the picture is the photo (its outlines
    # aside), far from the photo turned half a turn.
    small = [
        cv2.resize(im, (48, 64), interpolation=cv2.INTER_AREA).astype(float)
        for im in (shown, photo.image, cv2.rotate(photo.image, cv2.ROTATE_180))
    ]
    assert np.abs(small[0] - small[1]).mean() < 0.5 * np.abs(small[0] - small[2]).mean()


def test_a_big_jpeg_is_decoded_reduced_and_its_reading_drawn_where_it_was_read(
    tmp_path, monkeypatch
):
    """A 12 MP phone photo is decoded at half its size, as cf score --photo decodes it
    (much faster than whole), and the outlines, in the photo's own pixels, are drawn
    where the tiles are on the small picture sent back."""
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    from cf.photo import reader
    from cf.photo.reader import PhotoReading, TileRead
    from cf.serve import photos
    from cf.tiles import parse_hand

    decoded = []
    real_decode = reader.decode_image

    def spy(data, name="image", reduction=1):
        image = real_decode(data, name, reduction)
        decoded.append((reduction, image.shape[:2]))
        return image

    monkeypatch.setattr(reader, "decode_image", spy)
    _ok, jpeg = cv2.imencode(".jpg", np.full((3000, 4000, 3), 90, np.uint8))
    result = photos.read_upload(jpeg.tobytes(), 9, 50, "es")
    assert decoded == [(2, (1500, 2000))]
    assert result["found"] is False and result["points"] is None
    assert result["shown"]["message"].startswith("no se ve ninguna ficha")

    drawn = []
    monkeypatch.setattr(
        "cf.photo.annotate.annotate", lambda image, reading: drawn.append(reading) or image
    )
    box = [(0, 0), (4000, 0), (4000, 3000), (2000, 1500)]  # the photo's pixels
    found = PhotoReading(reads=[TileRead(parse_hand("5-1")[0], 0.9, box)], width=4000, height=3000)
    photos._annotated(np.zeros((1500, 2000, 3), np.uint8), found, 2)
    assert drawn[0].reads[0].box == [(0, 0), (1024, 0), (1024, 768), (512, 384)]


def test_a_photo_without_the_photo_extra_says_how_to_get_it(game):
    c = client_for(game, photos=False)
    r = c.post(f"/api/photo?t={TOKEN}", content=png_header(10, 10), headers=WRITE)
    assert r.status_code == 501 and "chickenfoot[photo]" in r.json()["error"]


# --- two pages and ten shells at once ---------------------------------------------------------


def test_two_pages_and_ten_cf_adds_at_once_each_round_lands_once(tmp_path):
    """Every round is applied exactly once, whoever sent it, and the file is valid at
    every moment a reader looks (the write is atomic, the lock makes writers take turns)."""
    import subprocess
    import sys
    import threading

    path = tmp_path / "game.yaml"
    path.write_text(new_game_text(["Ana", "Ben"], Rules(top=12)), encoding="utf-8")
    pages = [client_for(path), client_for(path)]
    stop = threading.Event()
    seen: list[int] = []
    bad: list[str] = []

    def watch() -> None:
        while not stop.is_set():
            text = path.read_text(encoding="utf-8")
            report = validate(read_game_file(str(path)))
            if not report.valid:
                bad.append(text)
            seen.append(report.rounds)

    def page(c: TestClient, points: int) -> None:
        r = c.post(
            f"/api/round?t={TOKEN}", json={"entries": [["Ana", str(points)], ["Ben", "0"]]},
            headers=WRITE,
        )  # fmt: skip
        assert r.status_code == 200, r.text

    watcher = threading.Thread(target=watch)
    watcher.start()
    shells = [
        subprocess.Popen(
            [sys.executable, "-m", "cf", "add", str(path), f"Ana={points}", "Ben=0"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for points in range(1, 11)
    ]
    threads = [threading.Thread(target=page, args=(c, 11 + i)) for i, c in enumerate(pages)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    codes = [(p.wait(60), p.stderr.read() if p.stderr else b"") for p in shells]
    stop.set()
    watcher.join(10)
    assert all(code == 0 for code, _ in codes), codes
    assert bad == []
    assert seen and max(seen) == 12
    rounds = read_game_file(str(path)).rounds
    points = sorted(r.scores["Ana"][0] for r in rounds if r.scores is not None)
    assert points == list(range(1, 13))
    for c in pages:  # and both pages now show all twelve
        assert len(c.get(f"/api/state?t={TOKEN}").json()["rounds"]) == 12


# --- the docs' screenshots -------------------------------------------------------------------


def test_the_docs_screenshots_show_the_page_as_it_is():
    """docs/serve.md records the fingerprint of the page its screenshots show; change the
    page and this fails until they are taken again (the page says how)."""
    from cf.serve.app import page_fingerprint

    root = Path(__file__).parent.parent
    text = (root / "docs" / "serve.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- page fingerprint: (\w+) -->", text)
    assert m is not None
    assert m.group(1) == page_fingerprint(), (
        "cf/serve/static changed: take the screenshots again "
        "(CF_SCREENSHOTS=docs/images pytest tests/test_serve_browser.py -k screenshots) "
        "and record the new fingerprint in docs/serve.md"
    )
    for name, width in (("serve-phone.png", 720), ("serve-tv.png", 1280)):
        assert f"(images/{name})" in text
        head = (root / "docs" / "images" / name).read_bytes()[:24]
        assert head.startswith(b"\x89PNG")
        assert struct.unpack(">I", head[16:20])[0] == width, name


def test_json_nested_past_the_stack_is_a_400_not_a_crash(client):
    """A reviewer's finding: 60,000 [ made json.loads raise RecursionError (a 500)."""
    r = client.post("/api/round", content=b"[" * 60_000, headers=WRITE)
    assert r.status_code == 400
    assert b"not JSON" in r.content


def test_a_json_body_over_its_limit_names_the_real_limit(client):
    r = client.post("/api/round", content=b" " * (70 * 2**10), headers=WRITE)
    assert r.status_code == 413
    assert b"larger than 64 KB" in r.content
