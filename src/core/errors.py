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
    │   ├── ModelBadRequest        the provider rejected the request shape
    │   └── ModelNotConfigured     no model / no script for this role
    ├── SecretError                the secret store could not be used
    └── BusyError                  a turn already runs on this chat (HTTP 409)
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

    def __init__(self, message: str, *, role: str | None = None) -> None:
        super().__init__(message)
        self.role = role


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


class ModelBadRequest(ModelError):
    kind = "bad_request"


class ModelNotConfigured(ModelError):
    kind = "not_configured"


class SecretError(StudyhallError):
    pass


class BusyError(StudyhallError):
    pass
