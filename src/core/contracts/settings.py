"""User settings: the model per role, extraction budget, review limits. Secrets never live here."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import Field
from studyhall.core.contracts.base import Record

ModelRole = Literal[
    "prober",
    "teacher",
    "researcher",
    "demo_builder",
    "visual_maker",
    "extractor",
    "auditor",
    "labeler",
    "answerer",  # grounded answers over imported material (issue 10)
    "reranker",  # grades retrieved passages: answers / partial / related / no
    "rewriter",  # turns a follow-up question into a standalone search query (issue 10)
    # The workbench's writers (issue 8): one role each, so a fan-out runs them in parallel.
    "notes_writer",
    "flashcards_writer",
    "study_planner",
    "transcriber",  # speech to text for audio/video imported without captions (issue 16)
]
MODEL_ROLES: tuple[ModelRole, ...] = get_args(ModelRole)  # in the order Settings lists them
Effort = Literal["minimal", "low", "medium", "high"]
# litellm providers served on the learner's machine: they need no API key.
LOCAL_PROVIDERS = frozenset(
    {"ollama", "ollama_chat", "lm_studio", "hosted_vllm", "vllm", "llamafile", "xinference"}
)


class RoleModel(Record):
    model: str = Field(min_length=1)  # a litellm model id, e.g. "openai/gpt-4.1-mini"
    effort: Effort | None = None
    api_base: str | None = None  # Ollama / LM Studio / any OpenAI-compatible local server


_STRONG = "anthropic/claude-sonnet-4-5"
_CHEAP = "openai/gpt-4.1-mini"


def default_models() -> dict[ModelRole, RoleModel]:
    return {
        "prober": RoleModel(model=_STRONG, effort="low"),
        "teacher": RoleModel(model=_STRONG, effort="medium"),
        "researcher": RoleModel(model=_STRONG, effort="medium"),
        "demo_builder": RoleModel(model=_STRONG, effort="medium"),
        "visual_maker": RoleModel(model=_STRONG, effort="low"),
        "extractor": RoleModel(model=_CHEAP, effort="low"),
        "auditor": RoleModel(model=_CHEAP, effort="low"),
        "labeler": RoleModel(model=_CHEAP, effort="minimal"),
        "answerer": RoleModel(model=_CHEAP, effort="low"),
        "reranker": RoleModel(model=_CHEAP, effort="minimal"),
        "rewriter": RoleModel(model=_CHEAP, effort="minimal"),
        "notes_writer": RoleModel(model=_CHEAP, effort="low"),
        "flashcards_writer": RoleModel(model=_CHEAP, effort="low"),
        "study_planner": RoleModel(model=_CHEAP, effort="low"),
        "transcriber": RoleModel(model="openai/whisper-1"),
    }


def default_output_tokens() -> dict[ModelRole, int]:
    """The most tokens one answer of each role may take (issue 31): enough for its longest
    good answer, so a model that loops or runs on is stopped at the cap, not at a timeout."""
    return {
        "prober": 1_500, "teacher": 3_000, "researcher": 6_000, "demo_builder": 12_000,
        "visual_maker": 6_000, "extractor": 4_000, "auditor": 2_000, "labeler": 60,
        "answerer": 2_000, "reranker": 600, "rewriter": 200, "notes_writer": 6_000,
        "flashcards_writer": 4_000, "study_planner": 4_000,
    }


class Privacy(Record):
    """Personal data in prompts: always scrubbed for hosted providers (not a setting); for a
    model served on this machine it is the learner's choice."""

    scrub_local: bool = False


class Timeouts(Record):
    """Seconds a model call waits for its first byte, and for each next one, before giving up:
    a hosted provider answers within seconds; a model on this computer or the local network may
    first need minutes to load (that is not an error)."""

    hosted_s: float = Field(default=180, ge=1, le=3600)
    local_s: float = Field(default=900, ge=1, le=7200)


class DeckReview(Record):
    """An Anki deck's FSRS options, read from its collection on import: its optimised
    parameters (empty: the package's defaults) and the recall probability it schedules for."""

    parameters: list[float] = Field(default_factory=list, max_length=21)
    desired_retention: float = Field(default=0.9, ge=0.7, le=0.99)


class Settings(Record):
    models: dict[ModelRole, RoleModel] = Field(default_factory=default_models)
    chunk_tokens: int = Field(default=2000, ge=100, le=200_000)
    max_steps_per_turn: int = Field(default=8, ge=1, le=50)
    # Node embeddings (search, clusters, graph context): None = the bundled local MiniLM;
    # else a litellm embedding model id (e.g. "openai/text-embedding-3-small"), BYOK.
    embedding: RoleModel | None = None
    # Spaced review (FSRS): a daily cap on new cards and on reviews, so a backlog never comes
    # back as a wall; the recall probability FSRS schedules for.
    new_cards_per_day: int = Field(default=20, ge=0, le=1000)
    reviews_per_day: int = Field(default=200, ge=1, le=10_000)
    desired_retention: float = Field(default=0.9, ge=0.7, le=0.97)
    # The learner's day starts at this hour, local time (Anki's "next day starts at"): FSRS
    # counts the days between answers, and the caps the reviews of a day, from it.
    day_starts_hour: int = Field(default=4, ge=0, le=23)
    review_decks: dict[str, DeckReview] = Field(default_factory=dict)  # Anki deck → its options
    privacy: Privacy = Field(default_factory=Privacy)
    timeouts: Timeouts = Field(default_factory=Timeouts)
    # Why transcription is off (the chosen provider has no speech-to-text model); None: the
    # transcriber role runs. Choosing a provider sets it; saving a transcriber model clears it.
    transcription_off: str | None = None
    # Per role, the most tokens one answer may take (see ``default_output_tokens``).
    output_tokens: dict[ModelRole, Annotated[int, Field(ge=16, le=200_000)]] = Field(
        default_factory=default_output_tokens)

    def model_for(self, role: ModelRole) -> RoleModel:
        return self.models.get(role) or default_models()[role]

    def output_cap(self, role: ModelRole) -> int | None:
        """The role's cap on one answer's tokens; None: the role has none (the transcriber)."""
        cap = self.output_tokens.get(role) or default_output_tokens().get(role)
        return cap if cap is not None and cap > 0 else None
