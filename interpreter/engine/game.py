"""The Python API: a game of one ruleset, with moves in text, undo/redo, views and explanations.

from interpreter import load_ruleset, Game
game = Game.new(load_ruleset("default"), seed=7)
game.legal_moves()          # [Move('draw', ()), Move('points', (9H,)), ...]
game.play("points 9H")      # parses, checks legality, plays; raises a MoveError otherwise
game.undo()                 # back to the exact previous state
game.view(0)                # what p1 may see
game.outcome                # None while the game goes on
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from interpreter.core.cards import NAMES, RANK_OF, card_symbol
from interpreter.core.errors import (
    AmbiguousMoveError,
    CuttleError,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    rule_failure,
)
from interpreter.core.zones import CONTROLLER, DRAW, HANDS, IS_FIELD, IS_HAND
from interpreter.language.parser import parse_expr  # noqa: F401  (re-exported for API users)
from interpreter.language.phrasing import counted
from interpreter.rules import PlayDef, ResponseDef, Rules

from .knowledge import knows
from .machine import CHOOSE_D, MAIN, PLAY_D, RESPOND, Decision, apply_action, deal, enumerate_actions
from .moves import Move
from .outcome import Outcome, agreed_draw, resigned
from .perspective import PLAYER_NAMES, match_view, view_of
from .state import DECK, SCRAP, SHOWN, STACK, State
from .view import MatchView, View
from .why import no_window_reason, target_reason, together_reason

#: moves of every ruleset, outside its rules, by the player deciding now: `resign`; and a draw they
#: offered, as the other player answered it: `draw-agreed` (the game ends in a draw) or `draw-refused`
#: (nothing changes; kept in the record all the same). Never among the legal moves (a bot or the lab
#: never plays them); a ruleset that names a play with one of these verbs keeps its own meaning.
RESIGN, DRAW_AGREED, DRAW_REFUSED = "resign", "draw-agreed", "draw-refused"
META_VERBS = (RESIGN, DRAW_AGREED, DRAW_REFUSED)


class Game:
    """One game: immutable rules, a mutable state, and a stack of snapshots for undo."""

    def __init__(self, rules: Rules, state: State, seed: int = 0, setup: dict[str, Any] | None = None) -> None:
        self.rules = rules
        self.state = state
        self.seed = seed
        self.setup = setup
        self.initial = state.copy()
        self._stack: list[tuple[State, Move, str | None]] = []  # snapshot before, move, narration
        self._redo: list[Move] = []
        self._cache: tuple[Any, list[Any]] | None = None

    # -- construction --------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, seed: int = 0) -> Game:
        """A seeded game: shuffle, deal, and p1 (dealt the smaller hand) to move."""
        try:
            state = deal(rules, seed)
        except CuttleError:
            raise
        except Exception as e:
            raise rule_failure(rules.name, "dealing", e) from None
        return cls(rules, state, seed)

    # -- queries -------------------------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        return self.state.pending

    @property
    def moves(self) -> list[Move]:
        return [m for _, m, _ in self._stack]

    @property
    def narration(self) -> list[str]:
        """One line per move played. Each is written when first asked for, from the positions before
        and after the move: the snapshot kept for undo, and the next one (or the current state)."""
        stack = self._stack
        out = []
        for i, (before, move, line) in enumerate(stack):
            if line is None:
                after = stack[i + 1][0] if i + 1 < len(stack) else self.state
                line = self._narrate(before, move, after)
                stack[i] = (before, move, line)
            out.append(line)
        return out

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (engine/outcome.py), None while it goes on."""
        return self.state.outcome

    def _actions(self) -> list[Any]:
        key = (len(self._stack), id(self.state))
        if self._cache is None or self._cache[0] != key:
            try:
                actions = enumerate_actions(self.state) if self.state.winner is None else []
            except CuttleError:
                raise
            except Exception as e:
                raise rule_failure(self.rules.name, "listing the legal moves", e) from None
            self._cache = (key, actions)
        return self._cache[1]

    def legal_moves(self) -> list[Move]:
        return [m for m, _ in self._actions()]

    def legal_by_rule(self) -> list[tuple[Any, list[Move]]]:
        """The legal moves grouped by the rule that makes each (a play or a response definition, or
        None for `resolve` and the moves of a choice), the rules in the ruleset's order and the moves
        of each in card order (a number named: in number order)."""
        groups: dict[tuple[int, str], tuple[Any, list[Move]]] = {}
        for m, action in self._actions():
            rule = action[1] if action[0] in ("play", "respond") else None
            groups.setdefault((id(rule), "" if rule is not None else m.verb), (rule, []))[1].append(m)
        order = {id(d): i for i, d in enumerate([*self.rules.plays, *self.rules.responses])}
        ranked = sorted(groups.values(), key=lambda g: (order.get(id(g[0]), len(order)), g[1][0].verb))
        return [(rule, sorted(ms, key=lambda m: (m.verb, m.cards, m.number or 0))) for rule, ms in ranked]

    def is_legal(self, move: Move | str) -> bool:
        try:
            self.parse_move(move)
        except MoveError:
            return False
        return True

    def match(self) -> MatchView:
        """The score of a match of several hands (`match.wins`): hands won, the hand being played, and
        each finished hand's result."""
        return match_view(self)

    def score(self, player: int) -> int:
        return self.rules.score_of(self.state, player)

    def goal(self, player: int) -> int:
        return self.rules.goal_of(self.state, player)

    # -- moves ---------------------------------------------------------------------------------
    def _normalize(self, move: Move) -> Move:
        """Cards that form a set (choices, a counter's extra cards) are compared in sorted order."""
        d = self.state.pending
        if d is not None and d.kind == CHOOSE_D and not d.ordered:
            return move._replace(cards=tuple(sorted(move.cards)))
        if d is not None and d.kind == RESPOND and len(move.cards) > 2:
            return Move(move.verb, move.cards[:1] + tuple(sorted(move.cards[1:])))
        if d is not None and d.kind in (MAIN, PLAY_D) and len(move.cards) > 1:
            # the cards of a play of several cards (a twin) may be written in any order
            legal = self.legal_moves()
            if move not in legal:
                same = [
                    m
                    for m in legal
                    if m.verb == move.verb and len(m.cards) == len(move.cards) and sorted(m.cards) == sorted(move.cards)
                ]
                if len(same) == 1:
                    return same[0]
        return move

    def parse_move(self, text: Move | str, player: int | None = None) -> Move:
        """The position layer: a legal Move, or an Invalid/Illegal/AmbiguousMoveError quoting the input.
        With `player`: the move as that player's, illegal while another player decides."""
        if isinstance(text, str) and text.split():
            verb = text.split()[0].lower()
            if verb not in self.rules.verbs and verb not in META_VERBS:  # say so before reading the cards
                from interpreter.core.errors import suggest

                near = suggest(verb, self.rules.verbs)
                raise InvalidMoveError(
                    f"'{text.strip()}' is not a move: there is no move '{verb}'"
                    + (f"; did you mean '{near}'?" if near else f"; moves start with {', '.join(self.rules.verbs)}")
                )
        move = Move.parse(text) if isinstance(text, str) else text
        move = self._normalize(move)
        d = self.state.pending
        if player is not None and d is not None and d.player != player:
            raise IllegalMoveError(f"'{move}' is illegal for {self.who(player)}: {self._not_yours(player, d)}")
        if self.is_meta(move):
            if move.cards or move.number is not None:
                raise InvalidMoveError(f"'{move}' is not a move: '{move.verb}' names no card")
            if d is None:
                raise IllegalMoveError(f"'{move}' is illegal: {self.explain(move)}")
            if self.rules.seats > 2:  # (who would win, or agree, at a table of more players is not settled)
                raise IllegalMoveError(
                    f"'{move}' is illegal: resigning and draws by agreement are for two players; "
                    f"this game seats {self.rules.seats}"
                )
            return move
        legal = self.legal_moves()
        if move in legal:
            return move
        aimed = [m for m in legal if m.player is not None and m._replace(player=None) == move]
        if aimed:  # at a larger table: the move must say whom it aims at
            raise AmbiguousMoveError(
                f"'{move}' is incomplete: name the player it aims at: " + ", ".join(f"'{m}'" for m in aimed)
            )
        longer = [
            m
            for m in legal
            if m.verb == move.verb and m.cards[: len(move.cards)] == move.cards and len(m.cards) > len(move.cards)
        ]
        if longer:
            raise AmbiguousMoveError(
                f"'{move}' is incomplete: it could be "
                + ", ".join(f"'{m}'" for m in longer[:8])
                + (" ..." if len(longer) > 8 else "")
            )
        raise IllegalMoveError(f"'{move}' is illegal: {self.explain(move)}")

    def is_meta(self, move: Move) -> bool:
        """Whether a move is one of every ruleset's (resign, a draw offered), not of its rules."""
        return move.verb in META_VERBS and move.verb not in self.rules.verbs

    def _push_meta(self, move: Move) -> None:
        """`resign`, `draw-agreed`, `draw-refused`, by the player deciding now: the game ends (or, for a
        refused draw, goes on unchanged), as one more entry of the history (undo takes it back)."""
        before = self.state
        d = before.pending
        if d is None:
            raise IllegalMoveError(f"'{move}' is illegal: {self.explain(move)}")
        after = before.copy()
        if move.verb != DRAW_REFUSED:
            ended = resigned(d.player) if move.verb == RESIGN else agreed_draw(d.player)
            after.winner = DRAW if ended.winner is None else ended.winner
            after.outcome = ended
            after.pending, after.actions, after.frames = None, None, []
        self.state = after
        self._stack.append((before, move, None))
        self._cache = None

    def push(self, move: Move) -> None:
        """Play a move known to be legal (see parse_move)."""
        if self.is_meta(move):
            self._push_meta(move)
            return
        for m, action in self._actions():
            if m == move:
                # a transaction: the new state, its narration and the history entry are all made
                # before anything is committed; a rule that fails at any step leaves the game as it was
                before = self.state
                after = before.copy()
                try:
                    apply_action(after, action)
                except CuttleError:
                    raise
                except (Exception, RecursionError) as e:
                    raise rule_failure(self.rules.name, f"playing '{move}'", e) from None
                # narrated lazily: `narration` writes the line from the snapshot and the state after it
                # (so a game nobody narrates pays nothing), and narrating cannot fail (`_narrate`)
                self.state = after
                self._stack.append((before, move, None))
                self._cache = None
                return
        raise IllegalMoveError(f"'{move}' is illegal: {self.explain(move)}")

    def play(self, text: Move | str) -> Move:
        """Parse and play a move; on any error the game is unchanged."""
        move = self.parse_move(text)
        self.push(move)
        self._redo.clear()
        return move

    def pop(self) -> Move:
        """Undo the last move, restoring the exact previous state."""
        if not self._stack:
            raise IllegalMoveError("nothing to undo")
        before, move, _ = self._stack.pop()
        self.state = before
        self._cache = None
        return move

    def undo(self) -> Move:
        move = self.pop()
        self._redo.append(move)
        return move

    def state_after(self, n: int) -> State:
        """The exact state after the first `n` moves of the game (0: its start)."""
        return self._stack[n][0] if 0 <= n < len(self._stack) else self.state

    def view_after(self, n: int, player: int) -> View:
        """What `player` could see after the first `n` moves (see `view`)."""
        if not 0 <= n < len(self._stack):
            return self.view(player)
        return Game(self.rules, self._stack[n][0], self.seed, self.setup).view(player)

    @property
    def can_undo(self) -> bool:
        return bool(self._stack)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def redo(self) -> Move:
        if not self._redo:
            raise IllegalMoveError("nothing to redo")
        move = self._redo.pop()
        self.push(move)
        return move

    # -- explanations --------------------------------------------------------------------------
    def who(self, player: int) -> str:
        return PLAYER_NAMES[player]

    def _not_yours(self, player: int, d: Decision) -> str:
        """Why `player` cannot move now: another player decides (`d`), and what they decide."""
        other, me = self.who(d.player), self.who(player)
        if d.kind == MAIN:
            return f"it is {other}'s turn, not {me}'s"
        doing = {RESPOND: "answer the play", CHOOSE_D: "make a choice", PLAY_D: "play a revealed card"}
        return f"{other} must {doing.get(d.kind, 'decide')} now, not {me}"

    def explain(self, move: Move | str) -> str:
        """Why a move is not legal now (or that it is), in terms of the rule that forbids it."""
        try:
            move = Move.parse(move) if isinstance(move, str) else move
        except MoveError as e:
            return str(e)
        move = self._normalize(move)
        g, rules = self.state, self.rules
        if g.winner is not None:
            return f"the game is over: {self.outcome}"
        d: Decision = g.pending
        if self.is_meta(move):
            return f"'{move}' is legal (by {self.who(d.player)}, who decides now)"
        legal = self.legal_moves()
        if move in legal:
            return f"'{move}' is legal"
        who = self.who(d.player)
        same_verb = [m for m in legal if m.verb == move.verb]
        seat = self._why_seat(move, d.player)
        if seat:
            return seat
        opp = rules.opponent_of[d.player] if move.player is None else move.player  # (the player aimed at)
        if d.kind == RESPOND:
            why = self._why_no_response(move, d.player) if not same_verb else None
            if why:
                return why
        elif d.kind == CHOOSE_D:
            return self._why_choice(move, d, who)
        why_verb = self._why_verb(move, d, who)
        if why_verb:
            return why_verb
        if d.kind == PLAY_D:
            source, where = d.options, "the revealed cards"
        elif d.kind == RESPOND:
            source, where = tuple(g.zones[HANDS[d.player]]), f"{who}'s hand"
        else:
            source, where = tuple(g.zones[HANDS[d.player]]), f"{who}'s hand"
        defs: list[PlayDef | ResponseDef] = [p for p in rules.plays if p.verb == move.verb]
        defs = defs or [r for r in rules.responses if r.verb == move.verb]
        aimed = [p for p in defs if getattr(p, "ncards", 1) == 0 and getattr(p, "target", None) is not None]
        if aimed:  # a play of no card that names only its target (`dig 3S`)
            return self._why_aimed(aimed[0], move, {"me": d.player, "opponent": opp, "card": -1, "cards": ()})
        if not move.cards:
            cardless = [p for p in defs if getattr(p, "ncards", 1) == 0]
            if cardless:
                return self._why_condition(cardless[0], {"me": d.player, "opponent": opp, "card": -1, "cards": ()})
            return f"'{move.verb}' needs a card: e.g. " + (str(same_verb[0]) if same_verb else f"{move.verb} 7H")
        card = move.cards[0]
        if card not in source:
            holder = self._where_is(card, d.player)
            mine = where == f"{who}'s hand"
            return (
                f"{NAMES[card]} is not in "
                + (f"your hand ({who})" if mine else where)
                + (f"; it is {holder}" if holder else "")
            )
        rank = RANK_OF[card]
        together = together_reason(self, move, source)
        if together:
            return together
        fitting = [p for p in defs if rank in p.ranks]
        if defs and all(getattr(x, "ncards", 1) == 0 for x in defs):
            return f"'{move.verb}' takes no card: write just '{move.verb}'"
        if not fitting:
            from interpreter.core.cards import ALL_RANKS

            ranks = sorted({r for p in defs for r in p.ranks}, key=ALL_RANKS.index)
            return f"{_a(rank)} cannot be played as '{move.verb}' (only {', '.join(ranks)})"
        p = fitting[0]
        env = {"me": d.player, "opponent": opp, "card": card, "cards": move.cards[:1]}
        answering = not isinstance(p, type(rules.plays[0]))  # a response (a counter), not a play
        if rules.playable_fn is not None and not rules.playable_fn(g, {**env, "it": card, "answering": answering}):
            return f"{NAMES[card]} cannot be played now ({self._src('turn', 'playable')} is false)"
        if isinstance(p, type(rules.plays[0])) and p.legal is not None and not p.legal(g, env):
            return self._why_condition(p, env)
        if isinstance(p, type(rules.plays[0])) and p.target is not None:
            from interpreter.language.compiler import as_cards

            targets = as_cards(p.target(g, env))
            if len(move.cards) < 2:
                return f"'{move}' needs a target: " + (", ".join(NAMES[t] for t in targets) or "there is none")
            t = move.cards[1]
            if t not in targets:
                return self._why_target(p, env, t, targets, f"{p.verb} {NAMES[card]}")
        if d.kind == RESPOND and same_verb:
            return f"'{move}' does not fit: e.g. " + str(same_verb[0])
        if same_verb:
            return "that combination is not allowed; legal: " + ", ".join(str(m) for m in same_verb[:6])
        return f"{who} cannot '{move.verb}' now"

    def _why_seat(self, move: Move, player: int) -> str | None:
        """Why the player a move names cannot be named (a seat the table lacks, the player themselves, a
        partner where the play aims at an opponent, a play that names nobody), or None."""
        rules, named = self.rules, move.player
        if named is None:
            return None
        who = self.who(named)
        if named >= rules.seats:
            return f"there is no {who} at this table of {rules.seats}"
        plays = [p for p in rules.plays if p.verb == move.verb]
        if not any(p.player is not None or p.aims and rules.seats > 2 for p in plays):
            return f"'{move.verb}' names no player: write the move without '{who}'"
        if named == player:
            return f"{who} cannot aim '{move.verb}' at themselves: name an opponent"
        if named in rules.partners_of[player]:
            return f"{who} is {self.who(player)}'s partner, not an opponent: name an opponent"
        return None

    @staticmethod
    def _why_choice(move: Move, d: Decision, who: str) -> str:
        """Why a move does not answer a `choose` decision (or a question)."""
        if d.ask:
            return f"{who} is asked whether to {d.verb}: answer '{d.verb}' (yes) or 'decline' (no), naming no card"
        if d.numbers is not None:  # `choose a number`
            low, high = d.numbers
            if move.verb == d.verb and move.number is not None:
                return f"{move.number} is not offered: {who} names a number from {low} to {high}"
            return f"{who} must name a number from {low} to {high} as {d.verb}: write '{d.verb} {low}'"
        if move.verb != d.verb:
            return f"{who} must choose {counted(d.count, 'card')} to {d.verb}: write '{d.verb} CARD...'"
        bad = [c for c in move.cards if c not in d.options]
        if bad:
            return f"{NAMES[bad[0]]} cannot be chosen; choose from " + " ".join(NAMES[c] for c in sorted(d.options))
        if d.upto:
            return f"choose up to {d.count} different {'card' if d.count == 1 else 'cards'}, or none: '{d.verb}' alone"
        return f"choose exactly {d.count} different {'card' if d.count == 1 else 'cards'}"

    def _why_verb(self, move: Move, d: Decision, who: str) -> str | None:
        """Why a move's verb cannot be played now at all (no such verb, nothing to answer, a choice
        word out of its choice), or None if the verb is one of this decision's."""
        rules = self.rules
        verbs = {p.verb for p in rules.plays} | {r.verb for r in rules.responses} | {"resolve"} | rules.ctx.verbs
        verbs |= rules.ctx.numbers
        if move.verb not in verbs:
            from interpreter.core.errors import suggest

            near = suggest(move.verb, sorted(verbs))
            return f"there is no move '{move.verb}'" + (
                f"; did you mean '{near}'?" if near else f"; moves start with {', '.join(sorted(verbs))}"
            )
        if d.kind == MAIN and move.verb in {r.verb for r in rules.responses} | {"resolve"}:
            why = no_window_reason(self)
            return (
                f"there is nothing to {move.verb}: "
                + (f"{why}; " if why else "")
                + f"it is {who}'s turn to take an action"
            )
        if d.kind == MAIN and move.verb in (rules.ctx.verbs | rules.ctx.numbers) - {p.verb for p in rules.plays}:
            return f"there is nothing to {move.verb} now: it is {who}'s turn to take an action"
        return None

    def _why_no_response(self, move: Move, player: int) -> str | None:
        """Why a response (a counter) is not possible: what it answers and what it costs."""
        g, rules = self.state, self.rules
        who = self.who(player)
        answered = g.chain[-1][0]
        kind = answered.kind
        defs = [r for r in rules.responses if r.verb == move.verb]
        if not defs:
            others = sorted({m.verb for m in self.legal_moves()})
            return f"{who} must answer the play on the stack: {' or '.join(others)}"
        hand = g.zones[HANDS[player]]
        for r in defs:
            if kind not in r.answers:
                return (
                    f"a {move.verb} cannot answer a {kind} in these rules (it answers: {', '.join(sorted(r.answers))})"
                )
            ranks = ", ".join(sorted(r.ranks))
            if not any(RANK_OF[c] in r.ranks for c in hand):
                return f"{move.verb} needs a {ranks} in {who}'s hand"
            if move.cards and move.cards[0] not in hand:
                return f"{NAMES[move.cards[0]]} is not in {who}'s hand"
            if move.cards and RANK_OF[move.cards[0]] not in r.ranks:
                return f"{move.verb} needs a {ranks}, not a {RANK_OF[move.cards[0]]}"
            if len(hand) - 1 < r.extra:
                return (
                    f"{move.verb} costs a {ranks} and {counted(r.extra, 'more card')} of {who}'s choice; "
                    f"{who} holds only {len(hand)}"
                )
            if any(c not in hand for c in move.cards[1:]):
                bad = next(c for c in move.cards[1:] if c not in hand)
                return f"{NAMES[bad]} is not in {who}'s hand"
            if len(move.cards) != 1 + r.extra:
                return (
                    f"{move.verb} is a {ranks} and exactly {r.extra} more {'card' if r.extra == 1 else 'cards'}: e.g. "
                    + next((str(m) for m in self.legal_moves() if m.verb == move.verb), f"{move.verb} 2D 4C")
                )
            env = {
                "me": player,
                "opponent": g.chain[-1][1],  # the player whose play it would answer
                "card": move.cards[0],
                "cards": move.cards[:1],
                "extra": tuple(move.cards[1:]),
                "answered": g.chain[-1][2],
            }
            if r.legal is not None and not r.legal(g, env):  # the response's own condition (a Queen)
                return self._why_condition(r, env)
        return None

    def _rule(self, p: Any, key: str) -> str:
        """A rule of a play in English, with its effect-language text: `... (rule: `count(deck) > 0`)`."""
        from interpreter.language.english import Context, english

        src = p.source.get(key) if isinstance(getattr(p, "source", None), dict) else None
        if not isinstance(src, str):
            return "what the ruleset allows"
        text = " ".join(src.split())
        try:
            words = english(parse_expr(src), Context.from_data(self.rules.data), condition=(key == "legal"))
        except Exception:  # the rule is valid (it compiled); a phrase that cannot be read stays as code
            return f"`{text}`"
        return f"{words} (rule: `{text}`)"

    def _src(self, *path: str) -> str:
        data: Any = self.rules.data
        for k in path:
            data = data.get(k, {}) if isinstance(data, dict) else {}
        return " ".join(str(data).split()) if data else "?"

    def _why_aimed(self, p: Any, move: Move, env: dict[str, Any]) -> str:
        """Why a play of no card with a target (`dig 3S`) is illegal: its condition, or its target."""
        from interpreter.language.runtime import as_cards

        if p.legal is not None and not p.legal(self.state, env):
            return self._why_condition(p, env)
        targets = as_cards(p.target(self.state, env))
        if not move.cards:
            return f"'{p.verb}' needs a target, one of {self._rule(p, 'target')}: " + (
                ", ".join(NAMES[t] for t in targets) or "there is none now"
            )
        if len(move.cards) != 1:
            return f"'{p.verb}' takes one target and no card: e.g. " + (
                f"{p.verb} {NAMES[targets[0]]}" if targets else f"{p.verb} 7H"
            )
        return self._why_target(p, env, move.cards[0], targets, p.verb)

    def _why_target(self, p: Any, env: dict[str, Any], t: int, targets: Sequence[int], what: str) -> str:
        """Why card `t` is not among `targets`, the cards play `p` (`what`: 'scuttle 9H') may target now."""
        reason = target_reason(self, p, env, t)
        if reason:
            return (
                f"{reason}, so {NAMES[t]} is not a legal target; "
                f"the rule: `{' '.join(str(p.source.get('target')).split())}`"
            )
        return f"{NAMES[t]} is not a legal target: {what} may target one of {self._rule(p, 'target')}" + (
            f"; legal targets now: {', '.join(NAMES[x] for x in targets)}" if targets else "; no card fits that now"
        )

    def _why_condition(self, p, env) -> str:
        if p.legal is not None and not p.legal(self.state, env):
            what = f"{p.verb} with {_a(RANK_OF[env['card']])}" if env.get("card", -1) >= 0 else f"'{p.verb}'"
            return f"{what} is allowed only when {self._rule(p, 'legal')}, which is not so now"
        return f"'{p.verb}' is not possible now"

    def _where_is(self, card: int, viewer: int) -> str:
        g = self.state
        z = g.zone_of[card]
        if z == -1:
            return "not in this ruleset's deck"
        if z == HANDS[viewer]:
            return f"in {PLAYER_NAMES[viewer]}'s hand"
        if z == DECK or IS_HAND[z]:  # (another player's hand: hidden)
            return ""
        if IS_FIELD[z]:
            if not knows(g, viewer, card):  # face down, unknown to the viewer: said as a hidden card is
                return ""
            return f"in play on {PLAYER_NAMES[CONTROLLER[z]]}'s side"
        return {SCRAP: "in the scrap", SHOWN: "revealed", STACK: "on the stack"}.get(z, "elsewhere")

    # -- views ---------------------------------------------------------------------------------
    def view(self, player: int) -> View:
        """What `player` may see: nothing hidden leaks. Each other player's hand when a rule shows it,
        else the cards of it the player knows; the cards of the deck the player knows, where they are;
        and which of the player's own cards (and which places in the deck) each other player knows
        (engine/knowledge.py; built by engine/perspective.py)."""
        return view_of(self, player)

    # -- narration -----------------------------------------------------------------------------
    def _narrate(self, before: State, move: Move, after: State) -> str:
        """One line for a move. It only reads the two positions; should it still fail on a position no
        rule foresaw, the move is told plainly rather than losing the game's history."""
        try:
            return self._narrate_moves(before, move, after)
        except (Exception, RecursionError):
            who = PLAYER_NAMES[before.pending.player] if before.pending else "?"
            return f"{who}: {move.pretty()}"

    def _narrate_moves(self, before: State, move: Move, after: State) -> str:
        who = PLAYER_NAMES[before.pending.player] if before.pending else "?"
        if self.is_meta(move):  # resign, a draw offered: the end says it
            if move.verb == DRAW_REFUSED:
                return f"{who}: offers a draw, refused"
            return f"{who}: {'resigns' if move.verb == RESIGN else 'offers a draw, accepted'} — {after.outcome}"
        moved = []
        for c in range(len(after.zone_of)):
            if before.zone_of[c] != after.zone_of[c] and after.zone_of[c] != -1:
                moved.append(f"{card_symbol(c)} → {_zone_name(after.zone_of[c], after, c)}")
        line = f"{who}: {move.pretty()}"
        if moved:
            line += " (" + ", ".join(moved[:8]) + (", ..." if len(moved) > 8 else "") + ")"
        for n, hand in enumerate(after.hands[len(before.hands) :], start=len(before.hands) + 1):
            result = "a draw" if hand.winner is None else f"won by {PLAYER_NAMES[hand.winner]}"
            line += f" — hand {n} {result} ({hand.reason}); match " + "-".join(map(str, after.wins))
            if after.winner is None:
                line += f"; hand {n + 1} dealt, {PLAYER_NAMES[after.turn]} to move"
        if after.outcome is not None and before.winner is None:
            line += f" — {after.outcome}"
        return line


def _a(rank: str) -> str:
    """'a 7', 'an 8', 'an A'."""
    return ("an " if rank[0] in "8A" else "a ") + rank


def _zone_name(z: int, g: State, card: int) -> str:
    if IS_FIELD[z]:
        return f"{PLAYER_NAMES[CONTROLLER[z]]}'s {g.role[card]}"
    if IS_HAND[z]:
        return f"{PLAYER_NAMES[CONTROLLER[z]]}'s hand"
    return {DECK: "deck", SCRAP: "scrap", SHOWN: "revealed", STACK: "stack"}[z]
