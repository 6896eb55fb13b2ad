"""Settings changes sent at the same time are all kept: every ``PUT /api/settings/*`` is one
load-modify-save under the store's lock, so no request overwrites another's change with the
copy it loaded before that change was saved."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from studyhall.core.contracts.settings import MODEL_ROLES

from tests.support.session_api import scripted_app


async def test_parallel_settings_changes_for_different_roles_are_all_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with scripted_app(None, data_dir=data) as (api, _):
        puts = [api.http.put("/api/settings/models",
                             json={"models": {role: {"model": f"ollama/model-{role}"}}})
                for role in MODEL_ROLES]
        puts += [api.http.put("/api/settings/privacy", json={"scrub_local": True}),
                 api.http.put("/api/settings/review", json={"new_cards_per_day": 7}),
                 api.http.put("/api/settings/review", json={"reviews_per_day": 77}),
                 api.http.put("/api/settings/timeouts", json={"hosted_s": 11}),
                 api.http.put("/api/settings/timeouts", json={"local_s": 22})]
        providers = ("openai", "groq", "mistral")
        puts += [api.http.put("/api/settings/keys",
                              json={"name": p, "value": f"sk-{p}-0123456789abcdef"})
                 for p in providers]
        answers = await asyncio.gather(*puts)
        assert [a.status_code for a in answers] == [200] * len(puts)
        view = (await api.http.get("/api/settings")).json()
    # Every acknowledged change is in the answer and in the file, whatever order they ran in.
    saved = json.loads((data / "settings.json").read_text())
    for role in MODEL_ROLES:
        assert saved["models"][role]["model"] == f"ollama/model-{role}", role
    assert {r["role"]: r["model"] for r in view["roles"]} == {
        role: f"ollama/model-{role}" for role in MODEL_ROLES}
    assert saved["privacy"]["scrub_local"] is True
    assert (saved["new_cards_per_day"], saved["reviews_per_day"]) == (7, 77)
    assert (saved["timeouts"]["hosted_s"], saved["timeouts"]["local_s"]) == (11, 22)
    assert sorted(k["name"] for k in view["keys"]) == sorted(providers)


async def test_twenty_parallel_changes_to_one_role_leave_one_of_them_whole(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with scripted_app(None, data_dir=data) as (api, _):
        sent = {f"ollama/try-{i}" for i in range(20)}
        answers = await asyncio.gather(*(
            api.http.put("/api/settings/models", json={"models": {"teacher": {"model": m}}})
            for m in sorted(sent)))
        assert {a.status_code for a in answers} == {200}
    saved = json.loads((data / "settings.json").read_text())  # valid JSON: replaced atomically
    assert saved["models"]["teacher"]["model"] in sent
    assert not [p.name for p in data.iterdir() if p.name.endswith(".tmp")]
