"""The core of every game: the state and the effects at runtime, actions, events, decisions,
payment, conflicts, scoring, and what a seat may not see (determinization).
Imports `dsl` and `packs`.
"""
