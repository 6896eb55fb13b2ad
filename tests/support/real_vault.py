"""A real-shaped Obsidian vault: long notes with nested headings, lists, code blocks, callouts,
wikilinks (plain, aliased, to headings, to blocks), embeds and attachments — like a public
help vault, so counts and timings measured on it mean something."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FOLDERS = ["Getting started", "Editing", "Linking", "Plugins", "Files", "Customization"]
WORDS = ("vault note link graph backlink pane sidebar template property canvas search tag "  # noqa: SIM905
         "folder heading embed alias plugin theme snippet workspace command palette hotkey "
         "sync publish outline bookmark attachment callout").split()


@dataclass(frozen=True)
class RealVault:
    root: Path
    notes: int
    headings: int  # headings in all notes (each one a sub-topic)
    links: frozenset[tuple[str, str]]  # (from note path, to note path), resolved note links


def _word(i: int) -> str:
    return WORDS[i % len(WORDS)]


def _title(i: int) -> str:
    return f"{_word(i).capitalize()} {_word(i * 7 + 3)} guide {i:03d}"


def note_path(i: int) -> str:
    """Where note ``i`` sits in the vault: ``<folder>/<title>.md``."""
    return f"{FOLDERS[i % len(FOLDERS)]}/{_title(i)}.md"


def _note(i: int, count: int) -> tuple[str, int, list[int]]:
    """The note's text, its heading count and the notes it links to."""
    a, b, c = (i + 1) % count, (i * 5 + 2) % count, (i * 11 + 7) % count
    targets = [t for t in dict.fromkeys((a, b, c)) if t != i]
    sections = 2 + i % 4
    lines = [
        "---",
        f"tags: [{_word(i)}, help]",
        f"aliases: [{_word(i)} help {i:03d}]",
        "---",
        (f"The {_word(i)} feature lets you work with every {_word(i + 1)} in your vault. "
        f"To open a linked {_word(i + 2)} tab, use the command palette. "
        f"It is explained together with [[{_title(a)}]]."),
        "",
    ]
    for s in range(sections):
        lines += [
            f"## {_word(i + s).capitalize()} settings {s}",
            "",
            (f"You can change how the {_word(i + s)} behaves in Settings. "
            f"Each option is stored in the vault's configuration folder, so it syncs. "
            f"Read [[{_title(b)}#{_word(b).capitalize()} settings 0|the {_word(b)} settings]] "
            "for the details."),
            "",
            f"- Toggle the {_word(s)} option to show guide {i} in the sidebar.",
            f"  - Nested: the {_word(s + 1)} option only applies when the {_word(i)} is on.",
            f"- Drag a {_word(s + 2)} into a pane to open it next to the {_word(i + s)}.",
            "",
            "1. Open Settings.",
            f"2. Choose the {_word(s + 3)} tab on the left side for the {_word(i + 4)}.",
            f"3. Change the {_word(i + s + 5)} value and close the window.",
            "",
            "```js",
            f"app.commands.executeCommandById('{_word(s)}:open');",
            "```",
            "",
        ]
        if s == 1:
            lines += [
                f"### Tips for {_word(i + s)}",
                "",
                f"> [!tip] A callout: the {_word(i)} view remembers its state per pane.",
                "",
                f"![[{_word(i)}-screenshot.png]]",
                f"See also [[{_title(c)}]] and [[{_title(c)}#^block{c}]].",
                "",
            ]
    lines += [f"A closing paragraph that names the {_word(i)} once more. ^block{i}", ""]
    return "\n".join(lines), sections + 1, targets


def make_real_vault(root: Path, notes: int = 30) -> RealVault:
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    headings = 0
    links: set[tuple[str, str]] = set()
    for i in range(notes):
        text, count, targets = _note(i, notes)
        path = root / note_path(i)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        headings += count
        links |= {(note_path(i), note_path(t)) for t in targets}
    return RealVault(root, notes, headings, frozenset(links))


def title_of(path: str) -> str:
    return path.rsplit("/", 1)[-1].removesuffix(".md")
