"""The verbs of the effect language, one class each: everything about a verb sits in its class.

A verb class is the syntax-tree node of an action (its fields, with the span it was parsed from)
and says, in one place:

- `name`: the verb, as compiled effects and the engine's flows name it;
- `needs`: what a game must have for it to act, beyond what every game has (a flow provides it:
  buying from neighbours, hands of cards, boards of boxes, dice, costs paid with cards, wonder
  boards with stages);
- `rule`: its grammar rule (the parser adds it to `effect.lark`'s `action`);
- `example`: a sentence using it (docs/language.md shows it; the tests check both agree);
- `parse(items, span)`: the node from the rule's parsed items;
- `check(checker)`: its errors against the pack's vocabulary (checks.py's checker);
- `compile(compiler)`: its typed, canonical arguments (an attrs class), names resolved;
- `text()`: its canonical text (`parse(text()) == node`);
- `run(ctx, me, args)`: what it does, through the engine's services (compiler.Context), and
  `undo(ctx, me, args)` for what a piece takes back when it leaves a city;
- `causes(matching)`: the events it may set off at once (dsl/loops.py).

A new verb is one class in the module of its kind (`gains`, `cards`, `powers`), registered with
`@verb`; docs/engine.md says how. Imports the rest of the language (`ast`, `compiler`, `printer`...) only.
"""

from .base import VERBS, Verb, verb  # noqa: F401 (the registry and what a new verb needs)
from .gains import *  # noqa: F401,F403 (each module registers its verbs, in the grammar's order)
from .cards import *  # noqa: F401,F403
from .powers import *  # noqa: F401,F403
from .tokens import *  # noqa: F401,F403
