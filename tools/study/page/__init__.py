"""The balance report of `simulate --report FILE.html`: one self-contained page (`document.page`) that
arranges a run's summary in sections, each with its charts (Vega-Lite specs) and tables.
Imports the engine, `tools.common` and `tools.study` (the periods most games reached, from `quality`).
"""
