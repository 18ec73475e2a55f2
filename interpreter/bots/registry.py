"""Players the computer plays, chosen per seat by name, and a loop that plays a game with them.

A bot sees what its seat may know, a `View` (view.py), never the state: `bot(view, rng) -> Action`.
Each bot in `BOTS` declares whether it needs the view's detail (an observation and a
determinization); a bot that needs none gets a view that costs nothing to make.

A name is a built-in bot (`random`, `greedy`, `expert`, `ismcts`), a built-in bot with a parameter (a
family of `FAMILIES`: `ismcts:200`, `ismcts:0.5s`), the id of a bot of the game's pack (its
`bots.yaml`, docs/bots.md), or a bot file: `FILE.yaml` (its first bot) or `FILE.yaml:ID`. These
names are the one way to ask for a bot: a worker process given a name builds the bot itself.
"""

from __future__ import annotations

import random
import re
import tempfile
import weakref
from pathlib import Path
from typing import Callable, Iterable, Sequence

import attrs

# `Game` below names games/game.py's class, a layer above this one (games/ imports bots/): not imported

from ..core.actions import Action
from ..core.state import State
from .botfile import BotSpec, pack_bots, read_bots
from .evaluation import evaluation_for
from .expert import Expert
from .ismcts import DEFAULT_SETTING, SETTINGS, Budget, Ismcts, estimates
from .rulebot import RuleBot
from .view import View

Choose = Callable[[View, random.Random], Action]


@attrs.frozen
class Bot:
    """A bot as the registry knows it: how it chooses, and whether its view needs detail."""

    choose: Choose
    detail: bool
    # a bot that needs nothing but its legal actions, given them alone: no view is made (a long
    # run of random play makes millions of decisions)
    blind: Callable[[list[Action], random.Random], Action] | None = None
    # what it reads from the game's pack files, read when the bot is named in a game (a worker
    # loads a shipped pack from a folder that is gone once loaded)
    prepare: Callable[[Game], object] | None = None  # noqa: F821

    def view(self, state: State, seat: int, actions: list[Action], rng: random.Random | None = None) -> View:
        """What this bot is shown of `state` at `seat`'s decision (its positions drawn from `rng`)."""
        return View(state, seat, actions, self.detail, rng)

    def act(self, state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
        """Its choice among `actions`, made from the view alone (from the actions alone, if blind)."""
        if self.blind is not None:
            return self.blind(actions, rng)
        return self.choose(View(state, seat, actions, self.detail, rng), rng)


def any_action(actions: list[Action], rng: random.Random) -> Action:
    """Any of the actions, uniformly."""
    return rng.choice(actions)  # the draw `randrange(len(actions))` makes, faster


def random_bot(view: View, rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return any_action(view.actions, rng)


def greedy_bot(view: View, rng: random.Random) -> Action:
    """The action after which its own score, counted as if the game ended there, is highest; ties
    go to the one keeping more coins, then to chance. What an action brings unseen (a card taken
    face down) is valued on average over a few determinizations of the view (`View.previews`)."""
    seat, best, best_value = view.seat, [], None
    for action in view.actions:
        after = view.previews(action)
        currency = after[0].game.currency
        value = (sum(a.game.scoring.score(a, seat)["total"] for a in after) / len(after),
                 sum(a.counter(seat, currency) for a in after) / len(after) if currency else 0)
        if best_value is None or value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return best[rng.randrange(len(best))]


IDLE = frozenset({"discard", "pass"})  # the engine's actions that forgo a turn's gain


def busy_bot(view: View, rng: random.Random) -> Action:
    """Any legal action that is not idle, uniformly (an idle one only when nothing else is legal):
    random play as players play, who seldom give up a turn."""
    busy = [a for a in view.actions if a.verb not in IDLE]
    return any_action(busy or view.actions, rng)


def thrifty_bot(view: View, rng: random.Random) -> Action:
    """`busy_bot` that pays least: each busy move (the same verb, card, choice and cards spent)
    once, at its cheapest payment (a free build first), uniformly. Random play over every payment
    plays a card the more often the more ways it can be paid, and pays neighbours for nothing."""
    cheapest: dict[tuple, Action] = {}
    for action in view.actions:
        if action.verb in IDLE:
            continue
        key = (action.verb, action.card, action.choice, action.spend)
        held = cheapest.get(key)
        if held is None or (not action.free, sum(action.pay)) < (not held.free, sum(held.pay)):
            cheapest[key] = action
    return any_action(list(cheapest.values()) or view.actions, rng)


def thrifty_policy(game: Game) -> Choose:  # noqa: F821
    """What the search bot's playouts play in its `cut` setting: `thrifty_bot` (half the moves
    follow MAST there, ismcts.py)."""
    return thrifty_bot


def playout_policy(game: Game) -> Choose:  # noqa: F821
    """What a search bot's playouts play in this game: `busy_bot`, as cheap as random play and a
    far better guess of a game's end (measured: see docs/bots.md); the `classic` setting's."""
    return busy_bot


def ismcts_bot(parameter: str | None = None) -> Bot:
    """The search bot (ismcts.py): its default setting, with a budget written `200` (playouts) or
    `0.5s`, or a named setting at its own budget (`classic`, `cut`); ValueError if bad."""
    named = parameter in SETTINGS
    options = dict(SETTINGS[parameter if named else DEFAULT_SETTING])
    playouts = options.pop("playouts")
    budget = Budget(playouts) if named or parameter is None else Budget.parse(parameter)
    if not options.pop("learned", False):
        return Bot(Ismcts(budget, playout_policy, **options), detail=True)
    return Bot(Ismcts(budget, thrifty_policy, horizon=cut_horizon, value_for=cut_value, **options), detail=True,
               prepare=evaluation_for)


def cut_value(game: Game):  # noqa: F821
    """How a search bot values a playout it cut short in this game: by the pack's learned
    evaluation (the expert bot's, evaluation.py)."""
    return estimates(evaluation_for(game))


# A cut playout looks a sixth of a game ahead: 3, 5 and 6 decisions in 7 Wonders, Architects and
# Dice, whose seats make 18, 30 and 39 decisions a game; 3 lost head to head in the longer games
# (docs/bots.md).
HORIZON_SHARE = 1 / 6
UNTRAINED_HORIZON = 3  # a pack whose evaluation does not know its games' length


def cut_horizon(game: Game) -> int:  # noqa: F821
    """How many of its own decisions a search bot plays out before it cuts a playout in this game:
    a sixth of a seat's decisions in a game, by the length training measured."""
    steps = evaluation_for(game).steps
    return max(1, int(steps * HORIZON_SHARE)) if steps else UNTRAINED_HORIZON


# Bots with a parameter, named `family:parameter`; a bare `family` is its default (BOTS lists it with the others).
FAMILIES: dict[str, Callable[[str | None], Bot]] = {"ismcts": ismcts_bot}

BOTS: dict[str, Bot] = {"random": Bot(random_bot, detail=False, blind=any_action), "greedy": Bot(greedy_bot, detail=True),
                        "expert": Bot(Expert(evaluation_for), detail=True, prepare=evaluation_for), "ismcts": ismcts_bot()}

_FILE = re.compile(r"^(?P<path>.+\.ya?ml)(?::(?P<id>[a-z][a-z0-9_]*))?$")
_RESOLVED: "weakref.WeakKeyDictionary[Game, dict[str, Bot]]" = weakref.WeakKeyDictionary()


def bot_for(game: Game, name: str) -> Bot:  # noqa: F821
    """The bot a name stands for in this game (see the module's doc); ValueError when none."""
    found = _RESOLVED.setdefault(game, {}).get(name)
    if found is None:
        found = _RESOLVED[game][name] = _family(name) or BOTS.get(name) or Bot(RuleBot(_spec(game, name)), detail=True)
        if found.prepare is not None:
            found.prepare(game)
    return found


def _family(name: str) -> Bot | None:
    """The bot of a `family:parameter` or bare `family` name (ValueError for a bad parameter), None
    for another name. Built for each game: a search bot keeps what it learned between its
    decisions, which games played side by side (`serve`'s tables) must not share."""
    family, colon, parameter = name.partition(":")
    if family not in FAMILIES:
        return None
    try:
        return FAMILIES[family](parameter if colon else None)
    except ValueError as err:
        raise ValueError(f"bot {name!r}: {err}") from None


class BotFileError(ValueError):
    """A bot file named for a seat has errors: its `diagnostics`, to show as `check` shows them."""

    def __init__(self, message: str, diagnostics: Sequence = ()):
        super().__init__(message)
        self.diagnostics = diagnostics


def _spec(game: Game, name: str) -> BotSpec:  # noqa: F821
    file = _FILE.match(name)
    if file is None:
        bots, _ = pack_bots(game.pack)
        if name not in bots:
            known = ", ".join([*BOTS, *bots])
            raise ValueError(f"unknown bot {name!r} (bots: {known}, or a bot file FILE.yaml)")
        return bots[name]
    path = Path(file["path"])
    if not path.is_file():
        raise ValueError(f"no bot file {file['path']!r}")
    bots, diagnostics = read_bots(path, game.pack)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors:
        raise BotFileError(f"{len(errors)} error{'s' * (len(errors) > 1)} in the bot file {file['path']}", diagnostics)
    chosen = [b for b in bots if file["id"] in (None, b.id)]
    if not chosen:
        raise ValueError(f"no bot {file['id']!r} in {file['path']} (its bots: {', '.join(b.id for b in bots)})")
    return chosen[0]


def bot_file_paths(names: Iterable[str | None]) -> list[str]:
    """The paths of the bot files these names read, as written in the names (None: a person)."""
    return [m["path"] for m in map(_FILE.match, filter(None, names)) if m is not None]


def bot_files(names: Sequence[str]) -> dict[str, bytes]:
    """The bot files these names read, by the path written in the name: what a worker on another
    machine needs (`adopt_bot_files`)."""
    return {path: Path(path).read_bytes() for path in bot_file_paths(names)}


def adopt_bot_files(game: Game, names: Sequence[str], files: dict[str, bytes]) -> None:  # noqa: F821
    """Make these names stand, in this game, for the bots of `files` (`bot_files` of another
    machine), as if each file lay at the path its name says."""
    with tempfile.TemporaryDirectory(prefix="wonderforge-bots-") as tmp:
        for i, (path, data) in enumerate(files.items()):
            copy = Path(tmp, f"{i}.yaml")
            copy.write_bytes(data)
            for name in names:
                m = _FILE.match(name)
                if m is not None and m["path"] == path:
                    found = bot_for(game, f"{copy}:{m['id']}" if m["id"] else str(copy))
                    _RESOLVED[game][name] = found


def bot_names(spec: str, players: int, game: Game | None = None) -> list[str]:  # noqa: F821
    """Bots per seat from `random`, `greedy,random` (cycled over the seats)...; ValueError if
    unknown. Without a game, only the built-in bots are known."""
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if not names:
        raise ValueError(f"no bot named in {spec!r} (bots: {', '.join(BOTS)})")
    for name in names:
        if game is not None:
            bot_for(game, name)
        elif name not in BOTS and _family(name) is None:
            raise ValueError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    return [names[i % len(names)] for i in range(players)]


def bot_rngs(state: State) -> list[random.Random]:
    """Each seat's bot generator, seeded from the game's seed: the same seed plays the same game."""
    return [random.Random(f"{state.seed}/{seat}") for seat in range(len(state.players))]


def play(game: Game, bots: Sequence[str], seed: int | None = None,  # noqa: F821
         on_action: Callable[[State, int, Action], None] | None = None,
         on_period: Callable[[State], None] | None = None) -> State:
    """Play a whole game with a bot per seat, from `seed` (by default the game's); each bot draws
    from its own generator, seeded from it, so the same seed plays the same game. `on_action` sees
    every action before it applies, `on_period` the position before the first action of each
    period (of each new `state.round`), without a call at every action."""
    state = game.new_state(seed)
    rngs = bot_rngs(state)
    chooser = [bot_for(game, name) for name in bots]
    blind = [bot.blind for bot in chooser]
    period = None
    while not state.is_terminal():
        if on_period is not None and state.round != period:
            period = state.round
            on_period(state)
        for seat in state.current_players():
            pick = blind[seat]  # (`Bot.act`, inline: every decision of a long run passes here)
            action = pick(state.legal_actions(seat), rngs[seat]) if pick is not None else \
                chooser[seat].act(state, seat, state.legal_actions(seat), rngs[seat])
            if on_action is not None:
                on_action(state, seat, action)
            state.apply(seat, action)
    return state
