"""The `wonderforge` command line.

Exit status: 0 clean, 1 errors in what was checked, 2 a bad command line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from ..dsl.diagnostics import Diagnostic
from ..interpreter.packs import COMPONENT_KINDS, Pack, check_pack, shipped_packs


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="wonderforge", description="A rules-as-data engine for the 7 Wonders family.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser("check", help="validate packs and report every error",
                                description="Validate packs (folders holding pack.yaml, or shipped pack ids). "
                                            "With no PATH, checks every shipped pack and summarises each.")
    check.add_argument("paths", nargs="*", metavar="PATH")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.set_defaults(run=_check)
    return parser


def _check(args) -> int:
    targets = args.paths or [str(p) for p in shipped_packs()]
    reports = []
    for target in targets:
        try:
            pack, diagnostics = check_pack(target)
        except Exception as err:  # a bug of ours must still not show the user a traceback
            pack, diagnostics = None, [Diagnostic("E-INTERNAL", f"internal error while checking: {err!r}", target,
                                                  hint="this is a WonderForge bug: please report it with this pack")]
        reports.append((target, pack, diagnostics))
    diagnostics = [d for _, _, ds in reports for d in ds]
    errors = sum(d.severity == "error" for d in diagnostics)
    if args.format == "json":
        out = {"diagnostics": [d.as_dict() for d in diagnostics], "errors": errors,
               "warnings": len(diagnostics) - errors,
               "packs": [_summary(pack) | {"path": target, "ok": not any(d.severity == "error" for d in ds)}
                         for target, pack, ds in reports if pack is not None]}
        print(json.dumps(out, indent=2))
    else:
        for d in diagnostics:
            print(d.render(), end="\n\n")
        for target, pack, ds in reports:
            if pack is not None:
                print(_summary_line(pack, ds))
        print(_totals(errors, len(diagnostics) - errors))
    return 1 if errors else 0


def _summary(pack: Pack) -> dict:
    counts = {kind: len(pack.components[kind]) for kind in COMPONENT_KINDS if pack.components[kind]}
    effects = sum(len(c.compiled) for kind in COMPONENT_KINDS for c in pack.components[kind].values())
    players = pack.rules.get("players") or {}
    return {"id": pack.id, "name": pack.name, "version": pack.version,
            "extends": [b.id for b in pack.bases], "components": counts, "compiled_fields": effects,
            "players": [players.get("min"), players.get("max")] if isinstance(players, dict) else None}


def _summary_line(pack: Pack, diagnostics: list[Diagnostic]) -> str:
    s = _summary(pack)
    errors = sum(d.severity == "error" for d in diagnostics)
    status = "ok" if not errors else f"{errors} error{'s' * (errors != 1)}"
    parts = ", ".join(f"{n} {kind}" for kind, n in s["components"].items())
    base = f" (extends {', '.join(s['extends'])})" if s["extends"] else ""
    players = f", {s['players'][0]}-{s['players'][1]} players" if s["players"] and None not in s["players"] else ""
    return f"{s['id']} {s['version']}{base}: {parts}{players}, {s['compiled_fields']} effect texts compiled — {status}"


def _totals(errors: int, warnings: int) -> str:
    if not errors and not warnings:
        return "no problems found"
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


if __name__ == "__main__":
    sys.exit(main())
