"""Launch configuration: where data lives, how the server binds, and the per-launch token.

Built once per process by ``load_config``; everything else receives the frozen ``Config``.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path

from studyhall import __version__

DATA_DIR_ENV = "STUDYHALL_DATA_DIR"
SCRIPT_ENV = "STUDYHALL_SCRIPT"
TESTING_ENV = "STUDYHALL_TESTING"
APP_NAME = "studyhall"


def _new_token() -> str:
    # 32 random bytes, URL-safe: goes into the window's start URL and the Bearer header.
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Config:
    data_dir: Path
    host: str = "127.0.0.1"
    port: int | None = None  # None: pick a free port at bind time
    script_path: Path | None = None  # STUDYHALL_SCRIPT: scripted models for every role
    testing: bool = False
    version: str = __version__
    # Per-launch secret every /api request must carry; never logged (the redactor knows it).
    token: str = field(default_factory=_new_token, repr=False)

    @property
    def origin(self) -> str:
        """The app's own origin, e.g. ``http://127.0.0.1:51234`` (needs a bound port)."""
        if self.port is None:
            raise ValueError("the port is chosen at bind time; no origin before that")
        return f"http://{self.host}:{self.port}"

    def with_port(self, port: int) -> Config:
        return replace(self, port=port)


def _checkout_root() -> Path | None:
    """The source checkout this package runs from, if any (``src/`` next to pyproject + .git)."""
    root = Path(__file__).resolve().parent.parent.parent
    if (root / "pyproject.toml").is_file() and (root / ".git").exists() and (root / "src").is_dir():
        return root
    return None


def resolve_data_dir(env: dict[str, str] | None = None) -> Path:
    """STUDYHALL_DATA_DIR, else ``./data`` of a source checkout, else the platform data dir."""
    env = dict(os.environ) if env is None else env
    explicit = env.get(DATA_DIR_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser().resolve()
    checkout = _checkout_root()
    if checkout is not None:
        return checkout / "data"
    from platformdirs import user_data_path  # only needed for installed copies

    return user_data_path(APP_NAME, appauthor=False)


def make_private_dir(folder: Path) -> None:
    """Create ``folder`` and any missing parent for its owner only (0700): the data folder holds
    chats, settings and perhaps the key file. A folder that exists is left as it is."""
    missing: list[Path] = []
    cur = folder
    while not cur.exists() and cur.parent != cur:
        missing.append(cur)
        cur = cur.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass


def load_config(**overrides: object) -> Config:
    """Read the environment once; keyword arguments override any field (tests, CLI flags)."""
    script = os.environ.get(SCRIPT_ENV, "").strip()
    values: dict[str, object] = {
        "data_dir": resolve_data_dir(),
        "script_path": Path(script).expanduser().resolve() if script else None,
        "testing": os.environ.get(TESTING_ENV, "") not in ("", "0", "false"),
    }
    values.update(overrides)
    if isinstance(values.get("data_dir"), str):
        values["data_dir"] = Path(str(values["data_dir"]))
    return Config(**values)  # type: ignore[arg-type]
