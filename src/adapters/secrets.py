"""API keys: the OS keyring when a real backend is usable, else a 0600 JSON file in the data dir.

Values never appear in exceptions, reprs or logs raised from here: errors name the store and
the key *name* only.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
import threading
from collections.abc import Collection
from pathlib import Path
from typing import Any

from studyhall.core.errors import SecretError
from studyhall.core.ports.storage import SecretStore

SECRET_BACKEND_ENV = "STUDYHALL_SECRET_BACKEND"  # "file" | "keyring": force a choice
_INDEX = "__studyhall_names__"  # keyring cannot list entries, so we keep the names ourselves


def _check_name(name: str) -> None:
    if not name or not name.strip() or name == _INDEX or len(name) > 200:
        raise SecretError(f"Invalid key name {name!r}: use a provider name such as 'openai' or "
                          "a server address such as 'http://127.0.0.1:1234/v1'.")


class FileSecretStore:
    """``secrets.json`` with mode 0600, replaced atomically so a crash never leaves half a file."""

    def __init__(self, path: Path) -> None:
        self._path = Path(path)
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"FileSecretStore({str(self._path)!r})"

    @property
    def path(self) -> Path:
        return self._path

    def get(self, name: str) -> str | None:
        return self._read().get(name)

    def set(self, name: str, value: str) -> None:
        _check_name(name)
        if not isinstance(value, str) or not value.strip():
            raise SecretError(f"The key for {name!r} is empty; paste the full key.")
        with self._lock:
            data = self._read()
            data[name] = value
            self._write(data)

    def delete(self, name: str) -> None:
        with self._lock:
            data = self._read()
            if data.pop(name, None) is not None:
                self._write(data)

    def names(self) -> list[str]:
        return sorted(self._read())

    def _read(self) -> dict[str, str]:
        try:
            raw = self._path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as e:
            raise SecretError(
                f"Cannot read the key file {self._path} ({e.strerror}). Check its permissions."
            ) from None
        self._tighten()
        try:
            data: Any = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            # No detail from the decoder: its message may quote file content (a key).
            raise SecretError(
                f"The key file {self._path} is not valid JSON. Fix it, or delete it and "
                "enter your keys again in Settings."
            ) from None
        if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in data.items()
        ):
            raise SecretError(
                f"The key file {self._path} has an unexpected shape (expected name -> key). "
                "Fix it, or delete it and enter your keys again in Settings."
            )
        return data

    def _tighten(self) -> None:
        # A copied/restored file may have lost its 0600 mode; never leave keys group-readable.
        try:
            if self._path.stat().st_mode & 0o077:
                os.chmod(self._path, 0o600)
        except OSError:
            pass

    def _write(self, data: dict[str, str]) -> None:
        payload = json.dumps(data, indent=2, sort_keys=True).encode("utf-8")
        self._path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # mkstemp creates the file 0600 from the first byte: no moment where it is readable.
        fd, tmp = tempfile.mkstemp(prefix=".secrets.", suffix=".tmp", dir=self._path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(payload)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o600)
            os.replace(tmp, self._path)
            _fsync_dir(self._path.parent)
        except OSError as e:
            Path(tmp).unlink(missing_ok=True)
            raise SecretError(
                f"Could not save the key file {self._path} ({e.strerror}). Check free space "
                "and permissions of the data folder."
            ) from None


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class KeyringSecretStore:
    """The OS keyring (Secret Service, macOS Keychain, Windows Credential Locker)."""

    def __init__(self, service: str = "studyhall", backend: Any = None) -> None:
        self._service = service
        self._backend = backend  # None: keyring's configured default
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"KeyringSecretStore(service={self._service!r})"

    def _kr(self) -> Any:
        if self._backend is None:
            backend = native_backend()
            if backend is None:  # forced with none usable: keyring's own choice says why
                import keyring

                backend = keyring.get_keyring()
            self._backend = backend
        return self._backend

    def _call(self, what: str, fn: Any, *args: str) -> Any:
        from keyring.errors import KeyringError

        try:
            return fn(*args)
        except KeyringError as e:
            raise SecretError(
                f"The system keyring refused to {what} ({type(e).__name__}). Unlock it, or set "
                f"{SECRET_BACKEND_ENV}=file to keep keys in a private file instead."
            ) from None

    def get(self, name: str) -> str | None:
        value = self._call("read a key", self._kr().get_password, self._service, name)
        return value if isinstance(value, str) and value else None

    def set(self, name: str, value: str) -> None:
        _check_name(name)
        if not isinstance(value, str) or not value.strip():
            raise SecretError(f"The key for {name!r} is empty; paste the full key.")
        with self._lock:
            self._call("save a key", self._kr().set_password, self._service, name, value)
            names = set(self._index())
            if name not in names:
                self._save_index(names | {name})

    def delete(self, name: str) -> None:
        from keyring.errors import PasswordDeleteError

        with self._lock:
            try:
                self._call("delete a key", self._kr().delete_password, self._service, name)
            except SecretError:
                if self.get(name) is not None:
                    raise
            except PasswordDeleteError:
                pass
            names = set(self._index())
            if name in names:
                self._save_index(names - {name})

    def names(self) -> list[str]:
        return sorted(n for n in self._index() if self.get(n) is not None)

    def _index(self) -> list[str]:
        raw = self._call("read the key list", self._kr().get_password, self._service, _INDEX)
        try:
            names = json.loads(raw) if raw else []
        except json.JSONDecodeError:
            return []
        return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []

    def _save_index(self, names: Collection[str]) -> None:
        self._call(
            "save the key list", self._kr().set_password, self._service, _INDEX,
            json.dumps(sorted(names)),
        )


# The backends keyring itself would rank first on each platform. ``keyring.get_keyring()``
# imports every backend and every installed plugin (entry points) to rank them all, ~0.3 s
# beside the starting server; importing only these is a fraction of that.
_NATIVE_BACKENDS: dict[str, tuple[str, ...]] = {
    "darwin": ("keyring.backends.macOS.Keyring",),
    "win32": ("keyring.backends.Windows.WinVaultKeyring",),
}
_UNIX_BACKENDS = (  # the desktop's Secret Service (GNOME, KeePassXC, ...), or KDE's wallet
    "keyring.backends.SecretService.Keyring",
    "keyring.backends.kwallet.DBusKeyring",
)


@functools.cache
def native_backend() -> Any:
    """keyring's backend: the one the user configured for keyring (``PYTHON_KEYRING_BACKEND``
    or ``keyringrc.cfg``, read as keyring reads them), else the most preferred usable one of
    this platform's native backends, each imported alone; None when none is usable."""
    try:
        import keyring.core
    except ImportError:
        return None
    try:
        configured = keyring.core.load_env() or keyring.core.load_config()
    except Exception:  # noqa: BLE001 - a broken keyring config must not stop the app starting
        return None
    if configured is not None:
        return configured
    usable = []
    for name in _NATIVE_BACKENDS.get(sys.platform, _UNIX_BACKENDS):
        try:
            backend = keyring.core.load_keyring(name)  # RuntimeError when not viable here
        except Exception:  # noqa: BLE001, S112 - a missing library or a dead D-Bus: not this one
            continue
        if _real_backend(backend):
            usable.append(backend)
    return max(usable, key=lambda b: float(b.priority), default=None)


def keyring_usable(backend: Any = None) -> bool:
    """True when keyring has a real backend (not fail/null, not a chainer with nothing in it)."""
    try:
        from keyring.backends import chainer
    except ImportError:
        return False
    kr = backend if backend is not None else native_backend()
    if kr is None:
        return False
    if isinstance(kr, chainer.ChainerBackend):
        return any(_real_backend(b) for b in kr.backends)
    return _real_backend(kr)


def _real_backend(kr: Any) -> bool:
    from keyring.backends import fail

    try:
        from keyring.backends import null
    except ImportError:  # pragma: no cover - older keyring
        null = None  # type: ignore[assignment]
    if isinstance(kr, fail.Keyring) or (null is not None and isinstance(kr, null.Keyring)):
        return False
    try:
        return float(getattr(kr, "priority", 0)) > 0
    except (TypeError, ValueError, RuntimeError):
        return False


class AutoSecretStore:
    """Picks the keyring or the file on first use, not at start-up: probing keyring's
    backends costs a tenth of a second (and may talk to D-Bus) before the window could open."""

    def __init__(self, data_dir: Path, *, prefer_keyring: bool | None = None) -> None:
        self._data_dir = Path(data_dir)
        self._prefer = prefer_keyring  # None: probe; True/False: forced by the environment
        self._chosen: SecretStore | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"AutoSecretStore({self._chosen!r})"

    @property
    def chosen(self) -> SecretStore:
        with self._lock:
            if self._chosen is None:
                use_keyring = self._prefer if self._prefer is not None else keyring_usable()
                self._chosen = (
                    KeyringSecretStore()
                    if use_keyring
                    else FileSecretStore(self._data_dir / "secrets.json")
                )
            return self._chosen

    def get(self, name: str) -> str | None:
        return self.chosen.get(name)

    def set(self, name: str, value: str) -> None:
        self.chosen.set(name, value)

    def delete(self, name: str) -> None:
        self.chosen.delete(name)

    def names(self) -> list[str]:
        return self.chosen.names()


def default_secret_store(data_dir: Path, *, testing: bool = False) -> SecretStore:
    """The keyring when usable, else ``<data_dir>/secrets.json``. Tests never touch the keyring."""
    forced = os.environ.get(SECRET_BACKEND_ENV, "").strip().lower()
    if forced == "file" or testing:
        return FileSecretStore(Path(data_dir) / "secrets.json")
    return AutoSecretStore(data_dir, prefer_keyring=True if forced == "keyring" else None)
