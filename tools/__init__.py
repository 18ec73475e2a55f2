"""The command line and the authors' tools."""
