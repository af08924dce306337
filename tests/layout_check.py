"""What a designer would flag on the screen shown: text that does not fit its widget (shortened
with "...", lines dropped, drawn past its box), widgets overlapping a sibling or outside their
parent or the window, and touch targets under 48 px (scaled). ``findings(ui)`` lists them."""
from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput

from assistant.screens.widgets import shown, strip_markup

SLACK = 1.5  # px: rounding of layouts and textures


def findings(ui, root=None):
    """Everything wrong with the layout of ``root`` (the current screen), one line each."""
    ui.frames(2)  # a screen just built settles its layout and fitted text in two
    root = root or ui.screen
    least = 48 * ui.app.scale - 0.5
    found = []
    for widget in root.walk(restrict=True):
        if not visible(widget):
            continue
        if isinstance(widget, Label):
            found += [f"{name(widget)}: {problem}" for problem in text_problems(widget)]
        if isinstance(widget, (ButtonBehavior, TextInput)) and not widget.disabled and min(widget.size) < least:
            found.append(f"{name(widget)}: a touch target of {widget.width:.0f}x{widget.height:.0f} px")
        if isinstance(widget, (BoxLayout, GridLayout)):
            found += layout_problems(widget)
        if not in_scroll(widget):
            x, y = widget.to_window(widget.x, widget.y)
            right, top = widget.to_window(widget.right, widget.top)
            if x < -SLACK or y < -SLACK or right > Window.width + SLACK or top > Window.height + SLACK:
                found.append(f"{name(widget)}: outside the window ({x:.0f},{y:.0f})-({right:.0f},{top:.0f})")
    return found


def visible(widget) -> bool:
    return shown(widget) and widget.width > 1 and widget.height > 1


def in_scroll(widget) -> bool:
    widget = widget.parent
    while widget is not None and widget.parent is not widget:
        if isinstance(widget, ScrollView):
            return True
        widget = widget.parent
    return False


def name(widget) -> str:
    text = getattr(widget, "text", "")
    return f"{type(widget).__name__}{f' {text[:40]!r}' if isinstance(text, str) and text else ''}"


def text_problems(label):
    text = label.text
    if not text.strip():
        return []
    core = label._label  # as last drawn: ``findings`` runs a frame first
    problems = []
    if core.is_shortened:
        problems.append("shortened with '...'")
    plain = strip_markup(text) if label.markup else text
    drawn = "".join(word.text for line in core._cached_lines for word in line.words)
    if not core.is_shortened and len("".join(drawn.split())) < len("".join(plain.split())):
        problems.append("lines dropped")
    width, height = label.texture_size
    if width > label.width + SLACK or height > label.height + SLACK:
        problems.append(f"text of {width:.0f}x{height:.0f} px in a {label.width:.0f}x{label.height:.0f} box")
    inner = getattr(core, "_internal_size", (0, 0))[1]
    room = (label.text_size[1] if label.text_size[1] is not None else label.height)
    if inner > room + SLACK:
        problems.append(f"{inner:.0f} px of lines in {room:.0f} px")
    return problems


def layout_problems(layout):
    problems = []
    children = [c for c in layout.children if visible(c)]
    for child in children:
        out = max(layout.x - child.x, child.right - layout.right, layout.y - child.y, child.top - layout.top)
        if out > SLACK:
            problems.append(f"{name(child)}: {out:.0f} px outside its {name(layout)}")
    for i, first in enumerate(children):
        for second in children[i + 1:]:
            wide = min(first.right, second.right) - max(first.x, second.x)
            high = min(first.top, second.top) - max(first.y, second.y)
            if wide > SLACK and high > SLACK:
                problems.append(f"{name(first)} overlaps {name(second)}")
    return problems
