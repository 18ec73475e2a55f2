"""Shipped game packs (data only)."""
