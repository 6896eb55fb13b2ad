"""The images a note shows, found in its vault: ``![[file.png]]``, ``![[file.png|300]]``,
``![[file.png#anchor]]`` and ``![alt](rel/path.png)`` become Markdown images served by the
reader's image route (``/api/sources/{id}/image?path=...``), a width in the URL's fragment.

Pure functions over text; the caller supplies the vault's files (root-relative) and the route
checks every path again (inside the root, an image by its bytes) when the window asks for it.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from urllib.parse import quote, unquote

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".bmp")
_SIZE = re.compile(r"^\s*(\d{1,4})(?:\s*x\s*(\d{1,4}))?\s*$")
# ![alt](target "title") with the target bare or in <...>; alt holds no brackets.
_MD_IMAGE = re.compile(r"!\[([^\[\]\n]*)\]\(\s*(<[^<>\n]+>|[^\s()<>]+)(\s+\"[^\"\n]*\")?\s*\)")


def is_image(path: str) -> bool:
    return path.lower().endswith(IMAGE_SUFFIXES)


def image_url(source_id: str, path: str, width: str = "", height: str = "") -> str:
    size = f"#w={width}" + (f"&h={height}" if height else "") if width else ""
    return f"/api/sources/{quote(source_id, safe='')}/image?path={quote(path, safe='/')}{size}"


def find_image(target: str, note_path: str, files: Sequence[str]) -> str | None:
    """The vault file an embed names, by Obsidian's rules in short: the path from the vault
    root, else from the note's folder, else the file of that name nearest the root."""
    wanted = target.strip().replace("\\", "/")
    if not wanted or not is_image(wanted):
        return None
    images = [f for f in files if is_image(f)]
    by_lower = {f.lower(): f for f in images}
    folder = posixpath.dirname(note_path)
    for candidate in (wanted.lstrip("/"), posixpath.join(folder, wanted)):
        normal = posixpath.normpath(candidate)
        if not normal.startswith("../") and normal.lower() in by_lower:
            return by_lower[normal.lower()]
    name = wanted.rsplit("/", 1)[-1].lower()
    named = [f for f in images if f.rsplit("/", 1)[-1].lower() == name]
    return min(named, key=lambda f: (f.count("/"), f)) if named else None


def embed_image(inner: str, note_path: str, files: Sequence[str], source_id: str) -> str | None:
    """Markdown for ``![[inner]]`` when it names an image (``None`` when it does not); an image
    that is not in the vault is a quiet mention, as any embed the reader cannot show."""
    target, _, option = inner.partition("|")
    name = target.partition("#")[0]
    if not is_image(name.strip()):
        return None
    found = find_image(name, note_path, files)
    label = _alt(name.strip().rsplit("/", 1)[-1])
    if found is None:
        return f"*(embedded: {label})*"
    size = _SIZE.match(option)
    width, height = (size.group(1), size.group(2) or "") if size else ("", "")
    alt = _alt(option) if option.strip() and size is None else label
    return f"![{alt}]({image_url(source_id, found, width, height)})"


def link_markdown_images(line: str, note_path: str, files: Sequence[str], source_id: str) -> str:
    """``![alt](rel/path.png)`` pointing into the vault becomes the image route; a web address,
    a data image or a file not in the vault is left for the window to show as it does."""
    if "](" not in line:
        return line

    def one(m: re.Match[str]) -> str:
        raw = m.group(2).strip("<>")
        if re.match(r"^[a-z][a-z0-9+.-]*:", raw, re.IGNORECASE) or raw.startswith("#"):
            return m.group(0)
        found = find_image(unquote(raw.partition("#")[0].partition("?")[0]), note_path, files)
        if found is None:
            return m.group(0)
        return f"![{_alt(m.group(1))}]({image_url(source_id, found)})"

    return _MD_IMAGE.sub(one, line)


def _alt(text: str) -> str:
    return text.replace("[", "").replace("]", "").strip()
