"""The effect language: grammar, parser, checks, printer and compiler."""
