"""`wonderforge completion bash|zsh|fish`: each script is loaded in the real shell, which is asked
what it offers after a few prefixes (bash: its completion function called with COMP_WORDS; zsh: an
interactive zsh in a pseudo-terminal pressing TAB, its matches caught as they are added; fish:
`complete -C`). A shell that is not installed skips its tests, unless WONDERFORGE_NEED_SHELLS=1
(CI) makes them fail.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess

import pytest

from wonderforge.tools.editor import completion
from wonderforge.tools.cli.commands import _parser, main

SHIPPED = {"7-wonders", "architects", "architects-medals", "dice"}


def _shell(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("WONDERFORGE_NEED_SHELLS"):
            pytest.fail(f"{name} is not installed, and WONDERFORGE_NEED_SHELLS asks for it")
        pytest.skip(f"{name} is not installed")
    return path


def _bash(script: str, lines: list[str], cwd) -> list[set[str]]:
    """What bash's completion function offers at the end of each line."""
    calls = "".join(f"_ask {_sh_words(line)}\n" for line in lines)
    program = ('_ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}\n'
               '  _wonderforge; printf "%s\\n" "${COMPREPLY[@]}"; echo "<<END>>"; }\n'
               f"source {_sh(script)}\n" + calls)
    out = subprocess.run([_shell("bash"), "--norc", "--noprofile", "-c", program], cwd=cwd, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0 and not out.stderr, out.stderr
    return [{w for w in block.split("\n") if w} for block in out.stdout.split("<<END>>\n")[:-1]]


# Sourced by an interactive zsh: TAB runs complete-word and then prints an end mark; compadd is
# wrapped to print each match it adds (calls that only ask for matches, -O -A -D, are let through).
ZSH_HOOKS = r"""
compadd() {
    local a
    for a in "$@"; do
        [[ $a == -- ]] && break
        [[ $a == -[OAD]* ]] && { builtin compadd "$@"; return }
    done
    local -a hits
    builtin compadd -O hits "$@"
    print -rl -- ${hits/#/'<<HIT>>'} > /dev/tty
    builtin compadd "$@"
}
_tab() {
    zle complete-word
    print -r -- '<<END>>' > /dev/tty
}
zle -N _tab
bindkey '^I' _tab
"""

# zsh -f (no rc file) driving an interactive zsh in a pseudo-terminal (zpty): $1 and $2 load the
# script, $3 the hooks, then each further argument is a line typed, TAB, and the line killed (^U).
ZSH_DRIVER = r"""
zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "$1; autoload -Uz compinit; compinit -u -D; $2; source ${(q)3}; print '<<'READY'>>'"
zpty -r z out '*<<READY>>*'
for line in "${@[4,-1]}"; do
  zpty -n -w z "$line"$'\t'
  zpty -r z out '*<<END>>*'
  print -r -- "$out"
  print -r -- "<<LINE>>"
  zpty -n -w z $'\x15'
done
zpty -d z
"""


def _zsh(script: str, lines: list[str], cwd, autoload: bool = False) -> list[set[str]]:
    """What an interactive zsh offers when TAB is pressed at the end of each line, the script
    sourced, or (`autoload`) found as _wonderforge in a folder of $fpath."""
    folder = os.path.dirname(script)
    if autoload:
        os.replace(script, os.path.join(folder, "_wonderforge"))
        setup = (f"fpath=({_sh(folder)} $fpath)", ":")
    else:
        setup = (":", f"source {_sh(script)}")
    hooks = os.path.join(folder, "hooks.zsh")
    with open(hooks, "w") as file:
        file.write(ZSH_HOOKS)
    out = subprocess.run([_shell("zsh"), "-f", "-c", ZSH_DRIVER, "zsh", *setup, hooks, *lines], cwd=cwd,
                         capture_output=True, text=True, timeout=90, env=os.environ | {"TERM": "xterm"})
    assert out.returncode == 0, out.stderr
    blocks = out.stdout.split("<<LINE>>")[:-1]
    return [set(re.findall(r"<<HIT>>([^\r\n]*)", block)) for block in blocks]


def _fish(script: str, lines: list[str], cwd) -> list[set[str]]:
    """What fish's `complete -C` offers for each line (the words, without their descriptions)."""
    calls = "".join(f"complete -C {_fish_word(line)}; echo '<<END>>'\n" for line in lines)
    out = subprocess.run([_shell("fish"), "--no-config", "-c", f"source {_fish_word(script)}\n{calls}"], cwd=cwd,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and not out.stderr, out.stderr
    return [{w.split("\t")[0] for w in block.split("\n") if w} for block in out.stdout.split("<<END>>\n")[:-1]]


SHELLS = {"bash": _bash, "zsh": _zsh, "fish": _fish}


def _sh(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _sh_words(line: str) -> str:
    """A line as the words bash's completion sees (an empty last word when it ends in a space)."""
    return " ".join(_sh(w) for w in line.split(" "))


def _fish_word(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _script(shell: str, tmp_path, parser: argparse.ArgumentParser | None = None) -> str:
    path = tmp_path / f"wonderforge.{shell}"
    path.write_text(completion.script(shell, parser or _parser()))
    return str(path)


# line typed -> what the shell must offer: exactly these, or (a tuple) at least these and none of the others
CASES = [
    ("wonderforge si", {"simulate"}),
    ("wonderforge c", {"check", "cards", "completion"}),
    ("wonderforge simulate --for", {"--format"}),
    ("wonderforge simulate --format ", {"text", "json", "csv"}),
    ("wonderforge check --format ", {"text", "json"}),
    ("wonderforge cards dice --format ", {"text", "json", "html"}),
    ("wonderforge simulate --backend ", {"local", "ray"}),
    ("wonderforge check --wa", {"--watch"}),
    ("wonderforge check --watch --for", {"--format"}),
    ("wonderforge completion ", {"bash", "zsh", "fish"}),
    ("wonderforge diff architects arch", {"architects", "architects-medals"}),
    ("wonderforge --v", {"--version"}),
    ("wonderforge check ", (SHIPPED | {"my-mod"}, {"notes.txt"})),           # packs: ids and folders
    ("wonderforge simulate --against ", (SHIPPED | {"my-mod"}, {"notes.txt"})),
    ("wonderforge score ", ({"notes.txt", "my-mod"}, SHIPPED)),             # a file
    ("wonderforge new x --out ", ({"my-mod"}, SHIPPED | {"notes.txt"})),     # a folder
]


def _folder(tmp_path):
    work = tmp_path / "work"
    (work / "my-mod").mkdir(parents=True)
    (work / "notes.txt").write_text("")
    return work


@pytest.mark.slow  # a real shell
@pytest.mark.parametrize("shell", list(SHELLS))
def test_the_shell_offers_commands_options_choices_packs_and_files(shell, tmp_path):
    script = _script(shell, tmp_path)
    offered = SHELLS[shell](script, [line for line, _ in CASES], _folder(tmp_path))
    assert len(offered) == len(CASES)
    for (line, wanted), got in zip(CASES, offered):
        got = {w.rstrip("/") for w in got}
        if isinstance(wanted, tuple):
            must, must_not = wanted
            assert must <= got and not must_not & got, (line, got)
        else:
            assert got == wanted, (line, got)


@pytest.mark.slow  # a real shell
def test_zsh_finds_the_script_in_its_fpath_as_well(tmp_path):
    (tmp_path / "functions").mkdir()
    script = str(tmp_path / "functions" / "wonderforge.zsh")
    with open(script, "w") as file:
        file.write(completion.script("zsh", _parser()))
    lines = ["wonderforge si", "wonderforge simulate --format ", "wonderforge check "]
    offered = _zsh(script, lines, _folder(tmp_path), autoload=True)
    assert offered[:2] == [{"simulate"}, {"text", "json", "csv"}] and SHIPPED | {"my-mod"} <= offered[2]


@pytest.mark.slow  # a real shell
@pytest.mark.parametrize("shell", list(SHELLS))
def test_a_command_added_to_the_parser_is_completed_without_a_change_to_the_generator(shell, tmp_path):
    parser = _parser()
    [commands] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    later = commands.add_parser("tournament", help="a command some later version adds")
    later.add_argument("--rounds-only", action="store_true", help="only the rounds")
    later.add_argument("--log", metavar="FILE")
    lines = ["wonderforge tou", "wonderforge tournament --ro", "wonderforge tournament --log no"]
    offered = SHELLS[shell](_script(shell, tmp_path, parser), lines, _folder(tmp_path))
    assert offered == [{"tournament"}, {"--rounds-only"}, {"notes.txt"}]


@pytest.mark.slow  # a real shell
@pytest.mark.parametrize("shell, check", [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])])
def test_each_script_is_valid_for_its_shell(shell, check, tmp_path):
    out = subprocess.run([_shell(shell), *check, _script(shell, tmp_path)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and not out.stderr, out.stderr


def test_the_script_is_printed_by_the_command(capsys):
    assert main(["completion", "bash"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# bash completion for wonderforge ") and "complete -F _wonderforge wonderforge" in out


@pytest.mark.parametrize("shell, message, hint", [
    ("tcsh", "no completion script for the shell 'tcsh'", "give bash, zsh or fish"),
    ("bsh", "no completion script for the shell 'bsh'", "did you mean 'bash'?"),
    ("Zsh", "no completion script for the shell 'Zsh'", "did you mean 'zsh'?"),
])
def test_an_unknown_shell_is_one_line_and_a_hint_exit_2(shell, message, hint, capsys):
    assert main(["completion", shell]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"wonderforge completion: error: {message}\n  hint: {hint}\n"


def test_what_each_value_completes_to_comes_from_the_parser():
    commands = {c.name: c for c in completion.commands(_parser())}
    args = {a.flags or (a.name,): a for a in commands["simulate"].args}
    assert args[("--format",)].kind == ("text", "json", "csv")
    assert args[("PACK",)].kind == completion.PACK and args[("PACK",)].values == "?"
    assert args[("--out",)].kind == completion.FILE
    assert args[("--quiet", "-q")].values == ""
    assert args[("--options",)].repeats and args[("--options",)].values == "+"
    assert args[("--seed",)].kind is None  # a number: nothing to offer
    assert [a.kind for a in commands["diff"].positionals()] == [completion.PACK, completion.PACK]
    assert "--version" in {f for a in commands[""].options() for f in a.flags}
