"""The editor's help: the language server and its frames, what it answers (`assist`), the language
reference, shell completion, and `check --watch`.
Imports the engine, `tools.common` and `tools.authoring` (a component shown as `cards` shows it).
"""
