"""The core's error tree. Adapters translate library exceptions into these (``raise ... from e``);
the HTTP layer turns them into clear messages with a status code.

    StudyhallError
    ├── StoreError                 persistence failed (disk full, permission, corrupt file)
    │   └── NotFound               the entity does not exist
    ├── ModelError                 a model call failed; ``role`` names the model role
    │   ├── ModelAuthError         the key was refused
    │   ├── ModelRateLimited       the provider throttled us (retried before surfacing)
    │   ├── ModelContextTooLong    the prompt does not fit the model
    │   ├── ModelTimeout           no answer in time
    │   ├── ModelProviderDown      5xx / connection refused
    │   │   └── ModelStreamCut     the answer broke off after some of it was shown
    │   ├── ModelBadRequest        the provider rejected the request shape
    │   ├── ModelOutputInvalid     structured output was not valid JSON of the asked shape
    │   └── ModelNotConfigured     no model / no key / no script for this role
    │       ├── ModelScriptInvalid     the STUDYHALL_SCRIPT file is malformed
    │       └── ModelNetworkDisabled   a real call was attempted while real calls are off (tests)
    ├── SecretError                the secret store could not be used
    ├── BusyError                  a turn already runs on this chat (HTTP 409 + Retry-After)
    ├── InvalidInput               the request itself is malformed (HTTP 400)
    │   ├── InvalidAnswer          an answer does not fit its question (wrong count, index...)
    │   ├── InvalidQuiz            a recorded quiz is malformed and cannot be shown or graded
    │   ├── NotEnoughReadYet       Quiz me: too little text up to the learner's place
    │   └── EmptyScope             an artifact's scope holds no material to write from (422)
    ├── Conflict                   the request contradicts the record, e.g. answered twice (409)
    ├── JobFailed                  a background job's work failed its checks after every attempt
    └── SandboxError               the headless browser that checks demos/diagrams cannot run
"""

from __future__ import annotations


class StudyhallError(Exception):
    """Base of every error the app raises on purpose; ``str()`` is safe to show a user."""


class StoreError(StudyhallError):
    pass


class NotFound(StoreError):
    pass


class ModelError(StudyhallError):
    kind = "model"

    def __init__(
        self,
        message: str,
        *,
        role: str | None = None,
        provider: str | None = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message)
        self.role = role
        self.provider = provider
        self.attempts = attempts  # how many provider calls were made before giving up


class ModelAuthError(ModelError):
    kind = "auth"


class ModelRateLimited(ModelError):
    kind = "rate_limit"


class ModelContextTooLong(ModelError):
    kind = "context_too_long"


class ModelTimeout(ModelError):
    kind = "timeout"


class ModelProviderDown(ModelError):
    kind = "server"


class ModelStreamCut(ModelProviderDown):
    """The stream broke off after part of the answer was shown: nothing is retried on its own
    (what was shown cannot be taken back); the learner's Try again re-runs from the last
    complete point."""

    kind = "stream_cut"


class ModelBadRequest(ModelError):
    kind = "bad_request"


class ModelOutputInvalid(ModelError):
    kind = "invalid_output"


class ModelNotConfigured(ModelError):
    kind = "not_configured"


class ModelScriptInvalid(ModelNotConfigured):
    kind = "script_invalid"


class ModelNetworkDisabled(ModelNotConfigured):
    kind = "network_disabled"


class SecretError(StudyhallError):
    pass


class BusyError(StudyhallError):
    pass


class InvalidInput(StudyhallError):
    pass


class InvalidAnswer(InvalidInput):
    """``errors`` lists every problem; ``str()`` joins them for the learner."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = list(errors)


class InvalidQuiz(InvalidInput):
    def __init__(self, errors: list[str]) -> None:
        super().__init__(
            "This quiz is malformed and cannot be graded (" + "; ".join(errors) + "). "
            "Write a message to skip it; the teacher will ask again."
        )
        self.errors = list(errors)


class NotEnoughReadYet(InvalidInput):
    """Quiz me found too little text up to the learner's place (at the very start, say); the
    window offers a quiz on the whole source instead (asked with no place)."""


class EmptyScope(InvalidInput):
    """The scope asked for (a source, a session, a topic...) has nothing to write from; the
    message says what the learner can do first."""


class Conflict(StudyhallError):
    pass


class JobFailed(StudyhallError):
    """A job's result failed its checks ``attempts`` times; ``problems`` are the last ones."""

    def __init__(self, message: str, *, attempts: int = 1, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.attempts = attempts
        self.problems = list(problems or [])


class SandboxError(StudyhallError):
    pass
