"""The build backend: setuptools, after a clear word on the Python version.

pip checks ``requires-python`` only for packages it finds on an index: installing a clone
(``pip install .``) on Python 3.9 would otherwise end in an unhelpful "No matching
distribution found for typer". The build runs on the Python being installed to, so
checking here gives the real reason.
"""

from __future__ import annotations

import sys

if sys.version_info < (3, 10):  # noqa: UP036 - the point of this module
    raise SystemExit(
        "chickenfoot (cf) needs Python 3.10 or newer; this is Python "
        f"{sys.version.split()[0]}. Install it with a newer Python, e.g. "
        "'python3.12 -m pip install .' or 'pipx install --python python3.12 .'"
    )

from setuptools.build_meta import *  # noqa: F403
