"""Key bindings, all made in one place: Ctrl-C clears the line, Ctrl-D on an empty line quits,
Ctrl-L redraws (on an empty line: a clean screen with the board, as the `clear` command)."""

from __future__ import annotations

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent


def make_key_bindings() -> KeyBindings:
    kb = KeyBindings()

    @kb.add("c-c")
    def _clear(event: KeyPressEvent) -> None:
        """Clear the line (and any error shown for it); the game is untouched."""
        event.current_buffer.reset()

    @kb.add("c-d")
    def _quit(event: KeyPressEvent) -> None:
        """Quit on an empty line; otherwise delete the character under the cursor."""
        buf = event.current_buffer
        if buf.text:
            buf.delete()
        else:
            event.app.exit(exception=EOFError)

    @kb.add("c-l")
    def _redraw(event: KeyPressEvent) -> None:
        """On an empty line: the `clear` command (a clean screen, the board drawn again); on a line
        being typed: the screen cleared and the prompt redrawn, the line kept."""
        if event.current_buffer.text:
            event.app.renderer.clear()
        else:
            event.app.exit(result="clear")

    return kb
