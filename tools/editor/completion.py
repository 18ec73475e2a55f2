"""`wonderforge completion bash|zsh|fish`: a completion script for a shell, generated from the command
line's own argparse parser when asked, so that a command or an option added later is completed
without a change here.

What an argument's value completes to: its `choices` when it has some, else what its metavar names
(`METAVARS`: a pack is a shipped pack's id or a folder, a FILE a file name, a DIR a folder), else
nothing (a number, a list of bots). The shipped packs' ids are written into the script.
"""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass

from ... import version
from ...dsl.diagnostics import did_you_mean
from ...interpreter.packs.folders import shipped_packs
from ..common.arguments import fail

SHELLS = ("bash", "zsh", "fish")
PACK, FILE, FOLDER = "pack", "file", "folder"

# What a value is, by the metavar `--help` shows for it.
METAVARS: dict[str, str | tuple[str, ...]] = {
    "PACK": PACK, "PACK_B": PACK, "PATH": PACK, "A": PACK, "B": PACK,
    "FILE": FILE, "FILE.html": FILE, "LOG": FILE, "SCENARIO": FILE, "DIR": FOLDER, "SHELL": SHELLS}

INSTALL = {
    "bash": "wonderforge completion bash > ~/.local/share/bash-completion/completions/wonderforge",
    "zsh": "source <(wonderforge completion zsh)   # in ~/.zshrc, after compinit",
    "fish": "wonderforge completion fish > ~/.config/fish/completions/wonderforge.fish",
}


def add_parser(commands, root: argparse.ArgumentParser) -> None:
    """The `completion` command; `root` is the whole parser, read when the script is asked for."""
    p = commands.add_parser(
        "completion", help="print a completion script for bash, zsh or fish",
        description="Print a shell completion script for wonderforge: its commands, their options, the "
                    "choices of an option such as --format, shipped pack ids and file names. Install it with "
                    + "; ".join(f"{shell}: {line}" for shell, line in INSTALL.items()) + ".")
    p.add_argument("shell", metavar="SHELL", help="bash, zsh or fish")
    p.set_defaults(run=lambda args: main(args, root))


def main(args, root: argparse.ArgumentParser) -> int:
    """`wonderforge completion SHELL`; returns the exit status."""
    if args.shell not in SHELLS:
        return fail("completion", f"no completion script for the shell {args.shell!r}",
                    did_you_mean(args.shell, SHELLS) or "give bash, zsh or fish")
    print(script(args.shell, root), end="")
    return 0


# ---- the parser, as the shells see it

@dataclass(frozen=True)
class Arg:
    """An option or a positional argument of a command."""

    flags: tuple[str, ...]   # ("--quiet", "-q"); () for a positional
    name: str                # its metavar (or dest), for a shell's message
    help: str                # the first words of its help
    values: str              # "" a flag, "1" one value, "?" maybe one, "+" one or more, "*" any number
    kind: str | tuple[str, ...] | None  # PACK, FILE, FOLDER, words to offer, or None: nothing to offer
    repeats: bool = False    # an option that may be given again (--options a=1 --options b=2)


@dataclass(frozen=True)
class Command:
    """A command, its help and its arguments ("" names the top level, before any command)."""

    name: str
    help: str
    args: tuple[Arg, ...]

    def options(self) -> list[Arg]:
        return [a for a in self.args if a.flags]

    def positionals(self) -> list[Arg]:
        return [a for a in self.args if not a.flags]


def commands(root: argparse.ArgumentParser) -> list[Command]:
    """The top level (its options; its positional is the command) and each command, in order."""
    top = Command("", "", tuple(_arg(a) for a in root._actions if a.option_strings and a.help != argparse.SUPPRESS))
    [sub] = [a for a in root._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    return [top] + [Command(name, _short(helps.get(name, "")), tuple(_arg(a) for a in parser._actions
                                                                     if a.help != argparse.SUPPRESS))
                    for name, parser in sub.choices.items()]


def _arg(action: argparse.Action) -> Arg:
    nargs = action.nargs
    values = "" if nargs == 0 else "1" if nargs in (None, 1) else nargs if nargs in ("?", "*", "+") else "+"
    name = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    kind = tuple(str(c) for c in action.choices) if action.choices else METAVARS.get(name) if values else None
    repeats = isinstance(action, (argparse._AppendAction, argparse._ExtendAction, argparse._CountAction))
    text = _short(action.help or "") or (_either(kind) if isinstance(kind, tuple) else "")
    return Arg(tuple(sorted(action.option_strings, key=lambda s: not s.startswith("--"))), name, text,
               values, kind, repeats)


def _short(text: str) -> str:
    """A help's first clause without its asides in brackets, for a line of a shell's menu."""
    text = re.sub(r"\s*\([^()]*\)", "", " ".join(text.split()))
    text = re.split(r": |; |(?<!e\.g)(?<!i\.e)\. ", text)[0]
    return text if len(text) <= 70 else text[:69].rsplit(" ", 1)[0] + "…"


def _either(words: tuple[str, ...]) -> str:
    """`text, json or csv`."""
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def _ids() -> list[str]:
    return [p.name for p in shipped_packs()]


def _header(shell: str) -> str:
    return (f"# {shell} completion for wonderforge {version()}, written by `wonderforge completion {shell}`.\n"
            f"# Install: {INSTALL[shell]}\n")


# ---- bash

def bash(root: argparse.ArgumentParser) -> str:
    """The bash script: a table of what each word may be (`_wonderforge_spec`) and one function
    that walks the words typed so far through it."""
    cases = []
    for command in commands(root):
        cases.append(_case(command.name, "options", " ".join(f for a in command.options() for f in a.flags)))
        cases.append(_case(command.name, "positionals", " ".join(_bash_kind(a) for a in command.positionals())))
        for arg in command.options():
            spec = "flag" if not arg.values else _bash_kind(arg)
            cases += [_case(command.name, flag, spec) for flag in arg.flags]
    names = [c.name for c in commands(root)[1:]]
    return (_header("bash") + _BASH.replace("@COMMANDS@", shlex.quote(" ".join(names)))
            .replace("@PACKS@", shlex.quote(" ".join(_ids()))).replace("@CASES@", "\n".join(cases)))


def _case(command: str, what: str, spec: str) -> str:
    return f"        {shlex.quote(f'{command} {what}')}) REPLY={shlex.quote(spec)} ;;"


def _bash_kind(arg: Arg) -> str:
    """One word: pack, file, folder, none or words:A,B,C; `...` after it when it takes many values."""
    kind = arg.kind or "none"
    word = "words:" + ",".join(kind) if isinstance(kind, tuple) else kind
    return word + ("..." if arg.values in ("*", "+") else "")


_BASH = r"""
_wonderforge_commands=@COMMANDS@
_wonderforge_packs=@PACKS@

# REPLY: what WORD is for COMMAND ('' before any command): its options, its positionals (a kind per
# positional, `...` after one that repeats), or, for an option, `flag` or the kind of its value.
_wonderforge_spec() {
    REPLY=
    case "$1 $2" in
@CASES@
    esac
}

# Offer what a value of KIND (see _wonderforge_spec) may be, for the word being typed.
_wonderforge_offer() {
    local kind=${1%...} cur=$2
    case $kind in
        words:*) local words=${kind#words:}; mapfile -t COMPREPLY < <(compgen -W "${words//,/ }" -- "$cur") ;;
        pack) mapfile -t COMPREPLY < <(compgen -W "$_wonderforge_packs" -- "$cur"; compgen -d -- "$cur")
              compopt -o filenames 2>/dev/null ;;
        file) mapfile -t COMPREPLY < <(compgen -f -- "$cur"); compopt -o filenames 2>/dev/null ;;
        folder) mapfile -t COMPREPLY < <(compgen -d -- "$cur"); compopt -o filenames 2>/dev/null ;;
    esac
}

_wonderforge() {
    COMPREPLY=()
    local cur=${COMP_WORDS[COMP_CWORD]} command= option= takes= word i n=0 REPLY
    # Walk the words before the cursor: the command, the options and the values they take, the positionals.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $word == = ]]; then continue; fi                       # --format=json splits at '='
        if [[ $takes == 1 ]]; then takes=; continue; fi
        if [[ $word == -?* ]]; then
            option=${word%%=*}
            _wonderforge_spec "$command" "$option"
            if [[ $REPLY == flag || -z $REPLY || $word == *=* ]]; then takes=
            elif [[ $REPLY == *... ]]; then takes=many
            else takes=1; fi
        elif [[ $takes == many ]]; then continue                     # --options a=1 b=2
        elif [[ -z $command ]]; then command=$word
        else ((n++)); fi
    done
    if [[ $cur == = ]]; then cur=; fi
    if [[ -n $takes && ( $cur != -* || $takes == 1 ) ]]; then      # the value of an option
        _wonderforge_spec "$command" "$option"
        _wonderforge_offer "$REPLY" "$cur"
    elif [[ $cur == -* ]]; then
        _wonderforge_spec "$command" options
        mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
    elif [[ -z $command ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$_wonderforge_commands" -- "$cur")
    else
        _wonderforge_spec "$command" positionals
        local kinds=($REPLY)
        local kind=${kinds[n]}
        if [[ -z $kind && ${kinds[-1]} == *... ]]; then kind=${kinds[-1]}; fi
        _wonderforge_offer "$kind" "$cur"
    fi
}

complete -F _wonderforge wonderforge
"""


# ---- zsh

def zsh(root: argparse.ArgumentParser) -> str:
    """The zsh script: `_arguments` for the top level and for each command, with the help of each."""
    top, *rest = commands(root)
    menu = "\n".join(f"        {_quote(f'{c.name}:{c.help}')}" for c in rest)
    cases = "\n".join(f"        ({c.name}) _arguments -s \\\n{_zsh_specs(c, 12)} && ret=0 ;;" for c in rest)
    return ("#compdef wonderforge\n" + _header("zsh") + _ZSH.replace("@TOP@", _zsh_specs(top, 8))
            .replace("@MENU@", menu).replace("@CASES@", cases).replace("@PACKS@", " ".join(_ids())))


def _zsh_specs(command: Command, indent: int) -> str:
    """The `_arguments` specs of a command, one a line, each ending a continued line."""
    specs = [_zsh_option(arg, flag) for arg in command.options() for flag in arg.flags]
    for arg in command.positionals():
        action = _zsh_action(arg)
        if arg.values in ("*", "+"):
            specs += [f":{_esc(arg.name)}:{action}"] * (arg.values == "+") + [f"*:{_esc(arg.name)}:{action}"]
        else:
            specs.append(("::" if arg.values == "?" else ":") + f"{_esc(arg.name)}:{action}")
    return "".join(f"{' ' * indent}{_quote(s)} \\\n" for s in specs).rstrip(" \\\n")


def _zsh_option(arg: Arg, flag: str) -> str:
    """`--format=[the output's format]:FORMAT:(text json)`; a repeatable option starts with `*`, the
    others exclude their own other spellings (-q, --quiet); -h and --version end the line."""
    ends = flag in ("-h", "--help", "--version")
    spec = ("(- *)" if ends else "*" if arg.repeats else f"({' '.join(arg.flags)})") + flag
    if not arg.values:
        return spec + f"[{_esc(arg.help)}]"
    sep = "=" if flag.startswith("--") else "+"  # --format=json or --format json; -o1 or -o 1
    maybe = ":" if arg.values == "?" else ""     # a value that may be left out
    return spec + sep + f"[{_esc(arg.help)}]:{maybe}{_esc(arg.name)}:{_zsh_action(arg)}"


def _zsh_action(arg: Arg) -> str:
    if isinstance(arg.kind, tuple):
        return "(" + " ".join(arg.kind) + ")"
    return {PACK: "_wonderforge_packs", FILE: "_files", FOLDER: "_files -/"}.get(arg.kind, " ")


def _esc(text: str) -> str:
    """Text inside a spec, where `[`, `]` and `:` are the spec's own."""
    return "".join("\\" + c if c in "[]:\\" else c for c in text)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


_ZSH = r"""
_wonderforge_packs() {
    _alternative 'packs:shipped pack:(@PACKS@)' 'folders:pack folder:_files -/'
}

_wonderforge() {
    local curcontext=$curcontext state state_descr line ret=1
    typeset -A opt_args
    _arguments -C \
@TOP@ \
        '1: :->command' \
        '*:: :->argument' && ret=0
    case $state in
    (command)
        local -a commands=(
@MENU@
        )
        _describe -t commands 'wonderforge command' commands && ret=0 ;;
    (argument)
        curcontext=${curcontext%:*:*}:wonderforge-$words[1]:
        case $words[1] in
@CASES@
        esac ;;
    esac
    return ret
}

if [[ $funcstack[1] == _wonderforge ]]; then  # autoloaded from a folder of $fpath
    _wonderforge "$@"
else                                         # sourced
    compdef _wonderforge wonderforge
fi
"""


# ---- fish

def fish(root: argparse.ArgumentParser) -> str:
    """The fish script: a `complete` line per command, option and positional argument."""
    top, *rest = commands(root)
    before = _fq("not __fish_seen_subcommand_from " + " ".join(c.name for c in rest))  # no command yet
    lines = [f"complete -c wonderforge -n {before} -a {c.name} -d {_fq(c.help)}" for c in rest]
    lines += _fish_lines(top, before)
    for c in rest:
        lines += _fish_lines(c, _fq(f"__fish_seen_subcommand_from {c.name}"))
    return _header("fish") + _FISH.replace("@PACKS@", " ".join(_ids())) + "\n".join(lines) + "\n"


def _fish_lines(command: Command, condition: str) -> list[str]:
    head = f"complete -c wonderforge -n {condition}"
    lines = []
    for arg in command.options():
        flags = " ".join(f"-l {f[2:]}" if f.startswith("--") else f"-s {f[1:]}" if len(f) == 2 else f"-o {f[1:]}"
                         for f in arg.flags)
        lines.append(f"{head} {flags}{_fish_value(arg)} -d {_fq(arg.help)}")
    positionals = {_fish_value(a, positional=True) for a in command.positionals()} - {""}
    lines += [f"{head}{value}" for value in sorted(positionals)]
    return lines


def _fish_value(arg: Arg, positional: bool = False) -> str:
    """What follows an option (-x, no file names, -r, a value needed) or a positional argument."""
    if not arg.values:
        return ""
    need = "" if positional else " -x"
    if isinstance(arg.kind, tuple):
        return f"{need} -a {_fq(' '.join(arg.kind))}"
    if arg.kind == FILE:
        return " -F" if positional else " -r -F"
    if arg.kind == FOLDER:
        return f"{need} -a {_fq('(__fish_complete_directories (commandline -ct))')}"
    if arg.kind == PACK:
        return f"{need} -a {_fq('(__wonderforge_packs)')}"
    return need


def _fq(text: str) -> str:
    """A fish single-quoted word."""
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


_FISH = r"""
complete -c wonderforge -f   # file names only where an argument takes one

function __wonderforge_packs
    printf '%s\tshipped pack\n' @PACKS@
    __fish_complete_directories (commandline -ct) 'pack folder'
end

"""


def script(shell: str, root: argparse.ArgumentParser) -> str:
    """The completion script for `shell` (one of SHELLS) of the command line `root`."""
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](root)


__all__ = ["SHELLS", "METAVARS", "Arg", "Command", "add_parser", "bash", "commands", "fish", "main", "script", "zsh"]
