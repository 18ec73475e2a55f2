"""Hostile packs: every limit of dsl/limits.py, code a pack tries to run, files outside the
pack, and effects that would never end. Each gives one clean diagnostic naming the file (and the
line and column where there is one) with a hint, through the loader `wonderforge check` uses;
nothing hangs, nothing is evaluated, nothing outside the pack is read.

One table of (what, expected diagnostic, hostile pack): a pack is a minimal base (`pack.yaml`,
`rules.yaml`, a card) with some files replaced or added. The caret's place is given by a
marker: the first occurrence of that text in the named file (None: the whole file, 0:0).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from trust import count

from wonderforge.dsl.limits import (MAX_ALIASES, MAX_BRACKETS, MAX_DEPTH, MAX_EXTENDS_DEPTH, MAX_FILE_BYTES,
                                    MAX_NUMBER, MAX_PACKS, MAX_TEXT_CHARS)
from wonderforge.interpreter import load_game
from wonderforge.interpreter.bots.registry import play
from wonderforge.interpreter.games.check import check_pack
from wonderforge.interpreter.packs.folders import CONTENT
from wonderforge.interpreter.core.errors import DealError, EndlessGame
from wonderforge.tools.cli.commands import main

PACK = "# yaml-language-server: $schema=../../schemas/pack.schema.json\nid: {id}\nname: Hostile\nversion: 1.0.0\n"
RULES = """\
# yaml-language-server: $schema=../../schemas/rules.schema.json
vocabulary:
  resources: {raw: [wood, stone]}
  colours: [blue, red]
  counters: [coins, vp]
  zones: {shared: [central_deck, discard], player: [city, deck]}
players: {min: 2, max: 5}
"""
HEAD = "# yaml-language-server: $schema=../../schemas/cards.schema.json\n"
CARD = "- id: altar\n  name: Altar\n  colour: blue\n  effect: {effect}\n"


def cards(*effects: str, colours: tuple[str, ...] = ("blue",), cost: str | None = None) -> str:
    """A cards.yaml of one card per effect (`card0`, `card1`...), of these colours in turn."""
    out = HEAD
    for i, effect in enumerate(effects):
        colour = colours[i % len(colours)]
        out += f"- id: card{i}\n  name: Card {i}\n  colour: {colour}\n  effect: {json.dumps(effect)}\n"
        out += f"  cost: {cost}\n" if cost else ""
    return out


def nested_aliases(levels: int) -> str:
    """The billion laughs: each level an anchor of ten aliases of the one before."""
    lines = [HEAD + "- id: altar\n  name: Altar\n  colour: blue\n  lol0: &l0 lol"]
    for i in range(1, levels + 1):
        lines.append(f"  lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def python_tag(tmp_path: Path) -> str:
    """A tag that, if any loader ran it, would write a file where the test looks."""
    target = tmp_path / "evaluated"
    return HEAD + f"- id: !!python/object/apply:builtins.open [{json.dumps(str(target))}, w]\n  name: Altar\n  colour: blue\n"


# ---- how each hostile pack is made -------------------------------------------------------


def base(tmp_path: Path, name: str = "hostile", **files: str) -> Path:
    """A pack folder `name` holding pack.yaml, rules.yaml and a card, with `files` replacing or
    adding files (a value None removes one)."""
    folder = tmp_path / name
    folder.mkdir(parents=True, exist_ok=True)
    texts = {"pack.yaml": PACK.format(id=name), "rules.yaml": RULES, "cards.yaml": HEAD + CARD.format(effect="vp 2"), **files}
    for file, text in texts.items():
        if text is not None:
            (folder / file).write_text(text, encoding="utf-8")
    return folder


def chain(tmp_path: Path, length: int) -> Path:
    """Packs p0 extends p1 extends ... p{length-1}."""
    for i in range(length):
        extends = f"extends: p{i + 1}\n" if i + 1 < length else ""
        base(tmp_path, f"p{i}", **{"pack.yaml": PACK.format(id=f"p{i}") + extends})
    return tmp_path / "p0"


def wide(tmp_path: Path) -> Path:
    """A pack extending 8 packs that extend 4 more each: 41 packs in all."""
    tops = [f"t{i}" for i in range(8)]
    base(tmp_path, "root", **{"pack.yaml": PACK.format(id="root") + f"extends: [{', '.join(tops)}]\n"})
    for top in tops:
        leaves = [f"{top}l{j}" for j in range(4)]
        base(tmp_path, top, **{"pack.yaml": PACK.format(id=top) + f"extends: [{', '.join(leaves)}]\n"})
        for leaf in leaves:
            base(tmp_path, leaf)
    return tmp_path / "root"


def linked(target, name: str = "cards.yaml"):
    """A pack whose file `name` is a link to `target` (a function of tmp_path, or a text)."""
    def build(tmp_path: Path) -> Path:
        folder = base(tmp_path, **{name: None})
        (folder / name).symlink_to(target(tmp_path) if callable(target) else target)
        return folder
    return build


def outside_file(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.yaml"
    secret.write_text(HEAD + CARD.format(effect="vp 2"), encoding="utf-8")
    return secret


def fifo(tmp_path: Path) -> Path:
    folder = base(tmp_path, **{"cards.yaml": None})
    os.mkfifo(folder / "cards.yaml")  # reading it would wait for a writer forever
    return folder


def folder_named_cards(tmp_path: Path) -> Path:
    folder = base(tmp_path, **{"cards.yaml": None})
    (folder / "cards.yaml").mkdir()
    return folder


def with_files(**files: str):
    return lambda tmp_path: base(tmp_path, **files)


def id_cycle(tmp_path: Path) -> Path:
    base(tmp_path, "a", **{"pack.yaml": PACK.format(id="a") + "extends: b\n"})
    base(tmp_path, "b", **{"pack.yaml": PACK.format(id="b") + "extends: a\n"})
    return tmp_path / "a"


def folder_cycle(tmp_path: Path) -> Path:
    """Folder `x` says it is pack `y` and extends `x`: itself, by its folder's name."""
    return base(tmp_path, "x", **{"pack.yaml": PACK.format(id="y") + "extends: x\n"})


BIG_NUMBER = "1" + "0" * 1000
LONG_TEXT = "coins 1 then " * (MAX_TEXT_CHARS // 13) + "coins 1"
DEEP_FLOW = "[" * (MAX_DEPTH + 1) + "x" + "]" * (MAX_DEPTH + 1)

# (what, code, message contains, file, caret marker or None, hostile pack)
HOSTILE = [
    ("a file over the size limit", "E-LIMIT-SIZE", f"{MAX_FILE_BYTES:,} allowed", "cards.yaml", None,
     with_files(**{"cards.yaml": HEAD + "#" * MAX_FILE_BYTES + "\n"})),
    ("a billion laughs", "E-LIMIT-ALIAS", "expands to more than", "cards.yaml", "*l5",
     with_files(**{"cards.yaml": nested_aliases(9)})),
    ("too many aliases", "E-LIMIT-ALIAS", f"more than {MAX_ALIASES}", "cards.yaml", "*a]",
     with_files(**{"cards.yaml": HEAD + "- id: altar\n  name: &a Altar\n  colour: blue\n  x: [" +
                   ", ".join(["*a"] * (MAX_ALIASES + 1)) + "]\n"})),
    ("an alias inside what it names", "E-LIMIT-ALIAS", "refers to a value that holds it", "cards.yaml", "*me",
     with_files(**{"cards.yaml": HEAD + "- &me\n  id: altar\n  self: *me\n"})),
    ("nesting past the limit", "E-LIMIT-DEPTH", f"deeper than {MAX_DEPTH}", "cards.yaml", ("[", MAX_DEPTH),
     with_files(**{"cards.yaml": HEAD + DEEP_FLOW + "\n"})),
    ("a YAML number of a thousand digits", "E-LIMIT-NUMBER", "1,001 characters", "cards.yaml", BIG_NUMBER,
     with_files(**{"cards.yaml": HEAD + f"- id: altar\n  name: Altar\n  colour: blue\n  copies: {{1: {BIG_NUMBER}}}\n"})),
    ("a sentence number of a thousand digits", "E-LIMIT-NUMBER", "of 1,001 digits", "cards.yaml", BIG_NUMBER,
     with_files(**{"cards.yaml": cards(f"vp {BIG_NUMBER}")})),
    ("a sentence number past the limit", "E-LIMIT-NUMBER", f"number {MAX_NUMBER + 1} is out of range", "cards.yaml",
     str(MAX_NUMBER + 1), with_files(**{"cards.yaml": cards(f"coins {MAX_NUMBER + 1}")})),
    ("a negative sentence number past the limit", "E-LIMIT-NUMBER", "out of range", "cards.yaml", "-5000",
     with_files(**{"cards.yaml": cards("produce -5000 wood")})),
    ("a field past the size limit", "E-LIMIT-SIZE", f"{MAX_TEXT_CHARS:,} allowed", "cards.yaml", "coins 1 then",
     with_files(**{"cards.yaml": cards(LONG_TEXT)})),
    ("brackets past the limit", "E-DSL-PARSE", f"deeper than {MAX_BRACKETS}", "cards.yaml", "((",
     with_files(**{"cards.yaml": cards("vp 1 if " + "(" * (MAX_BRACKETS + 1) + "1 blue card" + ")" * (MAX_BRACKETS + 1))})),
    ("a python tag that would call a function", "E-YAML-VALUE", "not allowed", "cards.yaml", "!!python",
     lambda tmp_path: base(tmp_path, **{"cards.yaml": python_tag(tmp_path)})),
    ("a python name tag", "E-YAML-VALUE", "'!!python/name:os.system' is not allowed", "cards.yaml", "!!python",
     with_files(**{"cards.yaml": HEAD + "- id: altar\n  name: !!python/name:os.system ''\n"})),
    ("packs extending each other", "E-PACK-CYCLE", "a -> b -> a", "b/pack.yaml", "a\n", id_cycle),
    ("a folder extending itself by its name", "E-PACK-CYCLE", "cycle", "x/pack.yaml", "x\n", folder_cycle),
    ("extends deeper than the limit", "E-LIMIT-EXTENDS", f"deeper than {MAX_EXTENDS_DEPTH}",
     f"p{MAX_EXTENDS_DEPTH}/pack.yaml", f"p{MAX_EXTENDS_DEPTH + 1}", lambda tmp_path: chain(tmp_path, MAX_EXTENDS_DEPTH + 3)),
    ("more packs than the limit", "E-LIMIT-PACKS", f"more than {MAX_PACKS} packs", "t6/pack.yaml", "t6l0", wide),
    ("extends a relative path", "E-SCHEMA", "extends", "pack.yaml", "../../content",
     with_files(**{"pack.yaml": PACK.format(id="hostile") + "extends: ../../content/architects\n"})),
    ("extends an absolute path", "E-SCHEMA", "extends", "pack.yaml", "/etc",
     with_files(**{"pack.yaml": PACK.format(id="hostile") + "extends: [/etc]\n"})),
    ("a file linking outside the pack", "E-PACK-PATH", "outside the pack", "cards.yaml", None, linked(outside_file)),
    ("a file linking to an absolute system path", "E-PACK-PATH", "outside the pack", "cards.yaml", None,
     linked("/etc/hostname")),
    ("a file linking out with ../", "E-PACK-PATH", "outside the pack", "cards.yaml", None,
     linked("../../../../../../../../etc/passwd")),
    ("pack.yaml linking outside the pack", "E-PACK-PATH", "outside the pack", "pack.yaml", None,
     linked(lambda tmp_path: CONTENT / "architects" / "pack.yaml", "pack.yaml")),
    ("a loop of links", "E-PACK-PATH", "loop of links", "cards.yaml", None, linked("cards.yaml")),
    ("a named pipe", "E-PACK-FILE", "not a plain file", "cards.yaml", None, fifo),
    ("a folder where a file belongs", "E-PACK-FILE", "not a plain file", "cards.yaml", None, folder_named_cards),
    ("an effect taking cards that set it off again", "E-DSL-LOOP", "sets itself off again", "cards.yaml", "on take",
     with_files(**{"cards.yaml": cards("on take card: take top card of central_deck")})),
    ("an effect giving cards that set it off again", "E-DSL-LOOP", "card0", "cards.yaml", "on take",
     with_files(**{"cards.yaml": cards("on take blue card: give top card of central_deck to left")})),
    ("two effects feeding each other", "E-DSL-LOOP", "card0 -> card1 -> card0", "cards.yaml", "on take red",
     with_files(**{"cards.yaml": cards("on take red card: take blue card from discard",
                                       "on take blue card: take red card from discard", colours=("red", "blue"))})),
    ("a card whose build builds another like it, for free", "E-DSL-LOOP", "sets itself off again", "cards.yaml",
     "on build", with_files(**{"cards.yaml": cards("on build: build blue card from discard free")})),
    ("a cost nothing produces", "E-DSL-COST", "nothing in the pack produces 'stone'", "cards.yaml", "2 stone",
     with_files(**{"cards.yaml": cards("produce wood", cost="2 stone + wood")})),
    ("more different resources than there are", "E-DSL-COST", "3 different resources, but the pack has 2",
     "cards.yaml", "3 different", with_files(**{"cards.yaml": cards("produce wood / stone", cost="3 different")})),
    ("a deck of a billion cards", "E-SCHEMA", "greater than the maximum of 1000", "rules.yaml", "1000000000",
     with_files(**{"rules.yaml": RULES + "decks:\n  central_deck: {altar: 1000000000}\n"})),
]


# ---- rules a game cannot be played with (found by playing fuzzed packs, tests/test_fuzz.py) -----

WONDERS_HEAD = "# yaml-language-server: $schema=../../schemas/wonders.schema.json\n"
MEDALS_HEAD = "# yaml-language-server: $schema=../../schemas/medals.schema.json\n"
PROGRESS_HEAD = "# yaml-language-server: $schema=../../schemas/progress.schema.json\n"
DRAFT = ("flow: {kind: draft, rounds: [{deck: 1, pass: left}, {deck: 2, pass: right}], hand_size: 3, turns_per_round: 3,\n"
         "       hand_zone: deck, build_zone: city, discard_zone: discard}\n")
ROLLS = "flow: {kind: rolls, build_zone: city, currency: coins, slots: [0, 1], end: {bonuses: 1}}\nbonuses: [coins 1]\n"


def rules(*extra: str, **replaced: str) -> str:
    """The base rules.yaml with lines added, and some text replaced (`old=new` as keyword pairs)."""
    text = RULES
    for old, new in replaced.values():
        text = text.replace(old, new)
    return text + "".join(extra)


def wonder(wid: str, sides: str = "a") -> str:
    """A wonder of one stage on each of these sides (none: its stages without sides)."""
    stage = "[{cost: free, effect: vp 1}]"
    body = f"  stages: {stage}\n" if not sides else "  sides:\n" + "".join(f"    {s}: {{stages: {stage}}}\n" for s in sides)
    return f"- id: {wid}\n  name: {wid.title()}\n" + body


def medal(mid: str, objective: str | None = "1 blue card") -> str:
    """A medal (a progress token without its objective) worth a point."""
    return f"- id: {mid}\n  name: {mid.title()}\n" + (f"  objective: {objective}\n" if objective else "") + "  effect: vp 1\n"


UNPLAYABLE = [
    ("fewer players at most than at least", "E-RULES", "players.min is 6, above players.max 5", "rules.yaml", "6",
     with_files(**{"rules.yaml": rules(players=("{min: 2, max: 5}", "{min: 6, max: 5}"))})),
    ("a rolls flow without its slots", "E-SCHEMA", "flow lacks the required key 'slots'", "rules.yaml", "{kind: rolls",
     with_files(**{"rules.yaml": rules(ROLLS.replace("slots: [0, 1], ", ""))})),
    ("a rolls flow that never ends", "E-SCHEMA", "flow lacks the required key 'end'", "rules.yaml", "{kind: rolls",
     with_files(**{"rules.yaml": rules(ROLLS.replace(", end: {bonuses: 1}", ""))})),
    ("a rolls game ending on more bonuses than there are", "E-RULES", "taken 3 bonuses, but rules.yaml lists 1",
     "rules.yaml", "3}", with_files(**{"rules.yaml": rules(ROLLS.replace("bonuses: 1", "bonuses: 3"))})),
    ("no slot in the Forum", "E-SCHEMA", "flow.slots lists 0, but needs at least 1", "rules.yaml", "[]",
     with_files(**{"rules.yaml": rules(ROLLS.replace("[0, 1]", "[]"))})),
    ("a draft of more turns than cards in hand", "E-RULES", "flow.turns_per_round is 5, but a hand holds 3 cards", "rules.yaml",
     "5,", with_files(**{"rules.yaml": rules(DRAFT.replace("turns_per_round: 3", "turns_per_round: 5"))})),
    ("a draft dealing one deck twice", "E-RULES", "round 2 deals deck 1 again, as round 1 does", "rules.yaml",
     "1, pass: right", with_files(**{"rules.yaml": rules(DRAFT.replace("deck: 2", "deck: 1"))})),
    ("battles without victory values", "E-SCHEMA", "military.victory.values lists 0, but needs at least 1", "rules.yaml",
     "[]", with_files(**{"rules.yaml": rules("military: {counter: coins, victory: {token: v, values: []}}\n")})),
    ("battles without a counter", "E-SCHEMA", "military lacks the required key 'counter'", "rules.yaml", "{victory",
     with_files(**{"rules.yaml": rules("military: {victory: {token: v, values: [1]}}\n")})),
    ("buying from a seat that is not a neighbour", "E-SCHEMA", "'west' is not allowed in trade.sellers[0]", "rules.yaml",
     "west", with_files(**{"rules.yaml": rules("trade: {currency: coins, price: 2, sellers: [west]}\n")})),
    ("fewer random cards kept than players", "E-SCHEMA", "keep_players_plus: -2 is less than the minimum of 0",
     "rules.yaml", "-2", with_files(**{"rules.yaml": rules("setup: {random_cards: {deck: 1, colour: red, keep_players_plus: -2}}\n")})),
    ("a thousand tokens to flip", "E-SCHEMA", "1000 is greater than the maximum of 100", "rules.yaml", "1000",
     with_files(**{"rules.yaml": rules("setup: {tokens: {conflict: {2: 1000}}}\n")})),
    ("a set of no symbols", "E-SCHEMA", "science.sets.identical: 0 is less than the minimum of 1", "rules.yaml", "0}",
     with_files(**{"rules.yaml": rules("science: {sets: {identical: 0}}\n")})),
    ("a misspelt setup key", "E-SCHEMA", "unknown key 'decs' in setup", "rules.yaml", "decs",
     with_files(**{"rules.yaml": rules("setup: {decs: [central_deck]}\n")})),
    ("a wonder without a side every wonder has", "E-REF-SIDE", "giza: no side 'b'", "wonders.yaml", "sides",
     with_files(**{"rules.yaml": rules("setup: {sides: [a, b]}\n"), "wonders.yaml": WONDERS_HEAD + wonder("giza")})),
    ("a wonder with sides nobody deals", "E-REF-SIDE", "giza has sides, but rules.yaml lists no setup.sides",
     "wonders.yaml", "sides", with_files(**{"wonders.yaml": WONDERS_HEAD + wonder("giza", "ab")})),
    ("objectives of a kind that is no component", "E-RULES", "objectives lays 'medal', which is no kind of component",
     "rules.yaml", "medal,", with_files(**{"rules.yaml": rules("objectives: {kind: medal, option: medals, between_neighbours: 1}\n")})),
    ("objectives that have no condition", "E-RULES", "p0 has no objective, but rules.yaml lays the progress out",
     "progress.yaml", "p0", with_files(**{"rules.yaml": rules("objectives: {kind: progress, option: medals, between_neighbours: 1}\n"),
                                          "progress.yaml": PROGRESS_HEAD + "".join(medal(f"p{i}", None) for i in range(6))})),
    ("more objectives laid than there are", "E-RULES", "objectives lays 7 medals at 5 players", "rules.yaml", "objectives",
     with_files(**{"rules.yaml": rules("objectives: {kind: medals, option: medals, between_neighbours: 1, central: {option: x, count: 2}}\n"),
                   "medals.yaml": MEDALS_HEAD + "".join(medal(f"m{i}") for i in range(6))})),
]
HOSTILE += UNPLAYABLE


def _place(file: Path, marker: str | tuple[str, int] | None) -> tuple[int, int]:
    """The 1-based line and column of the marker's first occurrence, or of the character so
    many after it for (marker, shift); (0, 0) for the whole file."""
    if marker is None:
        return 0, 0
    marker, shift = marker if isinstance(marker, tuple) else (marker, 0)
    text = file.read_text(encoding="utf-8")
    offset = text.index(marker) + shift
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _same_file(a: Path, b: Path) -> bool:
    """The same file, following the folders' links but not the file's (it may be a loop)."""
    return a.parent.resolve() / a.name == b.parent.resolve() / b.name


@pytest.mark.parametrize("what, code, message, file, marker, build", HOSTILE, ids=[row[0] for row in HOSTILE])
def test_hostile_pack(what, code, message, file, marker, build, tmp_path, capsys):
    folder = build(tmp_path)
    wanted = (folder.parent / file) if "/" in file else folder / file
    line, column = _place(wanted, marker) if marker else (0, 0)
    pack, diagnostics = check_pack(folder)
    found = [d for d in diagnostics if d.code == code and _same_file(Path(d.file), wanted)]
    listing = "\n".join(d.render() for d in diagnostics)
    assert found, f"no {code} in {file}:\n{listing}"
    d = found[0]
    assert (d.line, d.column) == (line, column), listing
    assert message in d.message, listing
    assert d.hint, f"no hint:\n{d.render()}"
    assert d.severity == "error"
    assert main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err and "E-INTERNAL" not in out.out
    assert not (tmp_path / "evaluated").exists(), "a tag was evaluated"
    count("hostile packs")


# ---- effects that slip past the checks: the engine's bounds ---------------------------------


def looping_architects(tmp_path: Path, effect: str, central: int = 0) -> Path:
    """A copy of Architects whose blue 3-point card has `effect` (and, when `central` is given,
    a central deck of that many of them)."""
    folder = tmp_path / "loop"
    for path in (CONTENT / "architects").glob("*.yaml"):
        (folder / path.name).parent.mkdir(exist_ok=True)
        (folder / path.name).write_text(path.read_text(encoding="utf-8").replace("id: architects", "id: loop"), encoding="utf-8")
    cards_file = folder / "cards.yaml"
    text = cards_file.read_text(encoding="utf-8")
    cards_file.write_text(text.replace("  colour: blue\n  effect: vp 3\n", f"  colour: blue\n  effect: |\n    vp 3\n    {effect}\n"),
                          encoding="utf-8")
    if central:
        rules = folder / "rules.yaml"
        text = rules.read_text(encoding="utf-8")
        rules.write_text(text.replace("                 blue_vp3: 4,", f"                 blue_vp3: {central},"), encoding="utf-8")
    return folder


def unchecked_game(folder: Path, players: int = 2, seed: int = 0):
    """A game of a pack whose check found only the loop: the engine must stop it by itself."""
    pack, diagnostics = check_pack(folder)
    assert {d.code for d in diagnostics if d.severity == "error"} == {"E-DSL-LOOP"}, [d.render() for d in diagnostics]
    return load_game(pack, players=players, seed=seed)


def test_effects_that_set_each_other_off_deeper_than_python_stop_with_a_clear_error(tmp_path):
    """`give ... to self` face up runs the receiver's `on take` at once: with a deck of a thousand
    such cards the chain outgrows Python's stack, and the engine says so, naming pack and card."""
    game = unchecked_game(looping_architects(tmp_path, "on take card: give top card of central_deck to self", 1000))
    with pytest.raises(EndlessGame, match=r"in a game of loop \(seed \d+\), effects set each other off without end.*blue_vp3"):
        play(game, ["random", "random"])
    count("hostile packs")


def test_a_game_past_the_step_bound_names_the_pack_and_the_piece(tmp_path):
    """Taking a card asks to take another: each take is an action, and the step bound stops it."""
    game = unchecked_game(looping_architects(tmp_path, "on take blue card: take top card of central_deck", 1000))
    game.max_actions = 60
    with pytest.raises(EndlessGame, match=r"a game of loop passed 60 actions.*seed.*effects now come from: blue_vp3"):
        play(game, ["random", "random"])
    count("hostile packs")


def test_turn_end_effects_cannot_feed_each_other(tmp_path):
    """Two `at turn end` free builds, unlimited: each runs once per turn end (an effect's build
    does not end a turn), so the game still ends."""
    folder = tmp_path / "ends"
    for path in (CONTENT / "7-wonders").glob("*.yaml"):
        folder.mkdir(exist_ok=True)
        (folder / path.name).write_text(path.read_text(encoding="utf-8").replace("id: 7-wonders", "id: ends"), encoding="utf-8")
    cards_file = folder / "cards.yaml"
    text = cards_file.read_text(encoding="utf-8")
    for card in ("altar", "theater"):
        text = text.replace(f"- id: {card}\n", f"- id: {card}\n  # hostile\n", 1)
    text = text.replace("  # hostile\n", "").replace("  effect: vp 2\n", "  effect: |\n    vp 2\n    at turn end: build card from discard free\n")
    cards_file.write_text(text, encoding="utf-8")
    pack, diagnostics = check_pack(folder)
    assert not [d for d in diagnostics if d.severity == "error"], [d.render() for d in diagnostics]
    for seed in range(3):
        state = play(load_game(pack, players=3, seed=seed), ["greedy", "random", "random"])
        assert state.is_terminal()
    count("hostile packs")


# ---- packs that cannot be dealt for every player count -----------------------------------------
#
# What only the player count decides (enough wonders or boards for everyone, a round's deck for
# every hand) is found by `check`, which deals every count (E-DEAL, see test_dealing.py), and said
# by the engine when a game is set up: a DealError naming the pack and the count, a problem of the
# pack (exit status 1); the counts that can be dealt still play.

def short_of(base_id: str, remove: str):
    """A pack extending `base_id` with some of its components removed."""
    def build(tmp_path: Path) -> Path:
        return base(tmp_path, "short", **{"pack.yaml": PACK.format(id="short") + f"extends: {base_id}\nremove: {remove}\n",
                                          "rules.yaml": None, "cards.yaml": None})
    return build


# (what, pack, players it cannot be dealt for, message, players it can)
CANNOT_DEAL = [
    ("a wonder short of the players", short_of("7-wonders", "{wonders: [giza]}"), 7,
     "short cannot be played by 7 players: each is dealt a wonder, and it has 6", 6),
    ("a card short of the hands", short_of("7-wonders", "{cards: [tree_farm]}"), 6,
     "short cannot be played by 6 players: round 1 deals 7 cards of deck 1 to each (42 in all), "
     "and that deck has 41 for 6 players", 5),
    ("too few cards to draw at random", short_of("7-wonders", "{cards: [builders_guild, craftsmens_guild, spies_guild, "
                                                 "traders_guild]}"), 7,
     "short cannot be played by 7 players: rules.yaml `setup.random_cards` keeps players + 2 of them, 9 purple "
     "cards of deck 3, and that deck has 6 for 7 players", 4),
    ("a wonder short of the players, one at a time", short_of("architects", "{wonders: [giza, rhodes]}"), 6,
     "short cannot be played by 6 players: each is dealt a wonder, and it has 5", 5),
    ("a board short of the players", short_of("dice", "{boards: [giza]}"), 7,
     "short cannot be played by 7 players: each is dealt a board, and it has 6", 6),
]


@pytest.mark.parametrize("what, build, players, message, fewer", CANNOT_DEAL, ids=[row[0] for row in CANNOT_DEAL])
def test_a_pack_that_cannot_be_dealt_for_a_player_count(what, build, players, message, fewer, tmp_path, capsys):
    pack, diagnostics = check_pack(build(tmp_path))
    assert [(d.code, Path(d.file).name) for d in diagnostics if d.severity == "error"] == [("E-DEAL", "pack.yaml")]
    with pytest.raises(DealError) as raised:
        load_game(pack, players=players)
    assert str(raised.value) == message
    assert main(["simulate", str(tmp_path / "short"), "--players", str(players), "--games", "1", "--quiet"]) == 1
    out = capsys.readouterr()
    assert message in out.err and "Traceback" not in out.out + out.err
    assert play(load_game(pack, players=fewer), ["random"] * fewer).is_terminal()
    count("hostile packs")
