"""The SecretStore contract, run against the in-memory fake, the 0600 file and the OS keyring
API (with a keyring backend held in memory), plus what only the file store must guarantee."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading

import keyring.backend
import pytest
from keyring.backends import chainer, fail
from studyhall.adapters import secrets as secrets_module
from studyhall.adapters.fakes import InMemorySecretStore
from studyhall.adapters.secrets import (
    FileSecretStore,
    KeyringSecretStore,
    default_secret_store,
    keyring_usable,
)
from studyhall.core.errors import SecretError
from studyhall.server.redaction import RedactingSecretStore, Redactor

KEY = "sk-ant-api03-" + "Ab9" * 12


class DictKeyring(keyring.backend.KeyringBackend):
    """A real keyring backend (goes through keyring's API) that keeps passwords in a dict."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service, username):
        return self.passwords.get((service, username))

    def set_password(self, service, username, password):
        self.passwords[(service, username)] = password

    def delete_password(self, service, username):
        from keyring.errors import PasswordDeleteError

        if self.passwords.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


class SecretStoreContract:
    def make(self, tmp_path):
        raise NotImplementedError

    @pytest.fixture
    def store(self, tmp_path):
        return self.make(tmp_path)

    def test_missing_key_is_none(self, store):
        assert store.get("openai") is None
        assert store.names() == []

    def test_set_then_get(self, store):
        store.set("anthropic", KEY)
        assert store.get("anthropic") == KEY
        assert store.names() == ["anthropic"]

    def test_overwrite_keeps_one_entry(self, store):
        store.set("openai", "sk-first-aaaaaaaaaaaa")
        store.set("openai", "sk-second-bbbbbbbbbbb")
        assert store.get("openai") == "sk-second-bbbbbbbbbbb"
        assert store.names() == ["openai"]

    def test_delete_and_delete_missing(self, store):
        store.set("openai", KEY)
        store.set("groq", "gsk_" + "x" * 20)
        store.delete("openai")
        store.delete("openai")  # absent: not an error
        store.delete("never-set")
        assert store.get("openai") is None
        assert store.names() == ["groq"]

    def test_names_are_sorted(self, store):
        for name in ("openrouter", "anthropic", "mistral"):
            store.set(name, KEY)
        assert store.names() == ["anthropic", "mistral", "openrouter"]

    def test_unicode_and_long_values_round_trip(self, store):
        value = "ключ-" + "é" * 500
        store.set("custom", value)
        assert store.get("custom") == value

    @pytest.mark.parametrize("value", ["", "   "])
    def test_empty_value_is_refused(self, store, value):
        with pytest.raises(SecretError, match="empty"):
            store.set("openai", value)
        assert store.get("openai") is None

    @pytest.mark.parametrize("name", ["", "  ", "x" * 201])
    def test_bad_name_is_refused(self, store, name):
        with pytest.raises(SecretError):
            store.set(name, KEY)

    def test_repr_never_shows_a_value(self, store):
        store.set("anthropic", KEY)
        assert KEY not in repr(store) and KEY not in str(store)


class TestInMemorySecretStore(SecretStoreContract):
    def make(self, tmp_path):
        return InMemorySecretStore()


class TestFileSecretStore(SecretStoreContract):
    def make(self, tmp_path):
        return FileSecretStore(tmp_path / "secrets.json")

    def test_file_is_0600_from_the_first_write(self, tmp_path):
        store = self.make(tmp_path)
        store.set("openai", KEY)
        assert stat.S_IMODE((tmp_path / "secrets.json").stat().st_mode) == 0o600
        assert json.loads((tmp_path / "secrets.json").read_text()) == {"openai": KEY}

    def test_a_loosened_file_is_tightened_on_read(self, tmp_path):
        store = self.make(tmp_path)
        store.set("openai", KEY)
        os.chmod(tmp_path / "secrets.json", 0o644)
        assert store.get("openai") == KEY
        assert stat.S_IMODE((tmp_path / "secrets.json").stat().st_mode) == 0o600

    def test_corrupt_file_is_a_clear_error_that_quotes_nothing(self, tmp_path):
        (tmp_path / "secrets.json").write_text('{"openai": "' + KEY + '", oops')
        store = self.make(tmp_path)
        with pytest.raises(SecretError) as caught:
            store.get("openai")
        message = str(caught.value)
        assert "not valid JSON" in message and "Settings" in message
        assert KEY not in message
        assert caught.value.__cause__ is None and caught.value.__suppress_context__
        # And it refuses to overwrite keys it could not read.
        with pytest.raises(SecretError):
            store.set("groq", "gsk_" + "y" * 20)
        assert KEY in (tmp_path / "secrets.json").read_text()

    def test_wrong_shape_is_a_clear_error(self, tmp_path):
        (tmp_path / "secrets.json").write_text(json.dumps({"openai": 42}))
        with pytest.raises(SecretError, match="unexpected shape"):
            self.make(tmp_path).names()

    def test_a_failed_write_leaves_the_old_file_whole(self, tmp_path, monkeypatch):
        store = self.make(tmp_path)
        store.set("openai", KEY)

        def disk_full(src, dst):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(secrets_module.os, "replace", disk_full)
        with pytest.raises(SecretError, match="No space left") as caught:
            store.set("openai", "sk-new-" + "n" * 20)
        assert "sk-new-" not in str(caught.value)
        monkeypatch.undo()
        assert store.get("openai") == KEY
        assert sorted(p.name for p in tmp_path.iterdir()) == ["secrets.json"]  # no temp left

    def test_concurrent_writers_lose_nothing(self, tmp_path):
        store = self.make(tmp_path)
        names = [f"provider{i}" for i in range(20)]
        threads = [threading.Thread(target=store.set, args=(n, KEY + n)) for n in names]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert store.names() == sorted(names)
        assert FileSecretStore(tmp_path / "secrets.json").get("provider7") == KEY + "provider7"


class TestKeyringSecretStore(SecretStoreContract):
    def make(self, tmp_path):
        return KeyringSecretStore(service="studyhall-test", backend=DictKeyring())

    def test_names_survive_a_new_store_on_the_same_keyring(self, tmp_path):
        backend = DictKeyring()
        KeyringSecretStore(service="s", backend=backend).set("openai", KEY)
        again = KeyringSecretStore(service="s", backend=backend)
        assert again.names() == ["openai"] and again.get("openai") == KEY

    def test_a_locked_keyring_is_a_clear_error(self, tmp_path):
        from keyring.errors import KeyringLocked

        class Locked(DictKeyring):
            def get_password(self, service, username):
                raise KeyringLocked("locked")

        with pytest.raises(SecretError, match="STUDYHALL_SECRET_BACKEND=file"):
            KeyringSecretStore(backend=Locked()).get("openai")


class TestRedactingSecretStore(SecretStoreContract):
    def make(self, tmp_path):
        return RedactingSecretStore(FileSecretStore(tmp_path / "secrets.json"), Redactor())

    def test_every_value_it_touches_is_masked(self, tmp_path):
        redactor = Redactor()
        FileSecretStore(tmp_path / "secrets.json").set("local", "plain-words-secret")
        store = RedactingSecretStore(FileSecretStore(tmp_path / "secrets.json"), redactor)
        store.set("other", "another-plain-one")
        assert redactor.redact("x another-plain-one y") == "x [redacted] y"
        assert "plain-words-secret" in redactor.redact("plain-words-secret")  # not seen yet
        store.preload()
        assert redactor.redact("plain-words-secret") == "[redacted]"


def test_keyring_usable_only_with_a_real_backend():
    assert not keyring_usable(fail.Keyring())

    class EmptyChain(chainer.ChainerBackend):
        backends = ()  # what keyring builds when no backend is viable

    class FullChain(chainer.ChainerBackend):
        backends = (DictKeyring(),)

    assert not keyring_usable(EmptyChain())
    assert keyring_usable(FullChain())
    assert keyring_usable(DictKeyring())


def test_default_store_is_the_file_under_tests_and_when_forced(tmp_path, monkeypatch):
    assert isinstance(default_secret_store(tmp_path, testing=True), FileSecretStore)
    monkeypatch.setenv("STUDYHALL_SECRET_BACKEND", "file")
    store = default_secret_store(tmp_path)
    assert isinstance(store, FileSecretStore) and store.path == tmp_path / "secrets.json"


def test_default_store_prefers_a_usable_keyring_decided_on_first_use(tmp_path, monkeypatch):
    monkeypatch.delenv("STUDYHALL_SECRET_BACKEND", raising=False)
    probes = []

    def usable():
        probes.append(1)
        return True

    monkeypatch.setattr(secrets_module, "keyring_usable", usable)
    store = default_secret_store(tmp_path)
    assert probes == []  # nothing probed at start-up
    assert isinstance(store.chosen, KeyringSecretStore) and probes == [1]
    store.chosen  # noqa: B018 - chosen once, kept
    assert probes == [1]
    monkeypatch.setattr(secrets_module, "keyring_usable", lambda: False)
    assert isinstance(default_secret_store(tmp_path).chosen, FileSecretStore)
    monkeypatch.setenv("STUDYHALL_SECRET_BACKEND", "keyring")
    assert isinstance(default_secret_store(tmp_path).chosen, KeyringSecretStore)


class TestAutoSecretStore(SecretStoreContract):
    def make(self, tmp_path):
        return secrets_module.AutoSecretStore(tmp_path, prefer_keyring=False)


class PreferredKeyring(DictKeyring):
    priority = 5  # type: ignore[assignment]


class UnusableKeyring(DictKeyring):
    @keyring.backend.properties.classproperty
    def priority(cls) -> float:  # how keyring's backends say "not here" (no D-Bus, no library)
        raise RuntimeError("no such service here")


@pytest.fixture
def fresh_native_backend(monkeypatch):
    monkeypatch.delenv("PYTHON_KEYRING_BACKEND", raising=False)
    secrets_module.native_backend.cache_clear()
    yield secrets_module.native_backend
    secrets_module.native_backend.cache_clear()


def test_the_most_preferred_usable_native_keyring_backend_is_chosen(fresh_native_backend,
                                                                     monkeypatch):
    import keyring.core

    monkeypatch.setattr(keyring.core, "load_config", lambda: None)  # no keyringrc.cfg
    here = f"{__name__}."
    names = tuple(here + n for n in ("UnusableKeyring", "DictKeyring", "PreferredKeyring"))
    monkeypatch.setattr(secrets_module, "_NATIVE_BACKENDS", {})
    monkeypatch.setattr(secrets_module, "_UNIX_BACKENDS", names)
    monkeypatch.setattr(secrets_module.sys, "platform", "linux")
    assert isinstance(fresh_native_backend(), PreferredKeyring)
    assert keyring_usable()
    monkeypatch.setattr(secrets_module, "_UNIX_BACKENDS", names[:1])
    secrets_module.native_backend.cache_clear()
    assert fresh_native_backend() is None and not keyring_usable()  # then: the key file


def test_a_keyring_backend_the_user_configured_for_keyring_is_honoured(fresh_native_backend,
                                                                       monkeypatch):
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", f"{__name__}.PreferredKeyring")
    assert isinstance(fresh_native_backend(), PreferredKeyring)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    secrets_module.native_backend.cache_clear()
    assert not keyring_usable()  # keyring switched off by the user: the key file


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux backends")
def test_choosing_the_keyring_backend_imports_only_the_native_ones(tmp_path):
    # keyring.get_keyring() imports every backend (and plugin) to rank them: ~0.3 s beside the
    # starting server. The other platforms' backends must stay unimported.
    script = (
        "import json, sys\n"
        "from studyhall.adapters.secrets import native_backend, keyring_usable\n"
        "native_backend(); keyring_usable()\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('keyring.backends.'))))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_KEYRING_BACKEND"}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"))
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env=env, timeout=120, check=True)
    imported = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert imported.isdisjoint({"keyring.backends.Windows", "keyring.backends.macOS",
                                "keyring.backends.libsecret"}), imported
