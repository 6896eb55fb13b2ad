"""A small Obsidian vault whose notes show what the reader renders: callouts (typed, titled,
folded, nested), pictures embedded four ways (``![[x.png]]``, ``|300``, ``#anchor``,
``![](rel/path.png)``), a mermaid diagram and a broken one — plus a secret picture OUTSIDE the
vault and a symlink that points at it, for the image route's refusals."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A real PNG of one colour (the window decodes it; the route sniffs its signature)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


INTERFACE = """# Interface

The status bar sits at the bottom of the window.

> [!note] Where things are
> The **status bar** shows word count and backlinks.
> A second line of the same callout.

> [!tip]- Folded until you open it
> Press `Ctrl+P` for the command palette.

> [!warning]
> No title: the callout's kind is its title.
>
> > [!example] Nested inside
> > A callout inside a callout.

> An ordinary quotation stays a quotation.

![[status-bar-desktop.png#interface]]

![[status-bar-desktop.png|300]]

![Ribbon on the left](../attachments/ribbon.png)

![[missing-picture.png]]

## Flow

```mermaid
flowchart LR
  Note --> Link --> Graph
```

## Broken diagram

```mermaid
flowchart LR
  A --> (((
```
"""


def make_picture_vault(root: Path) -> tuple[Path, Path]:
    """``(vault, secret)``: the vault folder and a picture beside it, outside it."""
    vault = root / "Vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "notes").mkdir()
    (vault / "attachments").mkdir()
    (vault / "notes" / "Interface.md").write_text(INTERFACE, encoding="utf-8")
    (vault / "attachments" / "status-bar-desktop.png").write_bytes(png(480, 60, (70, 110, 190)))
    (vault / "attachments" / "ribbon.png").write_bytes(png(60, 200, (200, 120, 60)))
    (vault / "attachments" / "page.png").write_text("<script>alert(1)</script>", encoding="utf-8")
    (vault / "attachments" / "drawing.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    secret = root / "secret.png"
    secret.write_bytes(png(4, 4, (0, 0, 0)))
    (vault / "attachments" / "escape.png").symlink_to(secret)
    return vault, secret
