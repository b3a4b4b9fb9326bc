"""``cf serve``: a small web app over one game file (docs/serve.md, SPEC §13).

A thin face over the library, as Datasette is over SQLite: the routes (:mod:`cf.serve.app`)
read and write the game file through the scorekeeper (:mod:`cf.serve.store`, which calls
:mod:`cf.record.keeper` under the same lock and atomic write as ``cf add``) and read photos
with the same reader as ``cf score --photo`` (:mod:`cf.serve.photos`). It has no rules of
its own: every message a refusal shows is the library's.

An optional extra (``pip install 'chickenfoot[serve]'``: Starlette, uvicorn, segno); only
``cf serve`` imports this package. The page (``static/``) is plain HTML, CSS and a little
JavaScript shipped in the wheel: no CDN, no build step.
"""
