"""Every budget that keeps a file from a stranger from eating the machine, in one place.

Each limit is far above what the shipped rulesets and any reasonable house rule need (the tests
load and play every shipped ruleset under them), and each refusal names the limit and the place.
docs/security.md lists them with what they protect against.
"""

from __future__ import annotations

# -- files ---------------------------------------------------------------------------------------
MAX_FILE_BYTES = 256_000
"""A ruleset, scenario or record file (checked before reading; the read itself is bounded). The
largest shipped ruleset is about 10 kB."""

MAX_YAML_NODES = 20_000
"""YAML nodes in one file, counted as the composer builds them."""

MAX_ALIAS_NODES = 10_000
"""Nodes that the aliases (`*name`) of one file may repeat in total ("billion laughs")."""

MAX_YAML_DEPTH = 100
"""Nesting of YAML mappings and lists."""

MAX_YAML_INT_DIGITS = 30
"""Digits of a whole number written as a YAML value (a seed may need 20)."""

MAX_PARTS = 32
"""Files that one ruleset may be composed of (extends and options, all levels)."""

# -- the effect language -------------------------------------------------------------------------
MAX_EFFECT_CHARS = 20_000
"""The text of one effect or expression."""

MAX_KIND_RULE_CHARS = 100_000
"""The text a kind's `legal` or `target` adds to its plays, all plays counted (the condition is copied into each
play of the kind, so its length times their number is what is parsed and compiled)."""

MAX_EXPR_DEPTH = 100
"""Nesting of one effect text (parentheses, operators, blocks), checked before the tree is built."""

MAX_EXPR_NODES = 5_000
"""Nodes of one effect text."""

MAX_DEFINE_DEPTH = 32
"""How deep definitions may refer to definitions."""

MAX_INLINE_NODES = 200
"""A definition larger than this (once the definitions it uses are expanded) becomes a function
call instead of being copied in place, so expansion can never grow exponentially."""

MAX_SETTING = 1_000_000
"""A whole-number setting of a ruleset (`cards`, `extra`, `deal.first`, `end.passes`...)."""

MAX_NUMBER_DIGITS = 15
"""Digits of a number written in an effect text."""

MAX_INT = 10**18
"""The largest magnitude a number may reach while the rules compute (`+`, `-`, `*`)."""

MAX_COST = 100_000_000
"""Work of one evaluation of an expression or program, counted as cards visited: a `where` or
`for each` over a zone visits every card of it, nested ones multiply. Checked at load time, every
zone counted as holding the whole deck (the shipped rulesets need at most about 9 million: the 7,
whose revealed cards are counted as the whole deck, each checked against every play of its rank),
so nesting that grows exponentially is refused before anything runs."""

MAX_BASE_COST = 20_000
"""The same work counted with one card in each zone: what is left is repetition that no zone size
explains (a definition used twice by a definition used twice...: the shipped rulesets need at most
about 250), so a chain of definitions that doubles at each level is refused after about 10 levels."""

MAX_DECISION_COST = 100_000_000
"""Work of listing the legal moves of one decision (every card of a hand against every play of its
rank; the shipped rulesets need at most about 4.5 million)."""

# -- play ----------------------------------------------------------------------------------------
MAX_CHOICES = 100_000
"""Legal moves one decision may offer (`choose N from ...`, a response's extra cards): refused at
load when the ruleset shows it, at play time otherwise (the move is refused, the game unchanged)."""

MAX_NUMBERS = 1_000
"""Numbers one `choose a number from A to B` may offer (each is a legal move): refused at load when
both ends are known there, at play time otherwise (the move is refused, the game unchanged)."""

MAX_MATCH_WINS = 100
"""`match.wins`: hands a player must win."""

MAX_HANDS = 1_000
"""Hands one match may last (a match whose hands keep ending in draws is then a draw)."""

MAX_MOVES = 100_000
"""Moves one game may last; the game is then a draw."""

MAX_TRIGGERED = 1_000
"""Triggered effects one step may set off in a chain (a trigger whose effect sets off triggers, and so
on): beyond it the move is refused and the game unchanged."""

MAX_STEP_COST = 200_000_000
"""Work of one move (one step: the move and everything it sets off until the next decision), the one
budget that counts how often texts are evaluated, each evaluation as MAX_COST counts it (every zone
holding the whole deck). At load, what every move is known to do (list the legal moves of a decision,
check the win: both players' score and goal) must fit, or the ruleset is refused (shipped: about 2.1
million). At play, every `when:` tested and every triggered effect run, and each win check of a ruleset
whose score and goal cost enough to matter (rules/sections.py WIN_CHECKS_A_MOVE), count against it; a
move that would spend more is refused and the game unchanged, so a chain of costly triggers is stopped
after a few links however long MAX_TRIGGERED would let it grow (the shipped house rules with triggers
spend well under a thousandth of it)."""

MAX_SCENARIO_STEPS = 10_000
"""Steps (moves and expectations) of one scenario or record."""

# -- the command line ----------------------------------------------------------------------------
# Every number a command line or a player's spec gives is checked against its range in one place
# (core/ceilings.py), with one line naming the option and the range.

MAX_GAMES = 1_000_000
"""Games one command plays (`--games` of sim, compare, sweep, match, ladder and bench): a million
random games take about ten minutes of one core; `--games 10**12` once ran out of memory."""

MAX_JOBS = 1_024
"""Worker processes asked for (`--jobs`); a pool never starts more than four per core, nor more
than it has games to play (lab/parallel.py `workers`)."""

MAX_SEED = 2**63 - 1
"""The magnitude of a seed (`--seed`): what SQLite's INTEGER holds."""

MAX_REPEAT = 1_000
"""Runs of one benchmark (`cuttle bench --repeat`)."""

MAX_NODES = 1_000_000_000
"""Positions the solver may search (`cuttle solve --nodes`)."""

MAX_SECONDS = 86_400
"""Seconds the solver may search (`cuttle solve --seconds`): a day."""

MAX_PLAYER_OPTION = 1_000_000
"""The magnitude of a player's option whose range the player does not declare (players/registry.py):
a count of samples, nodes or iterations, or a weight of its evaluation."""
