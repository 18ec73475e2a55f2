"""A game in the terminal: one human seat against bots, with plain `input()` and `print()`.

`Terminal(game, human, bots).run()` plays until the game ends or the player leaves; the functions
that read and write are injected, so tests drive a game with scripted answers. What is shown is a
`Screen` chosen by the pack's flow kind (`SCREENS`): 7 Wonders' draft (draft_screen.py), the turns of
Architects (turns_screen.py), the dice rolls of 7 Wonders Dice (rolls_screen.py). The score table is shared with `wonderforge score` (text.py).
"""

from __future__ import annotations

from typing import Callable, Sequence

from ...dsl.diagnostics import safe_lines
from ...interpreter.bots.registry import bot_for, bot_names, bot_rngs
from ...interpreter.core.actions import Action
from ...interpreter.core.state import State
from ...interpreter.flows.draft import Draft
from ...interpreter.flows.rolls import Rolls
from ...interpreter.flows.turns import Turns
from ...interpreter.games.game import Game
from ..common.text import score_table, winners_line
from .draft_screen import DraftScreen, View
from .rolls_screen import RollsScreen
from .screen import Screen
from .turns_screen import TurnsScreen

Read = Callable[[str], str]
Write = Callable[[str], None]

QUIT = ("q", "quit", "exit")
AGAIN = ("?", "h", "help")

# The screen of each flow (by its class, flows.py); others get the plain `Screen`.
SCREENS: dict[type, type[Screen]] = {Draft: DraftScreen, Turns: TurnsScreen, Rolls: RollsScreen}


def screen_for(game: Game, names: Sequence[str], seat: int) -> Screen:
    """The screen of the game's flow, seen from `seat` (the plain `Screen` for a flow without one)."""
    return SCREENS.get(type(game.flow), Screen)(game, names, seat)


class Quit(Exception):
    """The player left the game (typed q, or the input ended)."""


class Terminal:
    """A game between one human seat and bots, read and written through `read` and `write`."""

    def __init__(self, game: Game, human: int, bots: Sequence[str | None], read: Read | None = None,
                 write: Write | None = None, explain: bool = False):
        self.game = game
        self.explain = explain  # show what a search bot weighed after its moves
        self.human = human
        self.bots = list(bots)
        # input() and print() by default, looked up when used; every word of a screen may come from
        # the pack (names, ids), so what is written is escaped (`safe_lines`)
        self.read: Read = read or (lambda prompt: input(prompt))
        out: Write = write or (lambda text: print(text))
        self.write: Write = lambda text: out(safe_lines(text))
        names = [f"seat {s} ({b})" for s, b in enumerate(self.bots)]
        names[human] = f"you (seat {human})"
        self.screen = screen_for(game, names, human)
        self.state: State | None = None

    @property
    def names(self) -> list[str]:
        return self.screen.names

    def run(self) -> State:
        """Play until the end; raises Quit if the player leaves (the state so far stays in `.state`)."""
        game, screen = self.game, self.screen
        state = self.state = game.new_state()
        rngs = bot_rngs(state)  # as `bots.play` seeds them: a seed replays the same game
        self.say(screen.intro(state))
        self.write("Type the number of an action; ? shows the table again, q leaves the game.")
        while not state.is_terminal():
            for seat in state.current_players():
                actions = state.legal_actions(seat)
                if seat == self.human:
                    action = self.ask(state, actions)
                else:
                    bot = bot_for(game, self.bots[seat])
                    action = bot.act(state, seat, actions, rngs[seat])  # from a View only
                    if self.explain:
                        self.say(weighed_lines(bot.choose, self.names[seat]))
                before = screen.before(state, seat, action)
                state.apply(seat, action)
                self.say(screen.after(state, seat, action, before))
        self.write("")
        self.write("=== Final scores ===")
        self.write(score_table(self.names, state.scores()))
        self.write(winners_line(self.names, state.winners()))
        return state

    def say(self, lines: list[str]) -> None:
        for line in lines:
            self.write(line)

    # -- the human's turn
    def ask(self, state: State, actions: list[Action]) -> Action:
        labels = self.screen.labels(state, actions)
        self.say(self.screen.table(state, labels))
        while True:
            try:
                text = self.read(f"Your choice (1-{len(actions)}): ")
            except EOFError:
                raise Quit from None
            text = (text or "").strip().lower()
            if text in QUIT:
                raise Quit
            if text in AGAIN:
                self.say(self.screen.table(state, labels))
                continue
            if not text.isdigit():
                self.write(f"Please type the number of an action, from 1 to {len(actions)} (q to leave).")
                continue
            k = int(text)
            if not 1 <= k <= len(actions):
                self.write(f"There is no action {k}: type a number from 1 to {len(actions)}.")
                continue
            return actions[k - 1]


def weighed_lines(choose, name: str, top: int = 5) -> list[str]:
    """What a search bot weighed for its last move (its `weighed`: action, playouts, mean reward),
    the `top` most tried; nothing for a bot that does not search or a move it did not weigh."""
    weighed = getattr(choose, "weighed", None)
    if not weighed or len(weighed) < 2:
        return []
    lines = [f"  {name} weighed:"]
    lines += [f"    {action}: {visits} playouts, mean reward {mean:.2f}" for action, visits, mean in weighed[:top]]
    if len(weighed) > top:
        lines.append(f"    ({len(weighed) - top} more)")
    return lines


def bots_for(spec: str, players: int, human: int, game: Game | None = None) -> list[str | None]:
    """Bot names for the seats other than the human's, in seat order, cycling `spec` (`random,greedy`);
    with the game, its pack's bots and bot files too."""
    seats: list[str | None] = list(bot_names(spec, players - 1, game))
    seats.insert(human, None)
    return seats


__all__ = ["Quit", "SCREENS", "Screen", "Terminal", "View", "bots_for", "score_table", "screen_for", "weighed_lines", "winners_line"]
