"""The photo reader's reasons for a tile it did not read, in the reader's language
(cf/photo/reasons.py): English in JSON, translated part by part where a person reads them."""

from __future__ import annotations

from pathlib import Path

import pytest

from cf.i18n import set_language, tr
from cf.photo.reasons import REASONS, Reason, say

PHOTO = Path(__file__).parent.parent / "cf" / "photo"
SOURCES = "".join(
    p.read_text(encoding="utf-8") for p in PHOTO.glob("*.py") if p.name != "reasons.py"
)


@pytest.mark.parametrize("reason", REASONS)
def test_every_listed_reason_is_one_the_reader_writes(reason):
    assert reason in SOURCES.replace('"\n', "").replace('    "', "")


def test_every_reason_a_half_is_doubted_for_is_listed():
    """Each reason the pip reader writes as it is (``reasons.append("…")``) is one of
    :data:`REASONS`, so a person reads it in their language ("a faint blob" was not)."""
    import re

    from cf.photo.pips import WORN

    written = set(re.findall(r'reasons\.append\("([^"{}]+)"\)', SOURCES))
    assert "a faint blob" in written
    assert written | {WORN} <= set(REASONS)


@pytest.mark.parametrize("lang", ["es", "gl"])
def test_reasons_are_translated_part_by_part_and_stay_english_as_strings(lang):
    text = "12 pips, more than the set has; 6-6 read twice (a hand holds each tile once)"
    reason = Reason(text + "; " + REASONS[0])
    set_language(lang)
    try:
        shown = tr(reason)
        assert str(reason) == text + "; " + REASONS[0]
        assert "12" in shown and "6-6" in shown and "pips, more" not in shown
        assert "read twice" not in shown and REASONS[0] not in shown
        for part in REASONS:
            assert say(part) != part, part
        assert "6" in say("more pips than a double-6 set has?")
        assert say("more pips than a double-6 set has?") != "more pips than a double-6 set has?"
        checked = "the networks read 6-4 here"
        assert "6-4" in say(checked) and say(checked) != checked
        assert say("something new") == "something new"
    finally:
        set_language(None)
