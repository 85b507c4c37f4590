"""Write the effect grammar's LALR tables anew (interpreter/language/effect.tables.json) after a change
to effect.lark or to the Lark version: `python tools/grammar_tables.py`."""

from interpreter.language.tables import main

if __name__ == "__main__":
    main()
