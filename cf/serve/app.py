"""The routes of ``cf serve`` (docs/serve.md): a Starlette app over one :class:`Store`.

=====================  ==========================================================
``GET /``              the page (``?view=board``: the scoreboard alone, large, for a TV)
``GET /static/NAME``   the page's CSS and JavaScript (a fixed list, shipped in the wheel)
``GET /api/state``     what the page shows, as JSON
``GET /events``        the same, pushed as Server-Sent Events whenever the file changes
``GET /chart.svg``     the standings chart, as ``cf tally --chart`` draws it
``POST /api/round``    add a round, or fix round K (JSON: entries as ``cf add`` takes them)
``POST /api/undo``     remove the last round (``{"last": N}``: round N only)
``POST /api/photo``    read a hand from a photo (the image is the body); writes nothing
=====================  ==========================================================

Languages (docs/serve.md, "In the table's language"): the page is made in its reader's
language (:mod:`cf.serve.texts`); the JSON routes answer in English, as all of cf's machine
output, and add ``shown``, the same messages in a language, when asked with ``?lang=``
(the page asks in its own). Each request is translated in its own context
(:func:`cf.i18n.speaking`): two readers in two languages at once never see each other's.

With ``--lan`` (SPEC 13) every request needs the join token: in the URL (``?t=``), in
the ``X-CF-Token`` header or in the cookie the page sets (one per server:
:func:`cookie_name`); a wrong one in one place does not outweigh the right one in another.
Without it: 403 and a body that says nothing more. A POST must also carry it itself, in
the ``X-CF-Token`` header (the page's way) or its URL, never the cookie alone (a browser
adds it to a request another site makes). Without ``--lan`` the server
listens on 127.0.0.1 alone, and a request addressed to this computer by name
(``127.0.0.1`` or ``localhost``) needs no token; one addressed to any other name (a web
page's DNS rebinding: its own name made to point here) needs it as above; a token-less
write must be JSON or an image (:func:`_no_page_could_send`). Either way a POST whose
``Origin`` is another site is refused. Bodies are bounded before they are read whole.
"""

from __future__ import annotations

import hmac
import json
import re
import secrets
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as Event

from cf.i18n import LANGUAGES, Message, gettext, speaking
from cf.i18n import language as server_language
from cf.serve.photos import MAX_BYTES as MAX_PHOTO_BYTES
from cf.serve.photos import UploadError, read_upload
from cf.serve.store import Refused, Store
from cf.serve.texts import NO_PAGE, page_language, page_texts, script_texts

PHOTO_HINT = Message("reading photos needs the photo extra: pip install 'chickenfoot[photo]'")
VIEW_ONLY = Message("this page only shows the scoreboard (cf serve --view-only)")
COOKIE = "cf_token"


def cookie_name(token: str) -> str:
    """The cookie that keeps ``token``: one of its own for every server, since a browser
    sends a host's cookies to all its ports (a second ``cf serve`` on this computer, as a
    ``--view-only`` board, must not replace the first's). Named by a hash of the token,
    which says nothing of it."""
    import hashlib

    return f"{COOKIE}_{hashlib.sha256(token.encode()).hexdigest()[:12]}"


HEADER = "x-cf-token"
#: The most a JSON request body may hold (a round of many players is a few hundred bytes).
MAX_JSON_BYTES = 64 * 1024
#: The page's own files: name -> media type. Nothing else is ever served from disk.
STATIC = {
    "app.css": "text/css; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
}
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; "
        b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


def new_token() -> str:
    """A join token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def static_text(name: str) -> str:
    return (
        resources.files("cf.serve").joinpath("static").joinpath(name).read_text(encoding="utf-8")
    )


def page_fingerprint() -> str:
    """A short hash of the page's files: docs/serve.md records the one its screenshots
    show, and a test says when they are to be taken again."""
    import hashlib

    digest = hashlib.sha256()
    for name in ("page.html", *STATIC):
        digest.update(static_text(name).encode("utf-8"))
    return digest.hexdigest()[:16]


def create_app(
    store: Store,
    token: str,
    *,
    view_only: bool = False,
    photos: bool | None = None,
    poll: float = 0.2,
    keepalive: float = 15.0,
    max_events: int | None = None,
    is_stopping: Callable[[], bool] = lambda: False,
    language: str | None = None,
    loopback: bool = False,
) -> ASGIApp:
    """The app. ``language``: the server's language, for a page whose browser asks for
    none cf speaks (default: cf's, from ``--lang``, ``CF_LANG``, ``LANG``…).
    ``photos``: whether photos can be read (default: the photo extra is
    installed). ``loopback``: the server listens on 127.0.0.1 alone (no ``--lan``), so a
    request addressed to this computer needs no token. ``poll``: seconds between looks at
    the file for /events; ``max_events`` ends each event stream after that many (tests);
    ``is_stopping`` ends them all (the server is shutting down)."""
    if photos is None:
        photos = _photo_extra()
    files = {name: static_text(name) for name in STATIC}
    page = static_text("page.html")
    reading = anyio.Semaphore(1)  # one photo decoded at a time: memory stays bounded
    server = page_language(None, server_language(), language)

    def reader_language(request: Request) -> str:
        """A page's language: ``?lang=``, the browser's, else the server's."""
        return page_language(
            request.headers.get("accept-language"), server, request.query_params.get("lang")
        )

    async def index(request: Request) -> Response:
        board = request.query_params.get("view") == "board"
        lang = reader_language(request)
        config = {
            "token": token,
            "board": board,
            "viewOnly": view_only or board,
            "photos": photos,
            "lang": lang,
        }
        state = await anyio.to_thread.run_sync(store.state, lang)
        html = render_page(page, state, config, lang)
        return Response(
            html,
            media_type="text/html; charset=utf-8",
            headers={**_NO_STORE, "content-language": lang, "vary": "accept-language"},
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files:
            raise HTTPException(404)
        return Response(files[name], media_type=STATIC[name], headers=_NO_STORE)

    async def state(request: Request) -> Response:
        current = await anyio.to_thread.run_sync(store.state, _asked(request))
        return JSONResponse(current, headers=_NO_STORE)

    async def events(request: Request) -> Response:
        return StreamingResponse(
            _event_stream(store, poll, keepalive, max_events, is_stopping, _asked(request)),
            media_type="text/event-stream",
            headers={**_NO_STORE, "x-accel-buffering": "no"},
        )

    async def chart(request: Request) -> Response:
        lang = reader_language(request)  # a picture for a person: in the reader's words
        try:
            svg = await anyio.to_thread.run_sync(store.chart, lang)
        except Refused as exc:
            return PlainTextResponse(exc.said(lang), 404)
        return Response(
            svg,
            media_type="image/svg+xml",
            headers={
                **_NO_STORE,
                "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
            },
        )

    async def add_round(request: Request) -> Response:
        lang = _asked(request)
        if view_only:
            return _refusal(VIEW_ONLY, 403, lang)
        body = await _json_body(request, lang)
        if isinstance(body, Response):
            return body
        entries, number = _round_request(body)
        if isinstance(entries, Message):
            return _refusal(entries, 400, lang)
        expect = body.get("next")  # the round the page entered, when it appends one
        if expect is not None and (not isinstance(expect, int) or isinstance(expect, bool)):
            return _refusal(Message("next must be a whole number"), 400, lang)
        try:
            await anyio.to_thread.run_sync(store.add, entries, number, expect)
        except Refused as exc:
            return _refused(exc, 422, lang)
        current = await anyio.to_thread.run_sync(store.state, lang)
        return JSONResponse(current, headers=_NO_STORE)

    async def undo(request: Request) -> Response:
        lang = _asked(request)
        if view_only:
            return _refusal(VIEW_ONLY, 403, lang)
        # An empty body undoes whatever round is last; {"last": N} only round N.
        body = await _json_body(request, lang, empty={})
        if isinstance(body, Response):
            return body
        if not isinstance(body, dict):
            return _refusal(Message("the request is not a JSON object"), 400, lang)
        expect = body.get("last")  # the round the page asked to undo
        if expect is not None and (
            not isinstance(expect, int) or isinstance(expect, bool) or expect < 1
        ):
            return _refusal(Message("last must be a round's number: 1, 2, …"), 400, lang)
        try:
            number = await anyio.to_thread.run_sync(store.undo, expect)
        except Refused as exc:
            return _refused(exc, 422, lang)
        current = await anyio.to_thread.run_sync(store.state, lang)
        return JSONResponse({**current, "removed": number}, headers=_NO_STORE)

    async def photo(request: Request) -> Response:
        lang = _asked(request)
        if view_only:
            return _refusal(VIEW_ONLY, 403, lang)
        if not photos:
            return _refusal(PHOTO_HINT, 501, lang)
        data = await _bounded_body(request, MAX_PHOTO_BYTES, lang)
        if isinstance(data, Response):
            return data
        current = store.state()
        top = current.get("top", 9)
        double_blank = current.get("double_blank", 50)
        try:
            async with reading:
                result = await anyio.to_thread.run_sync(read_upload, data, top, double_blank, lang)
        except UploadError as exc:
            return _refused(Refused(exc.args[0] if exc.args else str(exc)), 422, lang)
        return JSONResponse(result, headers=_NO_STORE)

    async def no_page(request: Request, exc: Exception) -> Response:
        """An address with no page (404) or a request it does not take (405): the
        framework's words, but a browser (it asks for HTML) reads what to do, in the
        page's language."""
        status = getattr(exc, "status_code", 404)
        headers = {**_NO_STORE, **(getattr(exc, "headers", None) or {})}
        if _wants_page(request):
            with speaking(reader_language(request)):
                return PlainTextResponse(gettext(NO_PAGE), status, headers=headers)
        return PlainTextResponse(str(getattr(exc, "detail", "Not Found")), status, headers=headers)

    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/state", state),
        Route("/events", events),
        Route("/chart.svg", chart),
        Route("/api/round", add_round, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/photo", photo, methods=["POST"]),
    ]
    handlers = {404: no_page, 405: no_page}
    app = Starlette(routes=routes, exception_handlers=handlers)
    return Guard(app, token, loopback=loopback, language=server)


_NO_STORE = {"cache-control": "no-store"}


def _photo_extra() -> bool:
    try:
        import cf.photo  # noqa: F401  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return False
    return True


def render_page(page: str, state: dict[str, Any], config: dict[str, Any], lang: str = "en") -> str:
    """The page in ``lang`` with its title and data filled in: the title and the page's
    words HTML-escaped, the data and the script's words as JSON in
    ``type=application/json`` elements with ``<``, ``>`` and ``&`` escaped, so no text
    from the file or a catalogue can close the element or start a tag."""
    import html

    title = state.get("title") or state.get("file") or "cf serve"
    values = {
        "lang": html.escape(lang),
        "title": html.escape(str(title)),
        "body_class": "board" if config.get("board") else "play",
        "token": html.escape(str(config.get("token", ""))),
        "state": script_json(state),
        "config": script_json(config),
        "texts": script_json(script_texts(lang)),
        **{key: html.escape(text) for key, text in page_texts(lang).items()},
    }
    # One pass over the template: a value that looks like a placeholder stays as it is.
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], page)


def script_json(data: object) -> str:
    """JSON that is safe inside a ``<script type="application/json">`` element.

    >>> script_json({"name": "</script><b>"})
    '{"name": "\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e"}'
    """
    text = json.dumps(data, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


async def _event_stream(
    store: Store,
    poll: float,
    keepalive: float,
    max_events: int | None,
    is_stopping: Callable[[], bool],
    lang: str | None = None,
) -> AsyncIterator[str]:
    """The state each time the file changes (and once at the start); a comment line now
    and then so that proxies and phones keep the connection."""
    last = None
    sent = 0
    quiet = 0.0
    yield "retry: 1000\n\n"
    seen: object = ()
    while not is_stopping():
        signature = store.signature()
        if signature == seen:
            current = {"version": last}  # unchanged: no need to look inside
        else:  # read and check the file off the event loop: pages stay served meanwhile
            current = await anyio.to_thread.run_sync(store.state, lang)
            seen = signature
        if current["version"] != last:
            last = current["version"]
            yield f"event: state\ndata: {json.dumps(current, ensure_ascii=False)}\n\n"
            sent += 1
            quiet = 0.0
            if max_events is not None and sent >= max_events:
                return
        elif quiet >= keepalive:
            yield ": still here\n\n"
            quiet = 0.0
        await anyio.sleep(poll)
        quiet += poll


def _asked(request: Request) -> str | None:
    """The language a JSON request asks its messages to be ``shown`` in (``?lang=``), if
    cf speaks it: the JSON itself is the same in every language."""
    asked = request.query_params.get("lang", "")
    return asked if asked in LANGUAGES else None


def _refused(exc: Refused, status: int, lang: str | None) -> Response:
    return JSONResponse(exc.json(lang), status_code=status, headers=_NO_STORE)


def _refusal(message: Message, status: int, lang: str | None = None) -> Response:
    return _refused(Refused(message), status, lang)


def _round_request(body: Any) -> tuple[list[tuple[str, str]] | Message, int | None]:
    """``{"entries": [[NAME, VALUE], …], "round": K or null}`` -> (entries, K), or a
    message saying what is wrong with the request."""
    if not isinstance(body, dict):
        return Message("the request is not a JSON object"), None
    raw = body.get("entries")
    if isinstance(raw, dict):
        raw = list(raw.items())
    if not isinstance(raw, list) or not all(
        isinstance(e, (list, tuple))
        and len(e) == 2
        and isinstance(e[0], str)
        and isinstance(e[1], (str, int))
        and not isinstance(e[1], bool)
        for e in raw
    ):
        return Message("entries must be a list of [name, value] pairs"), None
    number = body.get("round")
    if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
        return Message("round must be a whole number"), None
    if number is not None and number < 1:
        return Message("round must be 1 or more"), None
    return [(name, str(value)) for name, value in raw], number


async def _json_body(request: Request, lang: str | None, empty: Any = None) -> Any:
    """The request's JSON, or a refusal; ``empty`` for no body at all, when not None."""
    data = await _bounded_body(request, MAX_JSON_BYTES, lang)
    if isinstance(data, Response):
        return data
    if empty is not None and not data.strip():
        return empty
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError, RecursionError):  # [[[[… nested past the stack
        return _refusal(Message("the request is not JSON"), 400, lang)


async def _bounded_body(request: Request, limit: int, lang: str | None) -> bytes | Response:
    """The request's body if it is at most ``limit`` bytes: a larger declared length is
    refused unread, a larger stream as soon as it has gone past the limit."""
    if limit >= 2**20:
        too_big = _refusal(
            Message("the upload is larger than {size} MB", size=limit // 2**20), 413, lang
        )
    else:
        too_big = _refusal(
            Message("the upload is larger than {size} KB", size=limit // 2**10), 413, lang
        )
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                return too_big
        except ValueError:
            return _refusal(Message("bad Content-Length"), 400, lang)
    chunks = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                return too_big
            chunks.append(chunk)
    except ClientDisconnect:
        return _refusal(Message("the upload was cut off"), 400, lang)
    return b"".join(chunks)


class Guard:
    """The join token on every request, and the rules for writes (module docstring)."""

    def __init__(
        self, app: ASGIApp, token: str, *, loopback: bool = False, language: str = "en"
    ) -> None:
        self.app = app
        self.language = language  # the server's, for a refusal a browser shows
        self.token = token
        self.cookie = cookie_name(token)
        self.loopback = loopback

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here
        request = Request(scope)
        from_url = request.query_params.get("t")
        cookie = request.cookies.get(self.cookie)
        # Any place holding the token lets a read in: an old join link (another server's
        # token in the URL) opened in a browser that joined this server has its cookie.
        given = (from_url, request.headers.get(HEADER), cookie)
        if not (any(self._is_token(g or "") for g in given) or self._this_computer(request)):
            await _forbidden(scope, receive, send, self._refused_page(request))
            return
        if request.method not in ("GET", "HEAD") and not self._may_write(request):
            await _forbidden(scope, receive, send, self._why_not(request))
            return
        set_cookie = bool(from_url) and cookie != from_url and self._is_token(from_url or "")

        async def send_with_headers(message: Event) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                if set_cookie:
                    kept = f"{self.cookie}={self.token}; Path=/; HttpOnly; SameSite=Strict"
                    headers.append((b"set-cookie", kept.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _is_token(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    def _carries_token(self, request: Request) -> bool:
        """Whether a request carries the token itself (its header or its URL), not only in
        the cookie a browser adds to any request to this host."""
        given = (request.headers.get(HEADER), request.query_params.get("t"))
        return any(self._is_token(g or "") for g in given)

    def _this_computer(self, request: Request) -> bool:
        """A request to a server on 127.0.0.1 alone, addressed to this computer by name: no
        other computer can reach it, and a web page that points a name of its own here (DNS
        rebinding) addresses it by that name. The Host must be the name exactly, with at
        most a port."""
        if not self.loopback:
            return False
        name, _, port = request.headers.get("host", "").lower().partition(":")
        return name in LOOPBACK_NAMES and (port == "" or port.isdigit())

    def _refused_page(self, request: Request) -> str:
        """What a refused read is told: ``forbidden``, but in a browser (it asks for HTML:
        a phone that scanned an old join code) what to do, in the page's language."""
        if not _wants_page(request):
            return "forbidden"
        lang = page_language(
            request.headers.get("accept-language"), self.language, request.query_params.get("lang")
        )
        return script_texts(lang)["forbidden"]

    def _why_not(self, request: Request) -> str:
        """What a refused write is told: nothing more than ``forbidden``, but for a script
        on this computer that wrote without the token and not as JSON (its body is one a
        web page could send: :func:`_no_page_could_send`)."""
        if self._carries_token(request) or not self._this_computer(request):
            return "forbidden"
        if request.headers.get("origin") is not None or "referer" in request.headers:
            return "forbidden"
        if _no_page_could_send(request) or request.headers.get("sec-fetch-site") is not None:
            return "forbidden"  # JSON already, or from a page: the hint would mislead
        return f"forbidden: without the join token, a write is JSON ({JSON_HINT})"

    def _may_write(self, request: Request) -> bool:
        """A write carries the token itself, in its header or its URL (SPEC 13: "writes are
        POSTs carrying it"; the cookie a browser adds to any request to this host is not
        enough), or is addressed to a server on this computer alone in a form no other
        site's page can send unasked (:func:`_no_page_could_send`); and it comes from this
        site's own page, or from no page at all."""
        if not self._carries_token(request) and not (
            self._this_computer(request) and _no_page_could_send(request)
        ):
            return False
        site = request.headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return False
        # The Origin's host and port must be the Host's (http, or https through a proxy in
        # front of cf serve); "null" is a sandboxed page or a file.
        origin = request.headers.get("origin")
        if origin is None:
            return True
        scheme, netloc = urlsplit(origin)[:2]
        return scheme in ("http", "https") and netloc == request.headers.get("host", "")


def _no_page_could_send(request: Request) -> bool:
    """Whether a token-less write is one no other site's page could have made a browser
    send unasked. A page may make a browser post to any address a form, a beacon, a ping
    or a bare request, and an old browser names no ``Origin``; but a body said to be JSON
    or an image (cf serve's own writes, and a script's: ``curl -H 'Content-Type:
    application/json'``) a page can send to another site only with that site's leave,
    which cf serve never gives. One that says it comes from another page (``Referer``) is
    refused too."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind not in BODY_TYPES and not kind.startswith("image/"):
        return False
    referer = request.headers.get("referer")
    return referer is None or urlsplit(referer).netloc == request.headers.get("host", "")


#: The bodies a token-less write may carry (with ``image/*``): none a page can make a
#: browser send to another site without asking it first.
BODY_TYPES = frozenset({"application/json", "application/octet-stream"})
#: What a script on this computer is told to send.
JSON_HINT = "Content-Type: application/json"


#: The names of this computer a request to a server on 127.0.0.1 alone may use.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost"})


def _wants_page(request: Request) -> bool:
    """Whether a request comes from a browser showing what it gets (it asks for HTML), not
    from a script: a refusal is then said in words a person can act on."""
    return "text/html" in request.headers.get("accept", "")


async def _forbidden(scope: Scope, receive: Receive, send: Send, said: str = "forbidden") -> None:
    headers = {**_NO_STORE, **{k.decode(): v.decode() for k, v in SECURITY_HEADERS}}
    response = PlainTextResponse(said, 403, headers=headers)
    await response(scope, receive, send)
