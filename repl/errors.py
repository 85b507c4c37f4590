"""The REPL's own error: a request it cannot carry out (the session prints its first line; nothing changes)."""

from interpreter import CuttleError


class CommandError(CuttleError):
    """A bad command: its message is the one line shown to the user."""
