"""The ChatStore contract, held against the in-memory store and the JSON file store alike."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from studyhall.adapters.fakes import InMemoryChatStore
from studyhall.adapters.store import JsonChatStore
from studyhall.core.contracts.chat import ChatRecord, Message
from studyhall.core.errors import NotFound, StoreError
from studyhall.core.ports.storage import ChatStore

from tests.support.records import at, chat, message, tool_message


class ChatStoreContract:
    """Subclasses provide ``store`` and ``reopen`` (a fresh view of the same data)."""

    @pytest.fixture
    def store(self) -> ChatStore:
        raise NotImplementedError

    @pytest.fixture
    def reopen(self, store: ChatStore) -> Callable[[], ChatStore]:
        raise NotImplementedError

    def test_created_chat_reads_back_equal(self, store: ChatStore, reopen) -> None:
        record = chat("chat_a", topic="Photosynthesis", messages=(message("m1"),))
        store.create(record)
        assert store.get("chat_a") == record
        assert reopen().get("chat_a") == record

    def test_unknown_or_hostile_id_is_none(self, store: ChatStore) -> None:
        assert store.get("chat_nope") is None
        assert store.get("../../etc/passwd") is None
        assert store.get("") is None

    def test_creating_an_existing_id_is_refused_and_keeps_the_original(self, store) -> None:
        store.create(chat("chat_a", topic="first"))
        with pytest.raises(StoreError, match="already exists"):
            store.create(chat("chat_a", topic="second"))
        assert store.get("chat_a").topic == "first"

    def test_list_is_newest_first_by_last_update(self, store: ChatStore) -> None:
        store.create(chat("chat_old", minute=0))
        store.create(chat("chat_mid", minute=1))
        store.create(chat("chat_new", minute=2))
        assert [s.id for s in store.list()] == ["chat_new", "chat_mid", "chat_old"]
        store.save_messages("chat_old", [message("m1")], at(5))
        summaries = store.list()
        assert [s.id for s in summaries] == ["chat_old", "chat_new", "chat_mid"]
        assert summaries[0].message_count == 1 and summaries[0].updated_at == at(5)

    def test_list_breaks_ties_by_creation_then_id(self, store: ChatStore) -> None:
        for cid in ("chat_b", "chat_a", "chat_c"):
            store.create(chat(cid, minute=3))
        assert [s.id for s in store.list()] == ["chat_c", "chat_b", "chat_a"]

    def test_save_messages_appends_new_ids_in_order(self, store: ChatStore, reopen) -> None:
        store.create(chat("chat_a"))
        saved = store.save_messages("chat_a", [message("m1"), message("m2")], at(1))
        saved = store.save_messages("chat_a", [message("m3")], at(2))
        assert [m.id for m in saved.messages] == ["m1", "m2", "m3"]
        assert saved.updated_at == at(2)
        assert reopen().get("chat_a") == saved

    def test_save_messages_upserts_by_id_in_place(self, store: ChatStore) -> None:
        store.create(chat("chat_a"))
        store.save_messages("chat_a", [message("m1", "a"), message("m2", "b")], at(1))
        saved = store.save_messages("chat_a", [message("m1", "a, edited")], at(2))
        assert [m.id for m in saved.messages] == ["m1", "m2"]
        assert saved.messages[0].parts[0].text == "a, edited"

    def test_a_replayed_save_adds_nothing(self, store: ChatStore) -> None:
        store.create(chat("chat_a"))
        batch = [message("m1"), message("m2")]
        first = store.save_messages("chat_a", batch, at(1))
        again = store.save_messages("chat_a", batch, at(1))
        assert again == first and len(again.messages) == 2

    def test_set_title(self, store: ChatStore, reopen) -> None:
        store.create(chat("chat_a"))
        store.set_title("chat_a", "Light and leaves", at(3))
        got = reopen().get("chat_a")
        assert got.title == "Light and leaves" and got.updated_at == at(3)
        assert store.list()[0].title == "Light and leaves"

    def test_changing_an_unknown_chat_is_not_found(self, store: ChatStore) -> None:
        with pytest.raises(NotFound):
            store.save_messages("chat_nope", [message("m1")], at())
        with pytest.raises(NotFound):
            store.set_title("chat_nope", "x", at())
        with pytest.raises(NotFound):
            store.save_messages("../chat_a", [message("m1")], at())
        assert store.list() == []

    def test_invalid_chat_is_refused_and_never_written(self, store: ChatStore) -> None:
        bad = ChatRecord.model_construct(
            id="chat_bad",
            created_at=at(),
            updated_at="not a time",
            messages=(),
            topic=None,
            title=None,
        )
        with pytest.raises(StoreError, match="Refused to save chat chat_bad"):
            store.create(bad)
        with pytest.raises(StoreError, match="expected a ChatRecord"):
            store.create({"id": "chat_dict"})  # type: ignore[arg-type]
        with pytest.raises(StoreError, match="chat id may only contain"):
            store.create(chat("../escape"))
        assert store.get("chat_bad") is None and store.list() == []

    def test_invalid_message_is_refused_and_the_chat_unchanged(self, store: ChatStore) -> None:
        store.create(chat("chat_a", messages=(message("m1"),)))
        before = store.get("chat_a")
        robot = Message.model_construct(
            id="m2", role="robot", parts=(), created_at=at(), agent=None, usage=None
        )
        with pytest.raises(StoreError, match="does not fit ChatRecord"):
            store.save_messages("chat_a", [message("m9"), robot], at(1))
        with pytest.raises(StoreError, match="expected Message"):
            store.save_messages("chat_a", [{"id": "m3"}], at(1))  # type: ignore[list-item]
        unwritable = tool_message("m4", "call_1", {"thing": object()})
        with pytest.raises(StoreError, match="cannot be written as JSON"):
            store.save_messages("chat_a", [unwritable], at(1))
        assert store.get("chat_a") == before

    def test_the_store_keeps_what_was_saved_not_a_live_reference(self, store: ChatStore) -> None:
        live = {"questions": ["q1"]}
        store.create(chat("chat_a"))
        store.save_messages("chat_a", [tool_message("m1", "call_1", live)], at(1))
        live["questions"].append("q2")
        assert store.get("chat_a").messages[0].parts[0].input == {"questions": ["q1"]}

    def test_concurrent_saves_to_one_chat_lose_nothing(self, store: ChatStore) -> None:
        store.create(chat("chat_a"))

        def writer(k: int) -> None:
            for i in range(10):
                store.save_messages("chat_a", [message(f"m{k}_{i}")], at(i))

        threads = [threading.Thread(target=writer, args=(k,)) for k in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(store.get("chat_a").messages) == 60


class TestInMemoryChatStore(ChatStoreContract):
    @pytest.fixture
    def store(self) -> ChatStore:
        return InMemoryChatStore()

    @pytest.fixture
    def reopen(self, store: ChatStore) -> Callable[[], ChatStore]:
        return lambda: store


class TestJsonChatStore(ChatStoreContract):
    @pytest.fixture
    def root(self, tmp_path: Path) -> Path:
        return tmp_path / "chats"

    @pytest.fixture
    def store(self, root: Path) -> ChatStore:
        return JsonChatStore(root)

    @pytest.fixture
    def reopen(self, root: Path) -> Callable[[], ChatStore]:
        return lambda: JsonChatStore(root)
