"""JSON text for every ``--format json``: one shape, always valid UTF-8.

Names and file names are kept as written (``ensure_ascii=False``), except that text which
cannot be UTF-8 (a lone surrogate, such as a file name's undecodable byte) is escaped,
so a reader of the JSON never meets a raw invalid byte.

>>> print(dumps({"player": "José", "file": "b\\udcffd.yaml"}))
{
  "player": "José",
  "file": "b\\udcffd.yaml"
}
<BLANKLINE>
"""

from __future__ import annotations

import json
import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def dumps(data: object) -> str:
    """``data`` as indented JSON text, ending in a newline."""
    text = json.dumps(data, ensure_ascii=False, indent=2)
    # A surrogate can only stand inside a JSON string, where \\uXXXX is its escape.
    text = _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text + "\n"
