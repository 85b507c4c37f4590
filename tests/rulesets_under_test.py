"""The rulesets that the generic conformance harness plays: every base and each sensible combination
of options. Add a ruleset here when you ship it.

`GAMES` lowers the number of random games for a ruleset (the harness default, 1000, applies to the
rest) so that the whole harness stays under about three minutes; bases play the full count."""

RULESETS: list[str] = [
    # bases
    "default",
    "micro",
    "published",
    "cuttle-cards",
    # each option on the bases it fits
    "default+classic-2s",
    "default+published-9s",
    "default+twinned",
    "default+random-4s",
    "default+eights-oneoff",
    "default+tens-block",
    "default+joker-swap",
    "default+best-of-5",
    "default+published-9s+frozen-9s",
    "published+frozen-9s",
    "micro+jokers",
    "micro+twinned",
    "micro+classic-2s",
    "published+twinned",
    "published+tens-block",
    "published+best-of-5",
    "cuttle-cards+queen-window",
    # combinations
    "default+classic-2s+twinned",
    "micro+jokers+twinned+classic-2s",
    "micro+jokers+random-4s+tens-block+published-9s+frozen-9s",
    "published+random-4s+eights-oneoff+joker-swap+twinned",
    "default+classic-2s+twinned+random-4s+eights-oneoff+tens-block+joker-swap+published-9s+frozen-9s",
    "micro+jokers+best-of-5",
    "cuttle-cards+twinned+random-4s+queen-window",
    # tables of more than two seats (SPEC rulings 21-26): three players, two against two
    "default+cutthroat",
    "cuttle-cards+teams",
    "published+cutthroat+twinned+best-of-5",
    # house rules written as triggers (every step's program ends by running them)
    "tests/scenarios/triggers-house/rules/triggers-house.yaml",
]

# the tables of more than two seats: their plays are listed and their goals checked by plain loops
# (engine/seating.py, ruling 25's turn order), never by the generated two-seat paths
LARGER_TABLES = ("default+cutthroat", "cuttle-cards+teams", "published+cutthroat+twinned+best-of-5")
TWO_SEATS: list[str] = [spec for spec in RULESETS if spec not in LARGER_TABLES]

# one option on a base: 500 games; a combination of several: 200; a match (several hands each): 150
GAMES: dict[str, int] = {spec: 500 if spec.count("+") == 1 else 200 for spec in RULESETS if "+" in spec}
GAMES.update({spec: 150 for spec in RULESETS if "best-of-5" in spec})
GAMES["tests/scenarios/triggers-house/rules/triggers-house.yaml"] = 100
# a table of three or four: each game has about twice the decisions of a two-player one
GAMES.update({"default+cutthroat": 200, "cuttle-cards+teams": 150, "published+cutthroat+twinned+best-of-5": 40})
# the default game gets the most: thousands of games
GAMES["default"] = 3000
