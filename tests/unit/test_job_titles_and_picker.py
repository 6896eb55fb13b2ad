"""Learner-facing names: a running job says what it is doing ("Writing flashcards on …"), and the
desktop window's folder picker hands back only the folder the learner chose."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from studyhall.core.workbench.kinds import headline, job_title
from studyhall.desktop.window import FolderPicker


def test_a_running_job_is_named_by_what_it_does() -> None:
    args = {"topic": "Obsidian internal links", "count": 8}
    assert headline("flashcards", args).endswith("Obsidian internal links")
    assert job_title("flashcards", args) == "Writing flashcards on Obsidian internal links"
    assert job_title("flashcards", {}) == "Writing flashcards"


class FakeWindow:
    def __init__(self, chosen: Any) -> None:
        self.chosen = chosen
        self.kinds: list[object] = []

    def create_file_dialog(self, kind: object) -> Any:
        self.kinds.append(kind)
        return self.chosen


@pytest.fixture
def webview(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    module = types.ModuleType("webview")
    module.FOLDER_DIALOG = "folder"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "webview", module)
    return module


@pytest.mark.parametrize(("chosen", "expected"), [(("/home/me/Vault",), "/home/me/Vault"),
                                                  (None, None), ((), None)])
def test_the_folder_picker_returns_the_chosen_folder(webview: types.ModuleType, chosen: Any,
                                                     expected: str | None) -> None:
    picker = FolderPicker()
    assert picker.pick_folder() is None  # no window yet
    window = FakeWindow(chosen)
    picker.attach(window)
    assert picker.pick_folder() == expected
    assert window.kinds == ["folder"]
