"""The generic engine: packs, state, actions and scoring."""
