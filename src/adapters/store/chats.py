"""``JsonChatStore``: one chat record per file, ``chats/<chat_id>.json``, replaced atomically."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from studyhall.adapters.store.folder import RecordFolder
from studyhall.adapters.store.shape_guard import checked, is_safe_id, require_safe_id
from studyhall.adapters.store.shared_semantics import newest_first, summarize, upsert_messages
from studyhall.core.contracts.chat import ChatRecord, ChatSummary, Message
from studyhall.core.errors import NotFound, StoreError


class JsonChatStore:
    def __init__(self, root: Path) -> None:
        self._folder: RecordFolder[ChatRecord, ChatSummary] = RecordFolder(
            Path(root), ChatRecord, "chat", summarize
        )

    def __repr__(self) -> str:
        return f"JsonChatStore({str(self._folder.root)!r})"

    def create(self, record: ChatRecord) -> None:
        record, data = checked(ChatRecord, record, f"chat {getattr(record, 'id', '?')}")
        require_safe_id("chat", record.id)
        with self._folder.locks.hold(record.id):
            if self._folder.exists(record.id):
                raise StoreError(
                    f"Could not create chat {record.id}: a chat with this id already exists; "
                    "nothing was changed."
                )
            self._folder.write(record.id, data, record)

    def get(self, chat_id: str) -> ChatRecord | None:
        return self._folder.load(chat_id)

    def list(self) -> list[ChatSummary]:
        return newest_first(self._folder.scan())

    def save_messages(self, chat_id: str, messages: Sequence[Message], at: datetime) -> ChatRecord:
        self._check_id(chat_id)
        with self._folder.locks.hold(chat_id):
            record = self._require(chat_id)
            updated, data = checked(
                ChatRecord, upsert_messages(record, messages, at), f"chat {chat_id}"
            )
            self._folder.write(chat_id, data, updated)
            return updated

    def set_title(self, chat_id: str, title: str, at: datetime) -> None:
        self._check_id(chat_id)
        with self._folder.locks.hold(chat_id):
            record = self._require(chat_id)
            updated, data = checked(
                ChatRecord,
                record.model_copy(update={"title": title, "updated_at": at}),
                f"chat {chat_id}",
            )
            self._folder.write(chat_id, data, updated)

    def _require(self, chat_id: str) -> ChatRecord:
        record = self._folder.load(chat_id)
        if record is None:
            raise NotFound(f"There is no chat {chat_id!r}. It may have been deleted.")
        return record

    @staticmethod
    def _check_id(chat_id: str) -> None:
        # Before taking a lock: a lock is kept per id, and no such chat can exist anyway.
        if not is_safe_id(chat_id):
            raise NotFound(f"There is no chat {chat_id!r}. It may have been deleted.")
