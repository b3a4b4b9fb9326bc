"""Shell completion (SPEC §12): the scripts, and what `cf` offers through their protocol.

Typer's protocol: ``_CF_COMPLETE=complete_bash`` with ``COMP_WORDS``/``COMP_CWORD`` (bash),
``complete_zsh`` and ``complete_fish`` with ``_TYPER_COMPLETE_ARGS``. An empty answer makes
each shell fall back to its own file-name completion (bash ``complete -o default``, zsh
``_files``, fish's "is-args" check failing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tabulate import tabulate_formats

from cf.cli import COMMANDS
from cf.play.simulate import STRATEGIES
from cf.record.problems import CODES
from cf.tiles import SET_NAMES

ROOT = Path(__file__).parent.parent


def bash(cli, line: str) -> list[str]:
    """What ``cf`` offers for the last word of ``line`` (empty: a new word)."""
    words = line.split()
    cword = len(words) if line.endswith(" ") else len(words) - 1
    env = {"_CF_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(cword)}
    result = cli(env=env)
    assert result.exit_code == 0, result.output
    return [word for word in result.stdout.splitlines() if word]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("cf ", [*COMMANDS, "help"]),
        ("cf va", ["validate"]),
        ("cf validate --format ", ["text", "json", "github", "sarif"]),
        ("cf validate -f s", ["sarif"]),
        ("cf score --set ", list(SET_NAMES.values())),
        ("cf deal --set double-t", ["double-twelve"]),
        ("cf simulate --strategy ", list(STRATEGIES)),
        ("cf simulate --strategy greedy,r", ["greedy,random"]),
        ("cf simulate -s random,greedy,", [f"random,greedy,{s}" for s in STRATEGIES]),
        ("cf tally --format ", ["json", "csv", "markdown", "md", *sorted(tabulate_formats)]),
        (
            "cf tally --format m",
            ["markdown", "md", *sorted(f for f in tabulate_formats if f[0] == "m")],
        ),
        ("cf tally --format gi", ["github"]),
        ("cf tally --rank-by ", ["total", "average", "wins", "rating"]),
        ("cf explain ", list(CODES)),
        ("cf explain must-", ["must-play", "must-play-drawn", "must-draw"]),
        ("cf --show-completion ", ["bash", "zsh", "fish"]),
        ("cf --install-completion z", ["zsh"]),
    ],
)
def test_bash_candidates(cli, line: str, expected: list[str]):
    assert bash(cli, line) == expected


@pytest.mark.parametrize("line", ["cf validate ", "cf validate ex", "cf tally game.yaml "])
def test_file_arguments_leave_it_to_the_shell(cli, line: str):
    assert bash(cli, line) == []  # the shell then completes file names


def test_option_names(cli):
    offered = bash(cli, "cf validate --")
    assert "--format" in offered and "--help" in offered
    assert "--install-completion" in bash(cli, "cf --")


def test_zsh_and_fish(cli):
    zsh = cli(env={"_CF_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "cf score --set "})
    assert zsh.stdout.startswith("_arguments '*: :((")
    assert '"double-fifteen"' in zsh.stdout
    files = cli(env={"_CF_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "cf validate "})
    assert files.stdout.strip() == "_files"
    fish = cli(
        env={
            "_CF_COMPLETE": "complete_fish",
            "_TYPER_COMPLETE_FISH_ACTION": "get-args",
            "_TYPER_COMPLETE_ARGS": "cf explain yard",
        }
    )
    assert fish.stdout.splitlines() == ["yard-empty"]


@pytest.mark.parametrize(
    ("shell", "marker"),
    [
        ("bash", "complete -o default -F _cf_completion cf"),
        ("zsh", "compdef _cf_completion cf"),
        ("fish", "complete --command cf"),
    ],
)
def test_show_completion_prints_a_script(cli, shell: str, marker: str):
    result = cli("--show-completion", shell)
    assert result.exit_code == 0, result.output
    assert marker in result.stdout
    assert f"_CF_COMPLETE=complete_{shell}" in result.stdout
    assert cli(f"--show-completion={shell}").stdout == result.stdout


def test_show_completion_detects_the_shell(cli, monkeypatch):
    import shellingham

    monkeypatch.setattr(shellingham, "detect_shell", lambda: ("zsh", "/bin/zsh"))
    result = cli("--show-completion")
    assert result.exit_code == 0, result.output
    assert "compdef _cf_completion cf" in result.stdout


@pytest.mark.parametrize(
    ("detected", "message"),
    [(None, "cannot tell the shell: name the shell"), ("dash", "cf runs under dash: name")],
)
def test_an_undetected_shell_must_be_named(cli, monkeypatch, detected, message):
    import shellingham

    def detect():
        if detected is None:
            raise shellingham.ShellDetectionFailure()
        return detected, f"/bin/{detected}"

    monkeypatch.setattr(shellingham, "detect_shell", detect)
    result = cli("--install-completion")
    assert result.exit_code == 2
    assert message in result.stderr


def test_an_unknown_shell_is_a_usage_error(cli):
    result = cli("--show-completion", "tcsh")
    assert result.exit_code == 2
    assert "'tcsh' is not a shell cf completes" in result.stderr


@pytest.mark.parametrize(
    ("shell", "script", "rc"),
    [
        ("bash", ".bash_completions/cf.sh", ".bashrc"),
        ("zsh", ".zfunc/_cf", ".zshrc"),
        ("fish", ".config/fish/completions/cf.fish", None),
    ],
)
def test_install_completion_writes_the_script(cli, tmp_path: Path, monkeypatch, shell, script, rc):
    monkeypatch.setenv("HOME", str(tmp_path))
    result = cli("--install-completion", shell)
    assert result.exit_code == 0, result.output
    path = tmp_path / script
    assert result.stdout.startswith(f"{shell} completion for cf installed in {path}\n")
    assert f"_CF_COMPLETE=complete_{shell}" in path.read_text()
    if rc:
        assert (tmp_path / rc).is_file()  # where the shell is told to read it


def test_real_process_bash_protocol():
    env = {
        **os.environ,
        "_CF_COMPLETE": "complete_bash",
        "COMP_WORDS": "cf validate --format ",
        "COMP_CWORD": "3",
    }
    out = subprocess.run(
        [sys.executable, "-m", "cf"], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["text", "json", "github", "sarif"]


def test_completion_keeps_cf_score_light():
    code = (
        "import sys\n"
        "from cf.cli import app\n"
        "try:\n"
        "    app(['score', '9-7'], prog_name='cf')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = set(out.stdout.split()[1:])  # after the score's own output
    heavy = {m for m in modules if m.split(".")[0] in ("yaml", "tabulate", "rich")}
    assert heavy == set()
    assert {m for m in modules if m.startswith(("cf.record", "cf.render", "cf.play"))} == set()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ('cf validate --format ""', ["text", "json", "github", "sarif"]),
        ("cf explain score-", ["score-mismatch"]),
        ('cf validate ""', []),  # empty: `complete -o default` completes file names
    ],
)
def test_the_bash_script_in_bash(words: str, expected: list[str]):
    """The printed script, sourced into a real bash, fills COMPREPLY through `cf`."""
    script = (
        "source <(cf --show-completion bash)\n"
        f"COMP_WORDS=({words}); COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))\n"
        "_cf_completion cf\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
        "complete -p cf\n"
    )
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    out = subprocess.run(
        ["bash", "--norc", "-c", script], env=env, capture_output=True, text=True, check=True
    )
    *replies, spec = out.stdout.splitlines()
    assert [r for r in replies if r] == expected
    assert spec == "complete -o default -F _cf_completion cf"
