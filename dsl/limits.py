"""Every limit on what a pack, a scenario or a game log may hold, and on what a run prints, in one place.

Packs and logs are untrusted input: each limit keeps a hostile or broken one from making a load
(or a game, or a replay) take unbounded time or memory, and going past one is a diagnostic naming
the file, with a hint. docs/language.md ("Limits") lists them for authors; keep the two alike.
Each is far above what the shipped packs use.
"""

# ---- a file (interpreter/yamlsource.py) ----
MAX_FILE_BYTES = 1 << 20    # 1 MiB: the largest shipped file is about 12 KB
MAX_DEPTH = 64              # mappings and lists nested in each other
MAX_ALIASES = 100           # YAML aliases (`*name`) in one file
MAX_NODES = 200_000         # values in a file, each alias counted as all it stands for
MAX_NUMBER_CHARS = 30       # characters of a YAML number

# ---- a sentence (dsl/parser.py) ----
MAX_TEXT_CHARS = 10_000     # characters of one effect, cost or condition field
MAX_BRACKETS = 20           # brackets nested in a condition
MAX_NUMBER = 1000           # the size of a number written in a sentence (-1000 to 1000)
MAX_SET_PLACES = 10         # card filters in one `set of ...` (its count weighs every group of them)

# ---- packs (interpreter/packs/reading.py) ----
MAX_PACKS = 32              # packs read for one check or game, bases included
MAX_EXTENDS_DEPTH = 8       # packs in an `extends` chain above the one loaded

# ---- what a run prints (dsl/diagnostics.py, tools/report.py) ----
MAX_DIAGNOSTICS = 200       # diagnostics shown by one run; the rest are counted in one line
MAX_CHANGES = 200           # differences between two packs shown by `diff` (and `simulate --against`)
MAX_QUOTED_CHARS = 120      # characters of a source line quoted under a diagnostic; a longer
                            # line is quoted as a window around the column, `...` where cut

# ---- a scenario (interpreter/files/scenario.py; its players are bounded by its schema) ----
MAX_SCENARIO_ITEMS = 1000   # items of one list or mapping of a player: cards, tokens, stages...
# ---- a game log (interpreter/log.py; its numbers have at most MAX_NUMBER_CHARS characters) ----
MAX_LOG_BYTES = 2 << 20         # 2 MiB: the longest golden log (a 5-player Dice game) is about 21 KB;
#                                 a 2 MiB log of hostile but valid lines is read and refused in about 2 s
MAX_LOG_LINE_CHARS = 10_000     # characters of one line: a 7-player result line is under 1,000
MAX_LOG_DEPTH = 16              # objects and lists nested in one line: a log line needs 4
# ---- a message to the language server (tools/lspframes.py; docs/editors.md lists these two) ----
MAX_MESSAGE_BYTES = 16 << 20    # 16 MiB: a pack file of MAX_FILE_BYTES sent whole by an editor, each byte
#                                 escaped in JSON (`\u0001`, 6 bytes) at worst, fits twice over
MAX_HEADER_BYTES = 4096         # a message's header: editors send one or two lines of about 50 bytes
