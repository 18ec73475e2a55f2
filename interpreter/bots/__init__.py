"""Players the computer plays: a seat's view, bot files and their words, rule bots, the search bot,
and the registry naming them with the loop that plays a game.
Imports `dsl`, `packs`, `core` and `flows`.
"""
