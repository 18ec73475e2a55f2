"""The board's style (tools/serve/static/style.css, shared by the seat pages and the replay viewer)
read as colour pairs: every text colour on every background it can sit on meets WCAG AA (4.5:1), the
focus ring and the lines that bound a card's colour stripe stand out (3:1, non-text), and a card's
pack colour (a CSS colour name from the pack, whatever it is: white, yellow...) never goes behind or
into text."""

from __future__ import annotations

import re
from pathlib import Path

from wonderforge.interpreter.games.loading import load_game
from wonderforge.tools.serve.replay import STATIC

STYLE = STATIC / "style.css"
SHIPPED = ["7-wonders", "architects", "architects-medals", "dice"]


def rules() -> dict[str, dict[str, str]]:
    """Each selector of the style sheet (a group split) with its declarations, comments left out."""
    text = re.sub(r"/\*.*?\*/", "", STYLE.read_text(encoding="utf-8"), flags=re.S)
    out: dict[str, dict[str, str]] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", text):
        declared = dict((k.strip(), v.strip()) for k, _, v in (d.partition(":") for d in body.split(";")) if v.strip())
        for selector in selectors.split(","):
            out.setdefault(selector.strip(), {}).update(declared)
    return out


def rgb(value: str) -> tuple[float, float, float]:
    """A #rgb or #rrggbb colour; anything else fails the test (a named colour is not checkable here)."""
    hexes = re.fullmatch(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})", value.split()[-1])
    assert hexes, f"not a #hex colour: {value!r}"
    h = hexes[1] if len(hexes[1]) == 6 else "".join(c * 2 for c in hexes[1])
    return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two colours."""
    def lum(colour: str) -> float:
        r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb(colour))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def pairs() -> list[tuple[str, str, str, str]]:
    """(text rule, its colour, background rule, its colour): a rule with a colour and a background of
    its own (or its state's, `button:hover`) is read on those; any other text colour on every surface
    (the page's and each background set without a text colour: a player's box, a card, a table),
    the page's own text colour too (it is inherited there)."""
    found = rules()
    base = lambda s: re.sub(r":(hover|focus|active|focus-visible)\b", "", s)
    own = {s: d["background"] for s, d in found.items() if "color" in d and "background" in d and s != "body"}
    surfaces = {s: d["background"] for s, d in found.items() if "background" in d and "color" not in d
                and base(s) not in own} | {"body": found["body"]["background"]}
    out = []
    for s, d in found.items():
        if "color" not in d:
            continue
        backs = {b: v for b, v in {**own, **{k: found[k]["background"] for k in found
                                             if k != s and base(k) == s and "background" in found[k]}}.items()
                 if base(b) == s} if s in own else surfaces
        out += [(s, d["color"], b, v) for b, v in backs.items()]
    return out


def test_every_text_colour_on_every_background_it_meets_is_aa():
    found = pairs()
    assert {("button", "button:hover"), (".card .line", ".card"), (".key", ".player"), (".hint", "body")} <= \
        {(t, b) for t, _, b, _ in found}  # (the reading of the sheet finds the pairs the board has)
    poor = [f"{t} {c} on {b} {v}: {contrast(c, v):.2f}" for t, c, b, v in found if contrast(c, v) < 4.5]
    assert not poor, "\n".join(poor)


def test_the_focus_ring_and_a_card_s_stripe_lines_stand_out_on_every_surface():
    found = rules()
    ring = found[":focus-visible"]["outline"]
    stripe_line = re.findall(r"#[0-9a-fA-F]{3,6}", found[".card"]["box-shadow"])
    assert stripe_line and found[".card"]["border"].split()[-1] in stripe_line
    backs = [found["body"]["background"], found[".card"]["background"], found[".player"]["background"]]
    poor = [f"{what} {colour} on {back}" for what, colour in [("focus ring", ring), ("stripe line", stripe_line[0])]
            for back in backs if contrast(colour, back) < 3]
    assert not poor, poor


def test_the_shipped_packs_colours_go_to_the_stripe_only():
    """The packs' colour names (white and yellow among them, which a white card would hide) are the
    stripe's only: its bounding lines are checked above, whatever the colour."""
    colours = {c.data["colour"] for pack in SHIPPED for comps in load_game(pack).pack.components.values()
               for c in comps.values() if isinstance(getattr(c, "data", None), dict) and "colour" in c.data}
    assert {"white", "yellow"} <= colours
    using = {s: d for s, d in rules().items() if any("var(--c" in v for v in d.values())}
    assert set(using) == {".card"} and [k for k, v in using[".card"].items() if "var(--c" in v] == ["box-shadow"]
    board = (STATIC / "board.js").read_text(encoding="utf-8")
    assert re.findall(r"style\.(\w+)\(\"(--?\w+)\"", board) == [("setProperty", "--c")]
