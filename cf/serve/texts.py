"""The words of the ``cf serve`` page, and which language a request reads them in.

The page is made in the reader's language on the server: the HTML's own words are filled
in (:data:`PAGE`, ``{{t_KEY}}`` in ``static/page.html``), and the words its script shows
(:data:`SCRIPT`) go with it already translated, as JSON in a ``type="application/json"``
element; the script only fills in their ``{placeholders}``. Both are marked here, in
Python, so that ``tools/catalogues.sh`` extracts them with every other message.

The language (:func:`page_language`): ``?lang=`` in the address, else the browser's
``Accept-Language`` (parsed by Werkzeug, matched against cf's languages by Babel: ``es-ES``
is ``es``, ``en-US`` is ``en``), else the server's own (``cf --lang``, ``CF_LANG``,
``LANG``…), which is English unless set.

>>> page_language("en-US,es;q=0.5", "gl"), page_language("pt-BR, gl;q=0.7", "en")
('en', 'gl')
>>> page_language("fr", "es"), page_language(None, "en"), page_language("*", "gl")
('es', 'en', 'gl')
"""

from __future__ import annotations

from cf.i18n import LANGUAGES, N_, speaking
from cf.i18n import gettext as _

#: The page's own words: ``{{t_KEY}}`` in page.html, HTML-escaped when filled in.
PAGE = {
    "live": N_("live updates"),
    "player": N_("player"),
    "round": N_("round"),
    "total": N_("total"),
    "move": N_("move"),
    "entry": N_("Round"),
    "add": N_("Add round"),
    "cancel": N_("Cancel"),
    "rounds": N_("Rounds"),
    "undo": N_("Undo last round"),
    "standings": N_("Standings"),
    "chart": N_("Running totals, round by round"),
}

#: What a browser reads at an address the server has no page for, or that takes no such
#: request (404, 405; a script reads the framework's "Not Found").
NO_PAGE = N_("there is no page here: open the address cf serve printed, or its join link")

#: The words the script shows, by key; ``{name}`` is filled in by the script.
SCRIPT = {
    "round_head": N_("round {round}"),
    "problems": N_("The game file has problems (cf validate says):"),
    "entry": N_("Round {round}"),
    "entry_fix": N_("Fix round {round}"),
    "add": N_("Add round {round}"),
    "save": N_("Save round {round}"),
    "score": N_("Score"),
    "tiles": N_("Tiles"),
    "out": N_("Out"),
    "photo": N_("Photo"),
    "photo_of": N_("Photo of {player}'s hand"),
    "score_of": N_("{player}'s score"),
    "points": N_("points"),
    "out_value": N_("out: 0"),
    "out_double": N_("Out on a double"),
    "out_double_value": N_("out on a double: {points}"),
    "no_tiles": N_("no tiles"),
    "photo_read": N_("What was read in {player}'s photo"),
    "might_be": N_("not read: might be {tiles}"),
    "or": N_("{tile} or {other}"),
    "any_tile": N_("any tile"),
    "confirm": N_("These tiles are right"),
    "confirmed": N_("confirmed: {tiles}"),
    "pick_first": N_(
        "no tile read or picked: pick the tiles the photo shows in the grid (a photo of a "
        "hand is never out), or take it again"
    ),
    "pick_unread": N_(
        "{n} found in the photo but not picked: pick them in the grid, or tap again if "
        "they are no tiles of this hand"
    ),
    "too_big": N_("the photo is larger than {size} MB"),
    "reading": N_("reading the photo…"),
    "not_sent": N_("the photo could not be sent: try again"),
    "confirm_first": N_("{player}: confirm or correct the photo's reading first"),
    "photo_again": N_(
        "{player}: the photo shows no domino: take it again, or enter the hand by hand"
    ),
    "fix_changed": N_(
        "Round {round} changed on another phone: it is shown as it is now; correct it again "
        "if it is still wrong"
    ),
    "moved_on": N_(
        "The rounds changed on another phone: check them below. What was typed here is "
        "cleared; the form is for round {next} now"
    ),
    "forbidden": N_("the server refused this page: open it again from the join link"),
    "give_value": N_("{player}: give a score, tiles or out"),
    "tap_tiles": N_("{player}: tap the tiles left in the hand, or choose Out"),
    "not_score": N_("{player}: '{score}' is not a score (a score is a whole number, 0 or more)"),
    "nothing_written": N_("Nothing written: {why}"),
    "refused": N_("refused"),
    "unreachable": N_("the server cannot be reached"),
    "in_file": N_("a round with a deal, moves, a starter or notes: fix it in the file"),
    "fix": N_("Fix"),
    "tap_again": N_("Tap again to remove round {round}"),
    "undo": N_("Undo last round"),
}


def page_language(accept_language: str | None, server: str, asked: str | None = None) -> str:
    """The language of a page: ``asked`` (``?lang=``) if cf speaks it, else the best of
    cf's languages the ``Accept-Language`` header names, else ``server``."""
    code = (asked or "").strip().lower().replace("_", "-").split("-")[0]
    if code in LANGUAGES:
        return code
    if accept_language:
        from babel import negotiate_locale
        from werkzeug.datastructures import LanguageAccept
        from werkzeug.http import parse_accept_header

        accepted = parse_accept_header(accept_language, LanguageAccept)
        preferred = [value for value, quality in accepted if quality > 0]
        found = negotiate_locale(preferred, LANGUAGES, sep="-")
        if found:
            return found
    return server


def page_texts(lang: str) -> dict[str, str]:
    """:data:`PAGE` (as ``t_KEY``) in ``lang``."""
    with speaking(lang):
        return {f"t_{key}": _(text) for key, text in PAGE.items()}


def script_texts(lang: str) -> dict[str, str]:
    """:data:`SCRIPT` in ``lang``, for the script."""
    with speaking(lang):
        return {key: _(text) for key, text in SCRIPT.items()}
