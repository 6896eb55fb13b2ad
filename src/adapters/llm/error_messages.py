"""What a failed model call says to the learner: what happened, named as they configured it
("your server at 127.0.0.1:1234", "anthropic"), the provider's own reason when it gave one,
and the one thing that fixes this cause — unreachable, answered with an error, refused the key,
rejected the request, or broke off mid-answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from studyhall.core.contracts.servers import is_near, normal_address, server_label

# Where each fix is in the window: a provider's key and a server's address in the first step, a
# key for a server by address under API keys, one role's model under Advanced.
KEYS = "Settings → Where your models run"
SERVER_KEYS = "Settings → API keys"
MODELS = "Settings → Advanced → Models"
TIMEOUTS = "Settings → Advanced → Timeouts"
_LOCAL_NAMES = {"ollama": "Ollama", "ollama_chat": "Ollama", "lm_studio": "LM Studio",
                "hosted_vllm": "vLLM", "vllm": "vLLM", "llamafile": "llamafile",
                "xinference": "Xinference"}


@dataclass(frozen=True)
class CallTarget:
    """What a call was aimed at; enough to write a precise message (never holds the key)."""

    role: str
    model: str
    provider: str
    api_base: str | None = None
    local: bool = False
    timeout: float | None = None  # seconds the call may wait for a byte

    @property
    def who(self) -> str:
        return self.role.replace("_", " ")

    @property
    def where(self) -> str:
        """The server as the learner set it up: an address they typed, a local server, or a
        hosted provider's name."""
        if self.api_base:
            return f"your server at {server_label(self.api_base)}"
        if self.local:
            return f"your local {_LOCAL_NAMES.get(self.provider, self.provider)} server"
        return self.provider

    @property
    def near(self) -> bool:
        """On this machine or the local network: a model that may be slow to load."""
        return self.local if not self.api_base else is_near(self.api_base)

    @property
    def key_name(self) -> str:
        """The address (or provider) a key for this server is saved under in Settings."""
        if self.api_base:
            return normal_address(self.api_base) or self.api_base
        return self.provider


@dataclass(frozen=True)
class Facts:
    """What is known about one failure besides its kind."""

    attempts: int = 1
    status: int | None = None
    detail: str = ""  # the provider's reason, trimmed and masked
    key_sent: bool = True
    unreachable: bool = False  # no HTTP answer at all (refused, DNS, reset before a status)
    in_call: bool = False  # a stream cut while a tool call (a question) was arriving


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tries(attempts: int) -> str:
    return f" after {attempts} tries" if attempts > 1 else ""


def _said(status: int | None, default: int | None, detail: str) -> str:
    """``(500: model failed to load)``, ``(500)``, or ``(model failed to load)``."""
    code = status or default
    if code and detail:
        return f" ({code}: {detail})"
    if code or detail:
        return f" ({code or detail})"
    return ""


def message(kind: str, t: CallTarget, f: Facts) -> str:
    who, where, model = t.who, t.where, t.model
    said = _said(f.status, None, f.detail)
    if kind == "auth":
        if not t.api_base and not t.local:  # a hosted provider's 401 says nothing more
            return (f"The {who}'s key for {t.provider} was refused ({f.status or 401}). Open "
                    f"{KEYS} to replace it.")
        if f.key_sent:
            return (f"{_cap(where)} refused the {who}'s key{_said(f.status, 401, f.detail)}. "
                    f"Replace the key saved for {t.key_name} in {SERVER_KEYS}.")
        return (f"{_cap(where)} asks the {who} for a key{_said(f.status, 401, f.detail)} and "
                f"none is saved for it. Add a key for {t.key_name} in {SERVER_KEYS}.")
    if kind == "forbidden":
        return (f"The {who}'s key for {where} may not use {model}{_said(f.status, 403, f.detail)}. "
                f"Replace the key in {KEYS}, or pick another model in {MODELS}.")
    if kind == "rate_limit":
        return (f"{_cap(where)} is rate-limiting the {who}{_said(f.status, 429, f.detail)}"
                f"{_tries(f.attempts)}. Wait a minute and try again, or pick another model in "
                f"{MODELS}.")
    if kind == "context_too_long":
        return (f"The conversation is too long for the {who}'s model ({model}). Start a new "
                f"session, or pick a model with a larger context window in {MODELS}.")
    if kind == "timeout":
        waited = f" within {t.timeout:g} s" if t.timeout else " in time"
        if t.near:
            return (f"{_cap(where)} did not answer the {who} ({model}){waited}. A local model "
                    f"can take minutes to load the first time: try again, or allow it more time "
                    f"in {TIMEOUTS}.")
        return (f"{_cap(where)} did not answer the {who} ({model}){waited}. Try again; if it "
                f"keeps happening, check your connection or pick a faster model in {MODELS}.")
    if kind == "not_found":
        return (f"{_cap(where)} does not know the model '{model}' set for the {who}"
                f"{_said(f.status, 404, f.detail)}. Pick another model in {MODELS}"
                + (", or load that model in your server first." if t.near else "."))
    if kind == "stream_cut":
        what = "while a question was arriving" if f.in_call else "mid-answer"
        return (f"The connection to {where} broke off {what} for the {who}"
                f"{_said(None, None, f.detail)}. What arrived is kept; press Try again to have "
                f"the {who} answer again from there.")
    if kind == "server" and f.unreachable:
        if t.near:
            return (f"Nothing answered at {t.api_base or where} for the {who} ({model})"
                    f"{_tries(f.attempts)}. Start your local model server (Ollama, LM Studio, "
                    f"...) or fix its address in {KEYS}.")
        if t.api_base:
            return (f"Nothing answered at {t.api_base} for the {who} ({model})"
                    f"{_tries(f.attempts)}. Check the address in {KEYS} and your "
                    f"connection, then try again.")
        return (f"{_cap(where)} is unreachable for the {who}{_tries(f.attempts)}"
                f"{_said(None, None, f.detail)}. Check your connection and try again in a "
                f"minute, or pick another model in {MODELS}.")
    if kind == "server":
        fix = ("Check the server's window or log (the model may have failed to load), then try "
               "again." if t.near else
               f"Try again in a minute, or pick another model in {MODELS}.")
        return (f"{_cap(where)} answered the {who} with an error{_said(f.status, 500, f.detail)}"
                f"{_tries(f.attempts)}. {fix}")
    if kind == "bad_request":
        return (f"{_cap(where)} rejected the {who}'s request{_said(f.status, 400, f.detail)}. "
                f"Check the {who}'s model in {MODELS}.")
    return (f"The {who}'s model call failed unexpectedly{said}. Try again; the log in the data "
            f"folder has details.")
