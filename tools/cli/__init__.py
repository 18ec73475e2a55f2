"""The command line (`commands`: every command's parser and its run) and the terminal game with its
screens per flow.
Imports everything below it: the engine and every other part of `tools`.
"""
