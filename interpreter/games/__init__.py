"""A game put together: a pack, a player count and options (`game`), `load_game`, and the checks of
a whole pack (its sentences against its flow, its deals, its bots).
Imports every layer of the engine below it: `dsl`, `packs`, `core`, `flows`, `bots`.
"""
