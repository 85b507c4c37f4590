"""The constructs of the effect language: one module each, and this, the one table of them."""

from __future__ import annotations

from .add_counter import AddCounter
from .ask import Ask
from .attach import Attach
from .attribute import Attr
from .binary import BinOp
from .call import Call
from .choose import Choose
from .choose_number import ChooseNumber
from .conditional import Conditional
from .draw import Draw
from .for_each import ForEach
from .if_ import If
from .index import Index
from .let import Let
from .list_literal import ListLit
from .mark import Mark
from .move import Dest, Move
from .name import Name
from .negation import Neg
from .not_ import Not
from .nothing import Nothing
from .number import Num
from .pass_ import Pass
from .play_from import PlayFrom
from .program import Program
from .reveal import Reveal
from .scrap import Scrap
from .set_counter import SetCounter
from .show import Show
from .shuffle import Shuffle
from .shuffle_under import ShuffleUnder
from .string import Str
from .swap import Swap
from .turn_up import TurnUp
from .unmark import Unmark
from .where import Where
from .win import Win
from .zone import Zone

#: every construct, expressions first (the order of docs/effect-language.md)
CONSTRUCTS = (
    Num,
    Str,
    Name,
    Call,
    ListLit,
    Attr,
    Index,
    Zone,
    Where,
    BinOp,
    Not,
    Neg,
    Conditional,
    Dest,
    Scrap,
    Move,
    Attach,
    Draw,
    Reveal,
    Shuffle,
    ShuffleUnder,
    Swap,
    Choose,
    ChooseNumber,
    PlayFrom,
    Let,
    If,
    Ask,
    ForEach,
    Mark,
    SetCounter,
    AddCounter,
    Unmark,
    Pass,
    Win,
    Nothing,
    Show,
    TurnUp,
    Program,
)

__all__ = [
    "CONSTRUCTS",
    "Num",
    "Str",
    "Name",
    "Call",
    "ListLit",
    "Attr",
    "Index",
    "Zone",
    "Where",
    "BinOp",
    "Not",
    "Neg",
    "Conditional",
    "Dest",
    "Scrap",
    "Move",
    "Attach",
    "Draw",
    "Reveal",
    "Shuffle",
    "ShuffleUnder",
    "Swap",
    "Choose",
    "ChooseNumber",
    "PlayFrom",
    "Let",
    "If",
    "Ask",
    "ForEach",
    "Mark",
    "SetCounter",
    "AddCounter",
    "Unmark",
    "Pass",
    "Win",
    "Nothing",
    "Show",
    "TurnUp",
    "Program",
]
