"""The authors' commands: `new` (a pack to start from), `diff` (two packs compared), `cards` (a
pack's catalogue, as text or a page).
Imports the engine and `tools.common`.
"""
