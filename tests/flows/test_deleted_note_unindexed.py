"""A note deleted from the vault leaves the ask index on the next import: its passages are no
longer retrieved or cited (the graph keeps what was learnt from it; the source says deleted)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from studyhall.core.library.sources.material_import import material_source_id
from studyhall.server.app import build_services
from studyhall.server.config import load_config

from tests.support.course import OverlapScorer
from tests.support.embedder import HashEmbedder
from tests.support.notes import make_vault, write
from tests.support.session_api import scripted_app

QUESTION = "Why do zebras have stripes?"
NOTE = "zoo/Zebras.md"


async def _cited_paths(runtime) -> list[str]:  # type: ignore[no-untyped-def]
    events = [e async for e in runtime.ask.answer(QUESTION, use_model=False)]
    sources = events[0]
    assert sources.name == "sources"
    return [s.path for s in sources.sources]


async def test_a_deleted_note_is_no_longer_cited(tmp_path: Path) -> None:
    vault = make_vault(tmp_path / "Vault", notes=4)
    write(vault, NOTE, "# Zebras\n\nZebras have stripes that confuse biting flies and predators.\n")
    # Fast stand-ins for the bundled MiniLM, wired before the app takes its ports.
    services = replace(build_services(load_config()), embedder=HashEmbedder(),
                       passage_scorer=OverlapScorer())
    async with scripted_app(None, services) as (_, runtime):
        assert services.search_index is not None

        await runtime.library.import_here(str(vault))
        assert NOTE in await _cited_paths(runtime)
        zebra = material_source_id("note", "Vault", NOTE)
        assert services.search_index.chunks(zebra)

        (vault / NOTE).unlink()
        report = await runtime.library.import_here(str(vault))
        material = report.to_dict()["material"]
        assert report.deleted == [NOTE]
        assert material is not None and material["removed"] == 1

        assert services.search_index.chunks(zebra) == []
        assert NOTE not in await _cited_paths(runtime)
        # Reported once: the next import has nothing more to take out.
        material = (await runtime.library.import_here(str(vault))).to_dict()["material"]
        assert material is not None and material["removed"] == 0
