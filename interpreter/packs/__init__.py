"""Packs: where they lie, reading a pack's YAML files with their places against the schemas, the
bases laid under it (`extends`, `remove:`, `modify:`), its sentences compiled, its content checked,
and typed views of its rules, catalogue and boards.
Imports the language (`dsl`) only.
"""
