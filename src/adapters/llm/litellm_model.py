"""``LitellmChatModel``: the ``ChatModel`` port over litellm, for every role.

Per call: the role's model, effort, api_base and wait come from the settings store, the key
from the secret store (looked up by server address or provider, ``core.contracts.api_keys``);
the completion streams through ``litellm.acompletion(stream=True)``; failures are mapped to
``core.errors`` and retried with exponential backoff + jitter while retrying is safe (rate
limit, 5xx, connection) and nothing has been yielded yet — a break after that is a
``ModelStreamCut``. A structured request whose ``response_format`` the server rejects is asked
again in the next mode (``StructuredModes``). Every call — ok, failed or cancelled — leaves one
row in the audit log. With a ``ChatScript`` the same path runs, but each provider call is
answered offline from the script through litellm's ``mock_response``. With real calls off
(tests) only a server on a loopback address may be called.

litellm is imported on first use (off the event loop): importing it costs seconds.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from studyhall.adapters.llm.audit import AuditRow, JsonlAuditLog, prompt_fingerprint
from studyhall.adapters.llm.call_options import (
    NO_KEY_PLACEHOLDER,
    Capabilities,
    build_kwargs,
    resolve_target,
)
from studyhall.adapters.llm.litellm_errors import (
    CallTarget,
    is_retryable,
    names_response_format,
    retry_after_seconds,
    to_model_error,
)
from studyhall.adapters.llm.script import ChatScript, mock_response_for
from studyhall.adapters.llm.server_models import naming_what_it_serves
from studyhall.adapters.llm.stream_assembly import StreamAssembler
from studyhall.adapters.llm.structured_modes import StructuredModes
from studyhall.core.contracts.api_keys import key_names, needs_key
from studyhall.core.contracts.chat import Usage
from studyhall.core.contracts.models import FinishEvent, ModelEvent, ModelRequest, UsageEvent
from studyhall.core.contracts.servers import is_loopback
from studyhall.core.errors import (
    ModelError,
    ModelNetworkDisabled,
    ModelNotConfigured,
    StudyhallError,
)
from studyhall.core.ports.storage import SecretStore, SettingsStore

Sleep = Callable[[float], Awaitable[None]]
log = logging.getLogger(__name__)


def _import_litellm() -> ModuleType:
    # Without this litellm fetches its price map from the network at import time.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True  # no "Give Feedback / Get Help" banners on stdout
    litellm.modify_params = (
        True  # e.g. drop Anthropic thinking when a replayed turn lacks its blocks
    )
    return litellm


async def load_litellm() -> ModuleType:
    """The litellm module; the first import runs in a worker thread so the loop keeps serving."""
    module = sys.modules.get("litellm")
    if module is not None and getattr(module, "suppress_debug_info", False):
        return module
    return await asyncio.to_thread(_import_litellm)


def _new_call_id() -> str:
    return f"call_{uuid.uuid4().hex[:24]}"


class LitellmChatModel:
    def __init__(
        self,
        settings_store: SettingsStore,
        secret_store: SecretStore,
        audit: JsonlAuditLog | None,
        script: ChatScript | None = None,
        allow_network: bool = True,
        *,
        max_attempts: int = 4,
        backoff_base: float = 1.0,
        backoff_cap: float = 30.0,
        timeout: float | None = None,  # None: Settings → timeouts, by where the server runs
        sleep: Sleep = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
        acompletion: Callable[..., Awaitable[Any]] | None = None,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._settings = settings_store
        self._secrets = secret_store
        self._audit = audit
        self._script = script
        self._allow_network = allow_network
        self._max_attempts = max(1, max_attempts)
        self._backoff_base = backoff_base
        self._backoff_cap = backoff_cap
        self._timeout = timeout
        self._sleep = sleep
        self._jitter = jitter
        self._acompletion = acompletion  # a test seam; None means litellm.acompletion
        self._now = now
        self._caps = Capabilities()
        self._modes = StructuredModes()

    def backoff(self, attempt: int, exc: BaseException | None = None) -> float:
        """Seconds to wait before attempt ``attempt + 1``: exponential, capped, jittered."""
        delay = min(self._backoff_cap, self._backoff_base * (2 ** (attempt - 1)))
        delay *= 0.5 + 0.5 * self._jitter()  # "equal jitter": spread retries, keep a floor
        hint = retry_after_seconds(exc) if exc is not None else None
        if hint is not None:
            delay = max(delay, min(hint, self._backoff_cap))
        return delay

    async def stream(self, request: ModelRequest) -> AsyncIterator[ModelEvent]:
        started = time.perf_counter()
        state: dict[str, Any] = {"attempts": 0, "outcome": "error", "provider": None, "model": ""}
        try:
            settings = self._settings.load()
            role_model = settings.model_for(request.role)
            state["model"] = role_model.model
            litellm = await load_litellm()
            target, bare = resolve_target(litellm, request.role, role_model, settings.timeouts)
            if self._timeout is not None:
                target = replace(target, timeout=self._timeout)
            state["provider"] = target.provider
            mode = (
                self._modes.mode(target, self._caps.schema_mode(litellm, target, bare))
                if request.response_schema is not None
                else None
            )
            key, key_sent = await self._api_key(litellm, target)
            secrets = (key,) if key else ()
            call = self._acompletion or litellm.acompletion
            tries = 0  # calls that count towards max_attempts (a format probe does not)
            while True:
                state["attempts"] += 1
                tries += 1
                assembler = StreamAssembler(_new_call_id)
                yielded = False
                try:
                    kwargs = build_kwargs(
                        litellm, self._caps, request, target, bare, role_model,
                        timeout=target.timeout or 180.0, schema_mode=mode,
                        max_tokens=settings.output_cap(request.role),
                    )
                    if self._script is not None:
                        entry = await asyncio.to_thread(self._script.next, request.role)
                        kwargs["mock_response"] = mock_response_for(litellm, entry, target)
                    elif key:
                        kwargs["api_key"] = key
                    response = await call(**kwargs)
                    try:
                        async for chunk in response:
                            for delta in assembler.feed(chunk):
                                yielded = True
                                yield delta
                    finally:
                        await _close(response)
                    break
                except StudyhallError:
                    raise  # ours already (script exhausted, store failure): never retried
                except Exception as exc:
                    err = to_model_error(
                        litellm, exc, target, attempts=tries, secrets=secrets,
                        key_sent=key_sent, shown=yielded, in_call=assembler.calls_started,
                    )
                    if mode is not None and not yielded and names_response_format(err):
                        following = self._modes.refuse(target, mode)
                        if following is not None:
                            log.info("%s refused response_format %s; trying %s",
                                     target.where, mode, following)
                            mode, tries = following, tries - 1
                            continue
                    if isinstance(exc, litellm.NotFoundError) and target.near:
                        err = await naming_what_it_serves(err, target.model, target.api_base, key)
                    if yielded or not is_retryable(err) or tries >= self._max_attempts:
                        raise err from exc
                    await self._sleep(self.backoff(tries, exc))
            if mode is not None:
                self._modes.accept(target, mode)
            tool_calls = assembler.tool_calls()
            for tool_call in tool_calls:
                yield tool_call
            usage = Usage(
                input_tokens=assembler.input_tokens,
                output_tokens=assembler.output_tokens,
                cost_usd=_cost(litellm, assembler, target),
            )
            state["usage"] = usage
            yield UsageEvent(usage=usage, model=role_model.model)
            reason = assembler.finish_reason or ("tool_calls" if tool_calls else "stop")
            state["outcome"] = "ok"
            yield FinishEvent(reason=reason)
        except ModelError as e:
            state["outcome"] = e.kind
            raise
        except (asyncio.CancelledError, GeneratorExit):
            if state["outcome"] != "ok":  # a consumer leaving right after "finish" got it all
                state["outcome"] = "cancelled"
            raise
        finally:
            await self._write_audit(request, state, started)

    async def _api_key(self, litellm: ModuleType, target: CallTarget) -> tuple[str | None, bool]:
        """The key to send (None: let litellm use the environment) and whether it is a real
        one; raises when a key is needed and none exists."""
        if self._script is not None:
            return None, False  # scripted calls never leave the process
        if not self._allow_network and not (target.api_base and is_loopback(target.api_base)):
            raise ModelNetworkDisabled(
                f"Real model calls are off (STUDYHALL_TESTING=1), so the {target.who} cannot call "
                f"{target.model}. Set STUDYHALL_SCRIPT to a model script, point the role at a "
                f"server on 127.0.0.1, or unset STUDYHALL_TESTING.",
                role=target.role,
                provider=target.provider,
            )
        for name in key_names(target.provider, target.api_base):
            key = await asyncio.to_thread(self._secrets.get, name)
            if key:
                return key, True
        if not needs_key(target.provider, target.api_base):
            return (None if target.local else NO_KEY_PLACEHOLDER), False
        try:
            env = litellm.validate_environment(model=target.model)
            in_env = bool(env.get("keys_in_environment"))
        except Exception:  # noqa: BLE001 - litellm raises anything for odd ids; then: no env key
            in_env = False
        if in_env:
            return None, True
        raise ModelNotConfigured(
            f"No key for {target.provider} is saved, so the {target.who} cannot run. Open "
            f"Settings → Where your models run to add one, or pick a model on your computer.",
            role=target.role,
            provider=target.provider,
        )

    async def _write_audit(
        self, request: ModelRequest, state: dict[str, Any], started: float
    ) -> None:
        if self._audit is None:
            return
        usage: Usage = state.get("usage") or Usage()
        row = AuditRow(
            time=self._now().isoformat(),
            role=request.role,
            model=state["model"],
            provider=state["provider"],
            prompt_sha256=prompt_fingerprint(request.messages),
            messages=len(request.messages),
            tools=len(request.tools),
            input_tokens=usage.input_tokens,
            output_tokens=usage.output_tokens,
            cost_usd=usage.cost_usd,
            latency_ms=round((time.perf_counter() - started) * 1000, 1),
            outcome=state["outcome"],
            attempts=state["attempts"],
            scripted=self._script is not None,
            risk=request.risk,
        )
        try:
            # fsync off the event loop; the thread finishes the row even if we are cancelled.
            await asyncio.to_thread(self._audit.append, row)
        except StudyhallError:
            # Losing an audit row must not lose the learner's answer; the failure is logged.
            log.exception("could not write the audit row")


async def _close(response: Any) -> None:
    close = getattr(response, "aclose", None)
    if close is None:
        return
    try:
        await close()
    except Exception as e:  # noqa: BLE001 - closing a finished or broken stream is best effort
        log.debug("closing the model stream failed: %r", e)


def _cost(litellm: ModuleType, assembler: StreamAssembler, target: CallTarget) -> float | None:
    """USD for the call: litellm's reported cost, else priced from tokens; unknown stays None."""
    if assembler.reported_cost is not None:
        return assembler.reported_cost
    if assembler.input_tokens is None or assembler.output_tokens is None:
        return None
    try:
        priced = litellm.completion_cost(
            completion_response=litellm.ModelResponse(
                model=target.model,
                usage=litellm.Usage(
                    prompt_tokens=assembler.input_tokens,
                    completion_tokens=assembler.output_tokens,
                    total_tokens=assembler.input_tokens + assembler.output_tokens,
                ),
            ),
            model=target.model,
        )
    except Exception:  # noqa: BLE001 - an unpriced model (local, new, custom): unknown, not free
        return None
    # litellm prices unknown models at 0: a zero is "we don't know", never "it was free".
    return float(priced) if isinstance(priced, (int, float)) and priced > 0 else None
