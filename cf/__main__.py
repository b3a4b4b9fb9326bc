"""``python -m cf``: the same as the ``cf`` command."""

from cf._entry import main

main()
