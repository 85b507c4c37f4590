"""The prompt_toolkit REPL (`cuttle play`)."""

from . import commands  # noqa: F401  (registers the REPL's commands)
