"""Packs: reading a pack's YAML files with their places, `extends` and `modify:` laid over the bases,
the schemas, the sentences compiled, and typed views of its rules, catalogue and boards.
Imports the language (`dsl`) only.
"""
