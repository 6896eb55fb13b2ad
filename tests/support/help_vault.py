"""A vault shaped like a real public Obsidian help vault: folders, long notes with many headings
(API headings named as code: ``list()``, ``strip_md``, "round"), code blocks, callouts, embeds,
wikilinks with aliases and headings, emphasis — for the map and dock tests of issue 28."""

from __future__ import annotations

from pathlib import Path

from tests.support.notes import write

FOLDERS = {
    "Linking": ["Backlinks", "Outgoing links", "Internal links", "Embed files", "Aliases",
                "Link to blocks", "Graph view", "Local graph"],
    "Plugins": ["Core plugins", "Community plugins", "Daily notes", "Templates", "Canvas",
                "Command palette", "Bookmarks", "Slash commands"],
    "Editing": ["Basic formatting syntax", "Callouts", "Tables", "Math", "Diagrams",
                "Properties", "Tags", "Footnotes"],
    "Interface": ["Tabs", "Status bar", "Drag and drop", "Ribbon", "Sidebar", "Workspaces",
                  "Themes", "Appearance"],
    "API": ["Dataview functions", "Plugin API", "Vault API", "Editor API"],
}
API_HEADINGS = ["list()", "strip_md", "linksTo()", "round", "min()", "Parameters", "Returns"]


def _note(title: str, folder: str, peers: list[str], i: int) -> str:
    a, b, c = peers[(i + 1) % len(peers)], peers[(i + 2) % len(peers)], peers[(i + 3) % len(peers)]
    lines = [
        "---", f"tags: [{folder.lower()}]", f"aliases: [{title} page]", "---",
        f"# {title}",
        "",
        (f"*{title}* is part of {folder}: it works with [[{a}|{a.lower()}]] and [[{b}]]. The "
         f"_backlinks_ pane lists every note that links here; see [[Core plugins|plugin]]."),
        "",
        "> [!note] Good to know",
        f"> {title} can be turned off in **Settings → {folder}**.",
        "",
        f"![[{title.lower().replace(' ', '-')}.png]]",
        "",
        f"## How {title.lower()} works",
        "",
        (f"Open {title.lower()} from the command palette. It keeps a list of [[{c}#Overview|what "
         f"{c.lower()} shows]] and updates it as you type."),
        "",
        "```js",
        f"app.workspace.getLeaf().open('{title}');",
        "```",
        "",
        f"## Using {title.lower()} with other notes",
        "",
        f"- Drag a note onto {title.lower()} to link it to [[{a}]].",
        f"- Hold **Ctrl** to open [[{b}]] in a new tab.",
        "",
    ]
    if folder == "API":
        for heading in API_HEADINGS:
            lines += [f"### {heading}", "", f"`{heading}` is described in [[{a}]].", ""]
    return "\n".join(lines)


def write_help_vault(root: Path) -> Path:
    """36 notes in five folders, each linking to three peers and to Core plugins."""
    (root / ".obsidian").mkdir(parents=True, exist_ok=True)
    everyone = [t for titles in FOLDERS.values() for t in titles]
    for folder, titles in FOLDERS.items():
        for i, title in enumerate(titles):
            peers = titles if i % 3 else everyone[i::3]  # a few notes link across folders
            write(root, f"{folder}/{title}.md", _note(title, folder, [p for p in peers if p != title], i))
    return root
