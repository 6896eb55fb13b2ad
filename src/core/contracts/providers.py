"""The providers a learner picks in one step, and the model every role gets from that choice.

One row per provider: its litellm prefix, a strong model for the roles that teach and build,
a cheap one for the roles that extract, check and label, and a speech-to-text model where the
provider has one (else why transcription is off). Hosted ids are ones litellm's bundled model
map knows (``tests/unit/test_provider_choices.py`` checks them offline); a local server runs
the one model the learner names, at an address on this machine or the local network.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from studyhall.core.contracts.servers import ServerAddress, is_near, parse_server_address
from studyhall.core.contracts.settings import MODEL_ROLES, Effort, ModelRole, RoleModel, Settings
from studyhall.core.errors import InvalidInput

ProviderId = Literal["openai", "anthropic", "gemini", "openrouter", "mistral", "groq",
                     "ollama", "lm_studio", "llamacpp"]
PROVIDER_IDS: tuple[ProviderId, ...] = get_args(ProviderId)
Tier = Literal["strong", "cheap"]
_EFFORT_ORDER: tuple[Effort, ...] = get_args(Effort)
# Every chat role's tier and effort (the transcriber is not a chat role: it gets its own row).
ROLE_TIERS: dict[ModelRole, tuple[Tier, Effort]] = {
    "prober": ("strong", "low"), "teacher": ("strong", "medium"),
    "researcher": ("strong", "medium"), "demo_builder": ("strong", "medium"),
    "visual_maker": ("strong", "low"),
    "extractor": ("cheap", "low"), "auditor": ("cheap", "low"), "labeler": ("cheap", "minimal"),
    "answerer": ("cheap", "low"), "reranker": ("cheap", "minimal"),
    "rewriter": ("cheap", "minimal"), "notes_writer": ("cheap", "low"),
    "flashcards_writer": ("cheap", "low"), "study_planner": ("cheap", "low"),
}
CHAT_ROLES: tuple[ModelRole, ...] = tuple(r for r in MODEL_ROLES if r != "transcriber")
MAX_MODEL_NAME = 200


@dataclass(frozen=True)
class ProviderChoice:
    id: ProviderId
    label: str
    prefix: str  # the litellm provider prefix of every id this row sets
    strong: str | None = None  # hosted only: a local server runs the model the learner names
    cheap: str | None = None
    transcriber: str | None = None  # a speech-to-text model, where the provider has one
    no_transcriber: str | None = None  # else why transcription is off
    lowest_effort: Effort | None = "minimal"  # None: the models take no effort setting
    address: str | None = None  # a local server's usual address
    key_hint: str | None = None  # where a hosted provider's key comes from

    @property
    def local(self) -> bool:
        return self.address is not None


def _no_speech(label: str) -> str:
    return (f"Transcription is off: {label} has no speech-to-text model. Lectures with captions "
            "(.vtt/.srt beside the video) import without one; to transcribe audio, set a "
            "transcriber under Settings → Advanced.")


PROVIDER_CHOICES: tuple[ProviderChoice, ...] = (
    ProviderChoice("openai", "OpenAI", "openai", "openai/gpt-5.1", "openai/gpt-4.1-mini",
                   "openai/whisper-1", key_hint="platform.openai.com → API keys"),
    ProviderChoice("anthropic", "Anthropic", "anthropic", "anthropic/claude-sonnet-4-5",
                   "anthropic/claude-haiku-4-5", no_transcriber=_no_speech("Anthropic"),
                   key_hint="console.anthropic.com → API keys"),
    ProviderChoice("gemini", "Google Gemini", "gemini", "gemini/gemini-2.5-pro",
                   "gemini/gemini-2.5-flash", "gemini/gemini-3.5-transcribe",
                   key_hint="aistudio.google.com → Get API key"),
    # OpenRouter passes its own ids through (litellm's map lists none under openrouter/):
    # these are the Anthropic and OpenAI models above, as OpenRouter names them.
    ProviderChoice("openrouter", "OpenRouter", "openrouter",
                   "openrouter/anthropic/claude-sonnet-4.5", "openrouter/openai/gpt-4.1-mini",
                   no_transcriber=_no_speech("OpenRouter"), lowest_effort="low",
                   key_hint="openrouter.ai → Keys"),
    ProviderChoice("mistral", "Mistral", "mistral", "mistral/mistral-large-latest",
                   "mistral/mistral-small-latest", "mistral/voxtral-mini-latest",
                   lowest_effort=None, key_hint="console.mistral.ai → API keys"),
    ProviderChoice("groq", "Groq", "groq", "groq/openai/gpt-oss-120b", "groq/openai/gpt-oss-20b",
                   "groq/whisper-large-v3-turbo", lowest_effort="low",
                   key_hint="console.groq.com → API keys"),
    ProviderChoice("ollama", "Ollama", "ollama_chat", no_transcriber=_no_speech("Ollama"),
                   lowest_effort=None, address="http://localhost:11434"),
    ProviderChoice("lm_studio", "LM Studio", "lm_studio", no_transcriber=_no_speech("LM Studio"),
                   lowest_effort=None, address="http://localhost:1234/v1"),
    # llama.cpp's llama-server speaks the OpenAI API; litellm reaches it as llamafile (also
    # llama.cpp), a provider that needs no key.
    ProviderChoice("llamacpp", "llama.cpp", "llamafile", no_transcriber=_no_speech("llama.cpp"),
                   lowest_effort=None, address="http://127.0.0.1:8080/v1"),
)
_BY_ID: dict[str, ProviderChoice] = {choice.id: choice for choice in PROVIDER_CHOICES}


def provider_choice(provider: str) -> ProviderChoice:
    choice = _BY_ID.get(provider.strip().lower())
    if choice is None:
        raise InvalidInput(f"Unknown provider {provider[:40]!r}. Choose one of: "
                           f"{', '.join(PROVIDER_IDS)}.")
    return choice


def _effort(choice: ProviderChoice, wanted: Effort) -> Effort | None:
    if choice.lowest_effort is None:
        return None
    floor = _EFFORT_ORDER.index(choice.lowest_effort)
    return _EFFORT_ORDER[max(floor, _EFFORT_ORDER.index(wanted))]


def local_model_id(choice: ProviderChoice, typed: str | None) -> str:
    """The litellm id of the model a local server runs, from the name the learner typed
    (``llama3.2``, or with its provider prefix); ``InvalidInput`` says what is missing."""
    where = {"ollama": "the NAME column of `ollama list`",
             "lm_studio": "the model's identifier in LM Studio's Developer tab",
             "llamacpp": "the model file the server was started with (any name works)"}
    name = (typed or "").strip()
    for prefix in (choice.prefix, choice.id, "ollama"):
        if name.lower().startswith(prefix + "/"):
            name = name[len(prefix) + 1:].strip()
    if not name:
        raise InvalidInput(f"Type the name of the model {choice.label} serves: "
                           f"{where.get(choice.id, 'as the server lists it')}, e.g. llama3.2.")
    if len(name) > MAX_MODEL_NAME or any(c.isspace() or ord(c) < 0x20 for c in name):
        raise InvalidInput("A model name has no spaces or line breaks and is at most "
                           f"{MAX_MODEL_NAME} characters, e.g. llama3.2 or qwen2.5:7b.")
    return f"{choice.prefix}/{name}"


def local_address(choice: ProviderChoice, typed: str | None) -> ServerAddress:
    """The checked address of a local server: an http(s) URL on this machine or the local
    network (blank: the server's usual address); ``InvalidInput`` says what is wrong."""
    if typed is None or not typed.strip():
        return ServerAddress(choice.address or "")
    address = parse_server_address(typed)
    if not is_near(address.url):
        raise InvalidInput(f"{choice.label} runs on this computer or your local network; that "
                           "address is neither. Type e.g. " f"{choice.address}, or choose a "
                           "hosted provider.")
    return address


def models_for(choice: ProviderChoice, local_model: str | None = None,
               api_base: str | None = None) -> dict[ModelRole, RoleModel]:
    """Every chat role's model from one provider, and its transcriber where it has one."""
    models: dict[ModelRole, RoleModel] = {}
    for role in CHAT_ROLES:
        tier, effort = ROLE_TIERS[role]
        model = local_model if choice.local else (choice.strong if tier == "strong" else choice.cheap)
        if not model:
            raise InvalidInput(f"{choice.label} needs a model name.")
        models[role] = RoleModel(model=model, effort=_effort(choice, effort), api_base=api_base)
    if choice.transcriber:
        models["transcriber"] = RoleModel(model=choice.transcriber)
    return models


def with_provider(settings: Settings, choice: ProviderChoice, local_model: str | None = None,
                  api_base: str | None = None) -> Settings:
    """``settings`` with every role on ``choice``; transcription off (with the reason) where
    the provider has no speech-to-text model — the transcriber is never given a chat model."""
    models = {**settings.models, **models_for(choice, local_model, api_base)}
    return settings.model_copy(update={"models": models,
                                       "transcription_off": choice.no_transcriber})


def chosen_provider(settings: Settings) -> ProviderId | None:
    """The provider every chat role uses now, or None when the roles are mixed."""
    prefixes = {settings.model_for(r).model.partition("/")[0].lower() for r in CHAT_ROLES}
    bases = {settings.model_for(r).api_base for r in CHAT_ROLES}
    for choice in PROVIDER_CHOICES:
        if prefixes == {choice.prefix} and (choice.local or bases == {None}):
            return choice.id
    return None
