#!/usr/bin/env bash
# Start-up: `cf score 9-7 6-6 4-1` against a minimal Typer app with one command
# (bench/minimal_app.py) and `python -c pass`, same Python, same Typer, in one run.
#
#     bench/startup.sh                 # ROUNDS=10 RUNS=20 by default
#     ROUNDS=20 RUNS=30 bench/startup.sh
#
# hyperfine times one command after the other; to alternate, the script runs ROUNDS short
# hyperfine rounds, rotating the order of the commands each round, each exporting JSON to
# bench/out/startup/. Medians are taken over all runs of all rounds; the ratio is also
# given as the median of the per-round ratios. Target (issue 6, item 1): cf / typer <= 1.15.
#
# Bytecode: this sandbox sets PYTHONDONTWRITEBYTECODE=1, so cf/ (an editable install) has
# no .pyc files and is compiled from source at every start, while site-packages ship .pyc.
# A user's install has .pyc for both, so the main measurement ("cached") unsets it and puts
# every .pyc under bench/out/pycache (PYTHONPYCACHEPREFIX; nothing is written into cf/).
# MODE=inherited measures with the environment as it is instead.
#
# Then `python -X importtime` shows what `cf score` imports: yaml, tabulate and rich must
# not be among them. Last, `cf score` under CF_LANG=es against CF_LANG=en: loading a
# catalogue must not make it slower (issue 25: the .mo is read once, by the first translated
# text; the command's help texts are among them, so that is at start-up, about 1 ms).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=.venv/bin/python
CF=.venv/bin/cf
ROUNDS=${ROUNDS:-10}
RUNS=${RUNS:-20}
MODE=${MODE:-cached}
OUT=bench/out/startup/$MODE
rm -rf "$OUT"
mkdir -p "$OUT"

if [ "$MODE" = cached ]; then
    unset PYTHONDONTWRITEBYTECODE
    export PYTHONPYCACHEPREFIX="$PWD/bench/out/pycache"
fi

CMD_CF="$CF score 9-7 6-6 4-1"
CMD_TYPER="$PY bench/minimal_app.py 9-7 6-6 4-1"
CMD_PASS="$PY -c pass"
[ "$($CMD_CF)" = 33 ] && [ "$($CMD_TYPER)" = 33 ] || { echo "a command does not print 33" >&2; exit 1; }

for i in $(seq 1 "$ROUNDS"); do
    case $((i % 3)) in
        0) order=("$CMD_CF" "$CMD_TYPER" "$CMD_PASS") ;;
        1) order=("$CMD_TYPER" "$CMD_PASS" "$CMD_CF") ;;
        2) order=("$CMD_PASS" "$CMD_CF" "$CMD_TYPER") ;;
    esac
    hyperfine -N --warmup 3 --runs "$RUNS" --style none \
        --export-json "$OUT/round-$i.json" "${order[@]}" >/dev/null 2>"$OUT/hyperfine-$i.log"
done

"$PY" - "$OUT" "$CMD_CF" "$CMD_TYPER" "$CMD_PASS" "$MODE" <<'EOF'
import json, pathlib, statistics, sys

out, cf, typer_, pass_, mode = sys.argv[1:]
times = {cf: [], typer_: [], pass_: []}
per_round = []
for f in sorted(pathlib.Path(out).glob("round-*.json")):
    res = {r["command"]: r["times"] for r in json.loads(f.read_text())["results"]}
    for c in times:
        times[c].extend(res[c])
    per_round.append(statistics.median(res[cf]) / statistics.median(res[typer_]))
med = {c: statistics.median(t) * 1000 for c, t in times.items()}
print(f"start-up ({mode}), {len(per_round)} alternating rounds, {len(times[cf])} runs each:")
for label, c in (("cf score 9-7 6-6 4-1", cf), ("minimal Typer app", typer_), ("python -c pass", pass_)):
    q = statistics.quantiles(times[c], n=4)
    print(f"  {label:22} median {med[c]:6.1f} ms  (IQR {q[0]*1000:.1f}-{q[2]*1000:.1f})"
          f"  {med[c] / med[pass_]:5.2f} x python -c pass")
ratio = med[cf] / med[typer_]
print(f"  cf / typer: {ratio:.3f} (medians), {statistics.median(per_round):.3f} (median per round)"
      f" -> target 1.15 {'met' if ratio <= 1.15 else 'MISSED'}")
print(f"  above python -c pass: cf {med[cf] - med[pass_]:.1f} ms, typer {med[typer_] - med[pass_]:.1f} ms")
summary = {"mode": mode, "median_ms": {"cf": med[cf], "typer": med[typer_], "pass": med[pass_]},
           "ratio": ratio, "ratio_per_round": per_round}
(pathlib.Path(out) / "summary.json").write_text(json.dumps(summary, indent=1))
EOF

echo "imports of cf score (python -X importtime, cumulative us, top 8):"
$PY -X importtime -m cf score 9-7 6-6 4-1 2>"$OUT/importtime.txt" >/dev/null
sort -t'|' -k2 -n "$OUT/importtime.txt" | tail -8 | sed 's/^import time:/ /'
heavy=$(grep -E '\| +(yaml|tabulate|rich)(\.|$)' "$OUT/importtime.txt" || true)
if [ -n "$heavy" ]; then
    echo "  HEAVY MODULES IMPORTED:"; echo "$heavy"
else
    echo "  yaml, tabulate, rich: not imported"
fi

# Languages (issue 25): the catalogue is read once, by the first translated text; so
# `cf score` in Spanish starts as fast as in English. Both run with the same environment.
echo "language (CF_LANG=en vs CF_LANG=es, cf score 9-7 6-6 4-1, alternating runs):"
"$PY" - "$CF" "$((RUNS * 3))" <<'EOF2'
import os, statistics, subprocess, sys, time
cf, runs = sys.argv[1], int(sys.argv[2])
times = {"en": [], "es": []}
for i in range(runs + 3):
    for lang in (("en", "es") if i % 2 else ("es", "en")):
        env = dict(os.environ, CF_LANG=lang)
        start = time.perf_counter()
        subprocess.run([cf, "score", "9-7", "6-6", "4-1"], env=env, check=True, stdout=subprocess.DEVNULL)
        if i >= 3:  # warm-up runs are not counted
            times[lang].append(time.perf_counter() - start)
en, es = (statistics.median(times[k]) * 1000 for k in ("en", "es"))
print(f"  {runs} runs each: en median {en:.1f} ms, es median {es:.1f} ms: es / en {es / en:.3f}")
EOF2
CF_LANG=es $PY -X importtime -m cf score 9-7 6-6 4-1 2>"$OUT/importtime-es.txt" >/dev/null
if grep -qE '\| +babel(\.|$)' "$OUT/importtime-es.txt"; then
    echo "  CF_LANG=es imports babel for cf score: NOT lazy"
else
    echo "  CF_LANG=es: babel not imported by cf score (it formats numbers only when one is printed)"
fi
