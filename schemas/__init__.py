"""JSON Schemas for every content file kind, scenarios and logs."""
