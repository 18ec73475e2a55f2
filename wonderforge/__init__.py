"""WonderForge: a rules-as-data engine for the 7 Wonders family of board games."""

__version__ = "0.1.0"
