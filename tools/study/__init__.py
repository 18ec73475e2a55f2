"""The balance study: running many games (locally, in a pool, on Ray), statistics, the quality of a
game, paired comparisons, CSV, the report page (`page/`), `bench`, and the PettingZoo environment.
Imports the engine, `tools.common` and `tools.authoring` (the pack diff of a comparison).
"""
