"""What every command shares: the words of numbers and lists, a pack named on the command line, the
one guard on every file written, and how diagnostics reach the user.
Imports the engine (`dsl`, `interpreter`) only.
"""
