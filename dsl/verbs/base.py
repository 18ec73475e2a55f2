"""What every verb is: the `Verb` base class, the registry `VERBS` and the helpers verbs share."""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterator

import attrs

from .. import ast
from ..diagnostics import DslError
from ..printer import plural

VERBS: dict[str, type["Verb"]] = {}  # the grammar rule's name -> the verb's class, in the grammar's order


def verb(cls):
    """Register a verb class (its rule joins the grammar)."""
    VERBS[cls.name] = cls
    return cls


def number(token, default: int | None = None) -> int | None:
    """A parsed number, or `default` where the sentence wrote none."""
    return default if token is None else int(token)


def name_node(token) -> ast.Name | None:
    """A parsed name as a node with its span, or None where the sentence wrote none."""
    return None if token is None else ast.Name(str(token), span=ast.token_span(token))


@attrs.frozen
class Verb:
    """One action of a sentence. Subclasses add their fields and what the module's doc lists."""

    name: ClassVar[str]
    rule: ClassVar[str]
    example: ClassVar[str]
    needs: ClassVar[frozenset[str]] = frozenset()
    lasting: ClassVar[bool] = False  # without a trigger, what it gives stays while its piece does (a property)
    stops: ClassVar[bool] = False    # its run may return False: the rest of its sentence then does not happen

    @classmethod
    def parse(cls, items: list, span: ast.Span | None) -> "Verb":
        raise NotImplementedError

    def check(self, c) -> Iterator[DslError]:
        return iter(())

    def compile(self, c) -> Any:
        return None

    def text(self) -> str:
        raise NotImplementedError

    @staticmethod
    def run(ctx, me: int, args) -> None:
        """What it does; by default nothing at once (a property the engine reads from the effect)."""

    @staticmethod
    def can(ctx, me: int, args) -> bool:
        """Whether it can be done now, as a side of a choice (`A or B`) is offered: by default
        always; a loss or a spending only with what it takes."""
        return True

    @staticmethod
    def undo(ctx, me: int, args) -> None:
        """What a piece holding it takes back when it leaves a city; by default nothing."""

    @staticmethod
    def fixed(ctx, me: int, args) -> Any:
        """The args as `run` reads them now, for `undo` to give back exactly what was given; None
        when they read nothing that changes (most verbs)."""
        return None

    @staticmethod
    def varies(args) -> bool:
        """Whether `fixed` may differ from `args` (what it gives depends on the position): then
        what entry gave is remembered for `undo`."""
        return False

    def causes(self, matching: Callable) -> Iterator[tuple[str, Any]]:
        """(event, the cards it may concern or None for any) of the events it may set off at once;
        `matching(card_filter)` gives the cards a filter may match."""
        return iter(())

    @staticmethod
    def asks(args) -> str | None:
        """The kind of choice it asks the player (a decision of the engine's), if any."""
        return None

    def chooses(self) -> bool:
        """Whether it chooses a player, whom `chosen` names in the rest of its sentence."""
        return False

    @classmethod
    def words(cls) -> str:
        """How a sentence writes the verb, for messages listing verbs: its rule's first fixed
        words (`die discount`, `copy stage`), or `<counter> N` for a gain."""
        said = []
        for part in cls.rule.split():
            if part.startswith('"') and part.endswith('"'):
                said.append(part.strip('"'))
            elif part in _NOUNS:
                said.append(_NOUNS[part])
            else:
                break
        while said and said[-1] in ("of", "from", "at"):  # `copy stage from` reads as `copy stage`
            said.pop()
        return " ".join(said) or "<counter> N"


# The grammar's terminals for nouns, as a sentence writes them.
_NOUNS = {"_CARD": "card", "_STAGE": "stage", "_TOKEN": "token", "_BOX": "box", "_ICON": "icon"}


@attrs.frozen
class Tokens(Verb):
    """What the verbs of N tokens of a kind share (`flip 2 conflict tokens`, `give 1 debt token to
    left`): the count, then the kind, and how they are written."""

    count: int
    kind: ast.Name
    span: ast.Span | None = attrs.field(default=None, eq=False, repr=False, kw_only=True)

    @classmethod
    def parse(cls, items, span):
        return cls(int(items[0]), name_node(items[1]), span=span)

    def check(self, c):
        yield from c.at_least(self.count, 1, "a number of tokens", self)
        yield from c.name(self.kind, "token")

    def tokens_text(self) -> str:
        return f"{self.count} {self.kind.text} {plural('token', self.count)}"


def span_field():
    """The field holding where a node was parsed from (not part of its value)."""
    return attrs.field(default=None, eq=False, repr=False, kw_only=True)


def ask(kind: str):
    """A verb's runtime, and its `asks`, when it asks the player a choice of that kind (see the
    engine's decisions)."""
    def run(ctx, me, args):
        ctx.ask(me, kind, args)
    return staticmethod(run), staticmethod(lambda args: kind)


def hold(ctx, me: int, args) -> None:
    """A verb's runtime that keeps the effect as a power the engine offers when it applies."""
    ctx.hold(me)


Zones = tuple[tuple[str, "str | None"], ...]  # (zone, owner selector or None for a shared zone)


def zones_of(c, zones: ast.Zones) -> Zones:
    """Zones as a sentence names them, resolved by the checker or compiler `c`."""
    return tuple((c.canon(z.name, "shared_zone", "player_zone"), c.canon(z.owner, "selector")) for z in zones)
