"""Games as files: logs written and replayed, scenarios scored, and which positions a game reaches.
Imports the whole engine below it.
"""
