"""``cf serve``: the scoreboard and score entry on every phone at the table (docs/serve.md).

Parses the options and starts uvicorn on the app of :mod:`cf.serve.app`; the serve extra
(Starlette, uvicorn, segno) is imported only here, when the command runs.
"""

from __future__ import annotations

import errno
import os
import socket
import sys
from typing import Annotated, Any

import typer

from cf.commands.common import command_app, fail
from cf.i18n import N_, _, os_reason, tr

app = command_app()

INSTALL_HINT = N_("cf serve needs the serve extra: pip install 'chickenfoot[serve]'")
DEFAULT_PORT = 8765


@app.command(
    short_help=_("The scoreboard and round entry on every phone at the table."),
    help=_("""Serve the game FILE as a web page: the scoreboard, live on every open page, and
    a form to enter each round (scores, tiles from a grid, out, or a photo of the hand),
    fix a round, undo the last one.

    Every write goes through the same checks, lock and atomic write as cf add. By
    default only this computer can open the page (127.0.0.1, no token needed); --lan lets
    the phones on the local network join with the address printed (it carries a join
    token; without it every request is refused). The page is in the language of each
    phone's browser (Spanish, Galician or English), else in cf's. Ctrl-C stops the server
    (exit 130). A port already in use is an error (exit 1): choose another with --port.

    \b
    Examples:
      cf serve friday.yaml
      cf serve friday.yaml --lan
      cf serve --new friday.yaml --players Ana,Ben,Carla,Dan --lan
      cf serve friday.yaml --view-only --port 8080
    """),
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
def serve(
    ctx: typer.Context,
    file: Annotated[
        str,
        typer.Argument(help=_("The game file (from cf new)."), show_default=False, metavar="FILE"),
    ],
    port: Annotated[
        int,
        typer.Option(
            "--port",
            min=0,
            max=65535,
            help=_("The port to listen on (0: any free port). [default: {port}]").format(
                port=DEFAULT_PORT
            ),
            show_default=False,
        ),
    ] = DEFAULT_PORT,
    lan: Annotated[
        bool,
        typer.Option(
            "--lan",
            help=_(
                "Listen on the local network (not only this computer) and print the "
                "address with its join token as a QR code for phones."
            ),
        ),
    ] = False,
    view_only: Annotated[
        bool,
        typer.Option("--view-only", help=_("Serve the scoreboard only: no page can write.")),
    ] = False,
    new: Annotated[
        bool,
        typer.Option(
            "--new",
            help=_("Start FILE first, as cf new does: give --players and any cf new option."),
        ),
    ] = False,
) -> None:
    """``cf serve`` (the help text above)."""
    if ctx.args and not new:
        raise typer.BadParameter(
            _("unexpected {args} (cf new's options go with --new)").format(
                args=" ".join(ctx.args)
            ),
            param_hint="FILE",
        )
    try:
        import uvicorn
        import werkzeug.http  # noqa: F401  # the page's language, from Accept-Language

        from cf.serve.app import create_app, new_token
        from cf.serve.store import Store
    except ImportError:
        fail(_(INSTALL_HINT), 2)
    if new:
        _new_game(file, ctx.args)
    _check_file(file)
    host = "0.0.0.0" if lan else "127.0.0.1"
    sock = _bind(host, port)
    bound = sock.getsockname()[1]
    token = new_token()
    shown_host = _lan_address() if lan else "127.0.0.1"
    url = f"http://{shown_host}:{bound}/?t={token}"

    servers: list[Any] = []
    web = create_app(
        Store(file),
        token,
        view_only=view_only,
        is_stopping=lambda: servers[0].should_exit,
        loopback=not lan,
    )
    config = uvicorn.Config(web, log_level="warning", timeout_graceful_shutdown=2, lifespan="off")
    servers.append(uvicorn.Server(config))
    typer.echo(_("serving {file} at {url}").format(file=file, url=url))
    if lan:
        _print_qr(url)
        typer.echo(_("phones on this network join with that address (or the QR code)"))
    typer.echo(_("TV view: add &view=board to the address; Ctrl-C stops the server"))
    sys.stdout.flush()  # the address now, not when the server stops
    servers[0].run(sockets=[sock])


def _new_game(file: str, args: list[str]) -> None:
    """``cf new FILE ARGS…``, as the command itself runs it (same options, same checks)."""
    from typer._click import exceptions

    from cf.cli import app as cli_app
    from cf.cli_words import told

    group = typer.main.get_command(cli_app)
    with group.make_context("cf", ["new"]) as parent:  # type: ignore[attr-defined]
        command = group.get_command(parent, "new")  # type: ignore[attr-defined]
        try:
            with told():  # Click's usage errors in the reader's language, as cf new's
                code = command.main(
                    [file, *args], prog_name="cf serve --new", standalone_mode=False
                )
        except exceptions.ClickException as exc:
            exc.show()
            raise typer.Exit(exc.exit_code) from None
    if isinstance(code, int) and code:  # cf new said why, and nothing was started
        raise typer.Exit(code)


def _check_file(file: str) -> None:
    if os.path.isdir(file):
        fail(_("{file} is a directory, not a game file").format(file=file), 2)
    if not os.path.isfile(file):
        fail(
            _("cannot read {file}: no such file (start one with --new, or cf new)").format(
                file=file
            ),
            2,
        )


def _bind(host: str, port: int) -> socket.socket:
    """A listening socket, bound before the server starts so that a port in use is a
    clear error (exit 1), not a log line."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            fail(
                _(
                    "port {port} is in use (is another cf serve running?): choose one with --port"
                ).format(port=port)
            )
        fail(
            _("cannot listen on {host}:{port}: {why}").format(
                host=host, port=port, why=tr(os_reason(exc))
            )
        )
    sock.set_inheritable(True)
    return sock


def _lan_address() -> str:
    """This computer's address on the local network (a UDP socket "connected" to a
    private address sends nothing, but picks the interface), else its name."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        address = socket.gethostname()
    finally:
        probe.close()
    return address


def _print_qr(url: str) -> None:
    import segno

    qr: Any = segno.make(url, error="m")
    qr.terminal(compact=True)
