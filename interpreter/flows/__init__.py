"""The flows, how turns go: the base every flow builds on (`flow`), the draft, turns and rolls, and
the one registry declaring each (`kinds`).
Imports `dsl`, `packs` and `core`.
"""
