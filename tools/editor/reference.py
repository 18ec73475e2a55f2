"""The language reference (docs/language.md), looked up by word: what an editor shows when the
author points at a word of a sentence.

A section is the entry of its heading's first word (### `produce [private] [N] <resources>` is
`produce`'s, ### Gain: `<counter> <amount>` is what a counter does); a word may have several (`take`). The words that open a construct rather
than an action lead to the construct's section (`on` and `at` to the triggers).
"""

from __future__ import annotations

import functools
import re

from ...interpreter.packs.folders import HOME

LANGUAGE = HOME / "docs" / "language.md"
MAX_ENTRY = 1200  # characters of a section shown at most (its opening: the syntax and what it does)
# Words that open a construct, and the heading of its section.
CONSTRUCTS = {"on": "Triggers", "at": "Triggers", "then": "Sentences", "per": "Amounts", "in": "Places: `in ...`",
              "once": "Limits: `once per <period>`", "if": "Conditions", "and": "Conditions", "or": "Conditions",
              "not": "Conditions", "left": "Players", "right": "Players", "neighbours": "Players", "self": "Players",
              "others": "Players", "all": "Players", "free": "Costs", "different": "Costs", "identical": "Costs",
              "minus": "Costs", "set": "Sets", "cost": "Costs counted"}
_HEADING = re.compile(r"^(#{2,4}) (.+)$")


@functools.cache
def sections() -> dict[str, str]:
    """Each heading of the reference and the text of its section, up to the next heading."""
    if not LANGUAGE.is_file():  # an install without the docs: no entries, no failure
        return {}
    out: dict[str, str] = {}
    heading, body = None, []
    for line in LANGUAGE.read_text(encoding="utf-8").splitlines():
        found = _HEADING.match(line)
        if found:
            if heading is not None:
                out[heading] = "\n".join(body).strip()
            heading, body = found.group(2), []
        elif heading is not None:
            body.append(line)
    if heading is not None:
        out[heading] = "\n".join(body).strip()
    return out


def entry(word: str) -> str | None:
    """The reference's entry for a word, as Markdown: the sections it opens (bounded), or None."""
    found = [h for h in sections() if _first_word(h) == word]
    if not found and word in CONSTRUCTS:
        found = [CONSTRUCTS[word]]
    if not found:
        return None
    parts = [f"**{h}**\n\n{_opening(sections().get(h, ''))}" for h in found]
    return "\n\n---\n\n".join(parts)


def _first_word(heading: str) -> str:
    """The word a heading is the entry of: `produce` of "`produce [private] ...`", `gain` of
    "Gain: `<counter> <amount>`"."""
    words = heading.replace("`", " ").split()
    return words[0].rstrip(":").lower() if words else ""


def _opening(text: str) -> str:
    """A section's first paragraphs, up to MAX_ENTRY characters, cut at a paragraph."""
    if len(text) <= MAX_ENTRY:
        return text
    cut = text.rfind("\n\n", 0, MAX_ENTRY)
    kept = text[:cut if cut > 0 else MAX_ENTRY].rstrip()
    if kept.count("```") % 2:  # cut inside an example: close it
        kept += "\n```"
    return kept + "\n\n(more in docs/language.md)"
