"""Why the photo reader did not read a tile, in the reader's language.

The reader writes its reasons in English, several joined by ``"; "`` (JSON keeps them so);
:class:`Reason` translates them part by part where a person reads them. A part is one of
:data:`REASONS`, or one of the :data:`WORDED` sentences with a number or a tile in it; any
other part is shown as it is.
"""

from __future__ import annotations

import re

from cf.i18n import N_, Message, gettext

#: The reasons written as they are (cf/photo/pips.py, missed.py, nets.py, combined.py,
#: oneset.py, negative.py, keyed.py).
REASONS = (
    N_("face enough for one more tile than were read"),
    N_("a tile whose divider was not found"),
    N_("a double blank with a faint divider, or the back of a tile?"),
    N_("tile face at the photo's edge beside the tiles read: a tile cut by the frame?"),
    N_("a light, tile-sized region with pip-like marks that no tile read accounts for"),
    N_("not a tile face"),
    N_("the tile's outline is unsure"),
    N_("the tile's edges are not clear"),
    N_("the divider is off the middle"),
    N_("the bar runs right across (a seam between two tiles?)"),
    N_("no divider across the tile"),
    N_("no room for a half"),
    N_("pips of different sizes"),
    N_("a blob that is not a pip"),
    N_("a faint blob"),
    N_("pips not in a standard layout"),
    N_("pips off the centre of the half"),
    N_("pips of different colours"),
    N_("faint pip-like marks on a blank half"),
    N_("a faint mark where a pip would make the next number (a worn pip?)"),
    N_("pips of different sizes on the two halves"),
    N_("face seen, but not the shape of one tile"),
    N_("a speck of face apart from the tiles (a glint, a crumb?)"),
    N_("one half is not a half"),
    N_("not a half-tile"),
    N_("reads differently turned half a turn"),
    N_("much smaller than the other tiles (a printed picture of a domino?)"),
    N_("not the colour of the other tiles (a printed picture, or another set's tile?)"),
    N_("no tile face there (a stretch of table taken for a tile?)"),
    N_("only the networks read a tile here: the classical pipeline found none in the photo"),
    N_(
        "read in the photo's negative (light pips on a dark or coloured tile), but not the "
        "whole photo: lay such tiles apart on a plain, light surface"
    ),
    N_(
        "read by the tiles' colour (light pips on a coloured tile), but not the whole photo: "
        "lay such tiles apart on a plain surface of another colour"
    ),
)

#: Reasons with a number or a tile in them: how to find them, and their template.
WORDED = (
    (re.compile(r"(?P<n>\d+) pips, more than the set has"), N_("{n} pips, more than the set has")),
    (
        re.compile(r"(?P<tile>\S+) read twice \(a hand holds each tile once\)"),
        N_("{tile} read twice (a hand holds each tile once)"),
    ),
    (
        re.compile(r"more pips than a double-(?P<top>\d+) set has\?"),
        N_("more pips than a double-{top} set has?"),
    ),
    (re.compile(r"the networks read (?P<tile>\S+) here"), N_("the networks read {tile} here")),
)


def say(part: str) -> str:
    """One reason in the reader's language."""
    for pattern, template in WORDED:
        found = pattern.fullmatch(part)
        if found:
            return gettext(template).format(**found.groupdict())
    return gettext(part) if part in REASONS else part


class Reason(Message):
    """The reader's reasons for one tile: English as a string, translated part by part."""

    def translated(self) -> str:
        return "; ".join(say(part) for part in str.__str__(self).split("; "))
