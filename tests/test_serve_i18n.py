"""``cf serve`` in the table's language (docs/serve.md, "In the table's language"): the page
follows the browser's Accept-Language (``?lang=`` over it, the server's language when
the browser names none cf speaks), with ``<html lang>`` set and no English left in what
it shows; the JSON is the same in every language (its messages English), with the
page's messages in ``shown`` only when asked with ``?lang=``; two readers in two
languages at once never see each other's words; ``cf serve``'s own lines and help."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette", reason="cf serve needs the serve extra")
pytest.importorskip("starlette.testclient", reason="Starlette's TestClient needs httpx2")
pytest.importorskip("werkzeug", reason="cf serve needs the serve extra")

from starlette.testclient import TestClient

from cf import i18n
from cf.record.keeper import new_game_text
from cf.rules import Rules
from cf.serve.app import create_app
from cf.serve.store import Store
from cf.serve.texts import PAGE, SCRIPT, page_language

TOKEN = "i18n-token"
WRITE = {"x-cf-token": TOKEN}
PLAYERS = ["Ana", "Bea", "Carla"]
#: Words an English page has and a Spanish or Galician one must not.
ENGLISH = {
    "the", "round", "rounds", "player", "add", "undo", "fix", "tiles", "tile", "score",
    "standings", "next", "starts", "with", "of", "and", "game", "live", "updates", "cancel",
    "these", "right", "reading", "points", "out", "photo", "any", "confirmed", "could",
    "tap", "again", "server", "nothing", "written", "problems", "says", "move", "last",
    "running", "totals", "by", "wins", "over", "what", "was", "hand", "give", "first",
    "might", "be", "sent", "try", "reached", "cannot", "file", "in",
}  # fmt: skip


@pytest.fixture(autouse=True)
def _english_process():
    i18n.set_language(None)
    yield
    i18n.set_language(None)


def make_game(folder: Path, rounds: int | None = None) -> Path:
    path = folder / "noche.yaml"
    rules = Rules(top=6, rounds=rounds)
    path.write_text(
        new_game_text(PLAYERS, rules, title="Noche", date="2026-12-01"), encoding="utf-8"
    )
    return path


def client_for(path: Path, **options) -> TestClient:
    options.setdefault("max_events", 1)
    options.setdefault("photos", True)
    c = TestClient(
        create_app(Store(str(path), path.name), TOKEN, **options),
        base_url="http://127.0.0.1:8765",
    )
    c.get(f"/?t={TOKEN}")
    return c


def add(client: TestClient, entries, lang: str | None = None):
    url = "/api/round" + (f"?lang={lang}" if lang else "")
    return client.post(url, json={"entries": entries}, headers=WRITE)


class _Visible(HTMLParser):
    """The text a reader sees: text outside <script>, and the attributes shown."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.lang = None
        self._script = 0

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag == "script":
            self._script += 1
        for name, value in attrs:
            if name in ("title", "alt", "placeholder", "aria-label") and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag == "script":
            self._script -= 1

    def handle_data(self, data):
        if not self._script and data.strip():
            self.texts.append(data)


def embedded(html: str, name: str):
    m = re.search(rf'<script type="application/json" id="cf-{name}">(.*?)</script>', html, re.S)
    assert m is not None
    return json.loads(m.group(1))


def shown_texts(html: str) -> tuple[str | None, list[str]]:
    """``<html lang>``, and every text the page shows or its script may show: the HTML's,
    the script's words and the messages of the state it starts from."""
    seen = _Visible()
    seen.feed(html)
    texts = list(seen.texts)
    texts += embedded(html, "texts").values()
    shown = embedded(html, "state")["shown"]
    texts += [t for t in (shown["footer"], shown["error"], *shown["problems"]) if t]
    return seen.lang, texts


def english_words(texts: list[str]) -> set[str]:
    words = set()
    for text in texts:
        text = re.sub(r"\{\w+\}", " ", text)  # placeholders the script fills
        text = re.sub(r"\bcf (validate|serve|add)\b|--[\w-]+", " ", text)  # commands
        words |= {w.lower() for w in re.findall(r"[A-Za-z]+", text)} & ENGLISH
    return words


# --- the page -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["es", "gl"])
@pytest.mark.parametrize("rounds", [None, 1], ids=["in play", "game over"])
def test_the_page_in_spanish_or_galician_has_no_english_word(tmp_path, lang, rounds):
    c = client_for(make_game(tmp_path, rounds))
    assert add(c, [["Ana", "0"], ["Bea", "12"], ["Carla", "7"]]).status_code == 200
    html = c.get("/", headers={"accept-language": f"{lang}-ES,{lang};q=0.9,en;q=0.5"}).text
    page_lang, texts = shown_texts(html)
    assert page_lang == lang
    assert english_words(texts) == set(), texts
    footer = embedded(html, "state")["shown"]["footer"]
    assert footer.startswith({"es": "fin de la partida", "gl": "fin da partida"}[lang] if rounds
                             else {"es": "ronda 1 de 7", "gl": "rolda 1 de 7"}[lang])  # fmt: skip


def test_the_english_page_is_english_and_the_stop_words_would_catch_it(tmp_path):
    c = client_for(make_game(tmp_path))
    html = c.get("/", headers={"accept-language": "en-US,en;q=0.9"}).text
    page_lang, texts = shown_texts(html)
    assert page_lang == "en"
    assert {"round", "add", "undo", "standings"} <= english_words(texts)


def test_every_word_of_the_page_is_in_the_template_or_the_script():
    """Each PAGE key fills a placeholder of page.html, each SCRIPT key is used by app.js:
    no word is marked and never shown, none shown unmarked."""
    from cf.serve.app import static_text

    page, script = static_text("page.html"), static_text("app.js")
    assert set(re.findall(r"\{\{t_(\w+)\}\}", page)) == set(PAGE)
    assert set(re.findall(r'\bt\("(\w+)"', script)) <= set(SCRIPT)
    assert [k for k in SCRIPT if f'"{k}"' not in script] == []


@pytest.mark.parametrize(
    ("header", "asked", "server", "expected"),
    [
        ("es-ES,es;q=0.9", None, "en", "es"),
        ("gl", None, "es", "gl"),
        ("en-US,es;q=0.5", None, "gl", "en"),  # the browser wants English first
        ("pt-BR,gl;q=0.7", None, "en", "gl"),
        ("es;q=0, gl", None, "en", "gl"),  # q=0: not acceptable
        ("fr-FR,de;q=0.8", None, "es", "es"),  # none cf speaks: the server's
        (None, None, "gl", "gl"),
        ("*", None, "en", "en"),
        ("es", "gl", "en", "gl"),  # ?lang= wins
        ("es", "fr", "en", "es"),  # an unknown ?lang= is ignored
        ("garbage;;q=x,,", None, "en", "en"),
    ],
)
def test_the_pages_language(header, asked, server, expected):
    assert page_language(header, server, asked) == expected


def test_the_server_language_when_the_browser_names_none_cf_speaks(tmp_path):
    c = client_for(make_game(tmp_path), language="gl")
    r = c.get("/", headers={"accept-language": "fr"})
    assert '<html lang="gl">' in r.text
    assert r.headers["content-language"] == "gl"
    assert '<html lang="es">' in c.get("/?lang=es", headers={"accept-language": "fr"}).text


def test_page_words_from_a_catalogue_are_escaped(tmp_path, monkeypatch):
    """A translation is text too: one holding markup cannot start a tag or close the
    JSON element."""
    from cf.serve import texts

    monkeypatch.setitem(texts.PAGE, "rounds", "<b>x</b>")
    monkeypatch.setitem(texts.SCRIPT, "fix", "</script><b>")
    html = client_for(make_game(tmp_path)).get("/").text
    assert "<b>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert embedded(html, "texts")["fix"] == "</script><b>"


# --- the JSON -------------------------------------------------------------------------


def test_the_json_is_the_same_in_every_language(tmp_path):
    """Machine output never changes with the language (SPEC §14): not with the browser's,
    not with the server's."""
    path = make_game(tmp_path)
    english = client_for(path)
    add(english, [["Ana", "0"], ["Bea", "12"], ["Carla", "7"]])
    plain = english.get("/api/state").json()
    assert plain["scoreboard"]["footer"] == "round 1 of 7, next starts with 5-5"
    assert "shown" not in plain
    spanish_server = client_for(path, language="es")
    i18n.set_language("es")  # as `cf --lang es serve` leaves it
    for c in (english, spanish_server):
        for header in ("es", "gl", "en"):
            assert c.get("/api/state", headers={"accept-language": header}).json() == plain
    refused = spanish_server.post(
        "/api/round", json={"entries": [["Ana", "0"]]}, headers=WRITE
    ).json()
    assert "every player must be given" in refused["error"]
    assert "shown" not in refused


def test_asked_with_lang_the_json_adds_its_messages_shown_in_that_language(tmp_path):
    c = client_for(make_game(tmp_path))
    state = add(c, [["Ana", "0"], ["Bea", "12"], ["Carla", "7"]], lang="gl").json()
    assert state["scoreboard"]["footer"] == "round 1 of 7, next starts with 5-5"
    assert state["shown"]["footer"] == "rolda 1 de 7, a seguinte comeza co 5-5"
    english = {k: v for k, v in state.items() if k != "shown"}
    assert english == c.get("/api/state").json()
    # a refusal: the library's message and the problems' lines, English and shown
    r = add(c, [["Ana", "0"], ["Bea", "3"], ["Carla", "9999"]], lang="es")  # too many points
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "nothing written: the file would have these problems"
    assert body["shown"]["error"] == "no se ha escrito nada: el archivo tendría estos problemas"
    assert len(body["shown"]["problems"]) == len(body["problems"]) >= 1
    # JSON's line is cf validate's; the page says a problem of the round being entered
    # in words, as cf add does (its lines are not in the file)
    assert body["problems"][0]["text"].startswith("noche.yaml:")
    assert body["shown"]["problems"][0].startswith("ronda 2: Carla anotó 9999, más de lo que")
    assert body["shown"]["problems"][0].endswith(" [score-mismatch]")
    r = add(c, [["Ana", "0"], ["Bea", "3"]], lang="gl")
    assert "missing" in r.json()["error"] and "falta" in r.json()["shown"]["error"]
    # the request's own errors
    r = c.post("/api/round?lang=es", content=b"{", headers=WRITE)
    assert r.json()["shown"]["error"] == "la petición no es JSON"
    assert r.json()["error"] == "the request is not JSON"
    r = c.post("/api/photo?lang=gl", content=b"GIF89a", headers=WRITE)
    assert r.json()["shown"]["error"] == "o enviado non é unha foto (JPEG ou PNG)"
    assert c.get("/api/state?lang=fr").json() == c.get("/api/state").json()


def test_the_event_stream_speaks_the_language_it_was_asked_for(tmp_path):
    c = client_for(make_game(tmp_path))
    add(c, [["Ana", "0"], ["Bea", "12"], ["Carla", "7"]])
    with c.stream("GET", "/events?lang=es") as r:
        text = "".join(r.iter_text())
    data = json.loads(re.search(r"^data: (.*)$", text, re.M).group(1))
    assert data["shown"]["footer"].startswith("ronda 1 de 7")
    assert data["scoreboard"]["footer"].startswith("round 1 of 7")


def test_the_photo_summary_in_the_readers_language():
    from cf.serve.photos import _summary

    assert _summary(2, 1, True, "en") == (
        "2 tiles read; 1 could not be read with confidence: pick it in the grid"
    )
    assert _summary(2, 1, True, "es") == (
        "2 fichas leídas; 1 no se ha podido leer con seguridad: elígela en la cuadrícula"
    )
    assert _summary(1, 2, True, "gl") == (
        "1 ficha lida; 2 non se puideron ler con seguridade: escólleas na grella"
    )
    assert _summary(0, 0, False, "gl").startswith("non se ve ningunha ficha")


# --- two readers, two languages, at once -------------------------------------------------


def test_speaking_is_per_thread():
    """The language of one request is its own: two threads speaking two languages at
    the same moment each get theirs, and the process's stays as it was."""
    barrier = threading.Barrier(2)
    got: dict[str, list[str]] = {}

    def speak(lang: str) -> None:
        with i18n.speaking(lang):
            barrier.wait()
            words = [i18n.gettext("Undo last round") for _ in range(200)]
            barrier.wait()
            got[lang] = sorted(set(words))

    threads = [threading.Thread(target=speak, args=(lang,)) for lang in ("es", "gl")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == {"es": ["Deshacer la última ronda"], "gl": ["Desfacer a última rolda"]}
    assert i18n.language() == "en"


def test_two_browsers_in_two_languages_at_once_never_see_each_others(tmp_path):
    """A real server (uvicorn, one event loop and its threads), a Spanish and a
    Galician phone asking at the same time, again and again."""
    from serve_helpers import running

    path = make_game(tmp_path)
    marks = {"es": ("Deshacer la última ronda", "ronda 1 de 7"),
             "gl": ("Desfacer a última rolda", "rolda 1 de 7")}  # fmt: skip
    with running(path, TOKEN) as base:
        request = urllib.request.Request(
            f"{base}api/round?t={TOKEN}",
            data=json.dumps({"entries": [["Ana", 0], ["Bea", 12], ["Carla", 7]]}).encode(),
            headers={"x-cf-token": TOKEN, "content-type": "application/json"},
        )
        urllib.request.urlopen(request, timeout=10).read()

        def fetch(lang: str) -> tuple[str, str, str]:
            page = urllib.request.Request(f"{base}?t={TOKEN}", headers={"accept-language": lang})
            html = urllib.request.urlopen(page, timeout=10).read().decode()
            api = f"{base}api/state?t={TOKEN}&lang={lang}"
            state = json.loads(urllib.request.urlopen(api, timeout=10).read())
            return lang, html, state["shown"]["footer"]

        with ThreadPoolExecutor(max_workers=8) as pool:
            results = list(pool.map(fetch, ["es", "gl"] * 20))
    for lang, html, footer in results:
        undo, round_one = marks[lang]
        assert f'<html lang="{lang}">' in html
        assert undo in html
        assert footer.startswith(round_one)


# --- the command ----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_cf_serves_help_and_errors_in_the_language(tmp_path, lang):
    import subprocess
    import sys

    help_text = subprocess.run(
        [sys.executable, "-m", "cf", "--lang", lang, "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    said = {"es": "Sirve el archivo de partida", "gl": "Serve o ficheiro de partida"}[lang]
    assert said in " ".join(help_text.split())
    # in a process of its own: a command's help is made when it is first loaded
    missing = tmp_path / "nada.yaml"
    result = subprocess.run(
        [sys.executable, "-m", "cf", "--lang", lang, "serve", str(missing)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert {"es": "no se puede leer", "gl": "non se pode ler"}[lang] in result.stderr
    assert "no such file" not in result.stderr


def test_cf_lang_gl_serve_speaks_galician_in_the_terminal_and_to_browsers_of_no_language(
    tmp_path,
):
    """``cf --lang gl serve``: its lines are Galician, and so is the page for a browser
    that asks for a language cf does not speak; one that asks for Spanish gets Spanish."""
    import signal
    import subprocess
    import sys

    path = make_game(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cf", "--lang", "gl", "serve", str(path), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"servindo {path} en http://127.0.0.1:"), line
        url = re.search(r"http://\S+", line).group(0)

        def page(language: str) -> str:
            request = urllib.request.Request(url, headers={"accept-language": language})
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.read().decode()

        assert '<html lang="gl">' in page("fr-FR,fr;q=0.9")
        assert '<html lang="es">' in page("es-ES")
        state = urllib.request.urlopen(url.replace("/?", "/api/state?"), timeout=10).read()
        assert json.loads(state)["scoreboard"]["footer"].startswith("no rounds yet")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(15)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60), st.sampled_from(["en", "es", "gl"]), st.text(max_size=8))
def test_any_accept_language_gives_a_language_cf_speaks(header, server, asked):
    assert page_language(header, server, asked) in ("en", "es", "gl")
