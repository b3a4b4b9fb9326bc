#!/usr/bin/env bash
# Extract cf's messages, merge them into every language's catalogue, compile the .mo files
# that ship in the wheel (docs/translating.md). Needs Babel: pip install -e '.[dev]'.
# tests/test_i18n.py fails while a catalogue misses a message, has a fuzzy or stale
# entry, or its .mo is older than its .po.
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel -q extract -F babel.cfg -k Message -k N_ -k Plural:1,2 --no-location --sort-output \
    --project chickenfoot --copyright-holder "The cf authors" -o cf/locale/cf.pot .
for lang in es gl; do
    if [ -f "cf/locale/$lang/LC_MESSAGES/cf.po" ]; then
        pybabel -q update -i cf/locale/cf.pot -d cf/locale -D cf -l "$lang" \
            --no-fuzzy-matching --ignore-obsolete --no-wrap
    else
        pybabel -q init -i cf/locale/cf.pot -d cf/locale -D cf -l "$lang" --no-wrap
    fi
done
pybabel -q compile -d cf/locale -D cf --statistics
