"""``InMemoryChatStore``: the ChatStore contract held in a dict (tests, fakes)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime

from studyhall.adapters.store.shape_guard import checked, is_safe_id, require_safe_id
from studyhall.adapters.store.shared_semantics import newest_first, summarize, upsert_messages
from studyhall.core.contracts.chat import ChatRecord, ChatSummary, Message
from studyhall.core.errors import NotFound, StoreError


class InMemoryChatStore:
    def __init__(self) -> None:
        self._chats: dict[str, ChatRecord] = {}
        self._lock = threading.RLock()

    def create(self, record: ChatRecord) -> None:
        record, _ = checked(ChatRecord, record, f"chat {getattr(record, 'id', '?')}")
        require_safe_id("chat", record.id)
        with self._lock:
            if record.id in self._chats:
                raise StoreError(
                    f"Could not create chat {record.id}: a chat with this id already exists; "
                    "nothing was changed."
                )
            self._chats[record.id] = record

    def get(self, chat_id: str) -> ChatRecord | None:
        if not is_safe_id(chat_id):
            return None
        with self._lock:
            return self._chats.get(chat_id)

    def list(self) -> list[ChatSummary]:
        with self._lock:
            return newest_first([summarize(r) for r in self._chats.values()])

    def save_messages(self, chat_id: str, messages: Sequence[Message], at: datetime) -> ChatRecord:
        with self._lock:
            record = self._require(chat_id)
            updated, _ = checked(
                ChatRecord, upsert_messages(record, messages, at), f"chat {chat_id}"
            )
            self._chats[chat_id] = updated
            return updated

    def set_title(self, chat_id: str, title: str, at: datetime) -> None:
        with self._lock:
            record = self._require(chat_id)
            updated, _ = checked(
                ChatRecord,
                record.model_copy(update={"title": title, "updated_at": at}),
                f"chat {chat_id}",
            )
            self._chats[chat_id] = updated

    def _require(self, chat_id: str) -> ChatRecord:
        record = self.get(chat_id)
        if record is None:
            raise NotFound(f"There is no chat {chat_id!r}. It may have been deleted.")
        return record
