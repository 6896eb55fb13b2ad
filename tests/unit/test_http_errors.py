"""One error -> status mapping for every route: each error class of the app has a deliberate
status, waiting is said with ``Retry-After``, and the body is always ``{"error", "message"}``."""

from __future__ import annotations

import json

import pytest

# Each defines an error class of its own (the test must see them imported, run alone too).
import studyhall.adapters.embed.minilm
import studyhall.adapters.embed.onnx_export  # noqa: F401
from studyhall.core import errors as core
from studyhall.server.http.errors import BodyTooLarge, error_response, status_for

# Every error class and the status it answers with. A new error class fails this test until
# it is given a status here (and in server/http/errors.py when it differs from its parent's).
EXPECTED: dict[str, tuple[int, int | None]] = {
    "StudyhallError": (503, None),
    "StoreError": (500, None),
    "NotFound": (404, None),
    "ModelError": (502, None),
    "ModelAuthError": (401, None),
    "ModelRateLimited": (429, 30),
    "ModelContextTooLong": (502, None),
    "ModelTimeout": (504, None),
    "ModelProviderDown": (503, 30),
    "ModelStreamCut": (502, None),
    "ModelBadRequest": (502, None),
    "ModelOutputInvalid": (502, None),
    "ModelNotConfigured": (400, None),
    "ModelScriptInvalid": (400, None),
    "ModelNetworkDisabled": (400, None),
    "SecretError": (500, None),
    "BusyError": (409, 1),
    "InvalidInput": (400, None),
    "InvalidAnswer": (400, None),
    "InvalidQuiz": (400, None),
    "NotEnoughReadYet": (400, None),  # Quiz me at 0:00: the window offers the whole source
    "EmptyScope": (422, None),
    "BodyTooLarge": (413, None),
    "Conflict": (409, None),
    "JobFailed": (502, None),
    "SandboxError": (503, None),
    "EmbedderUnavailable": (503, None),
    "ExportStopped": (503, None),  # the app is stopping: its answer is not read anyway
}


def _all_error_classes() -> list[type[core.StudyhallError]]:
    found, todo = [], [core.StudyhallError]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo.extend(kind.__subclasses__())
    return [k for k in found if k.__module__.startswith("studyhall.")]


def _instance(kind: type[core.StudyhallError]) -> core.StudyhallError:
    if issubclass(kind, (core.InvalidAnswer, core.InvalidQuiz)):
        return kind(["the second choice is out of range"])
    return kind("What happened. What to do.")


def test_every_error_class_has_a_deliberate_status() -> None:
    names = {k.__name__ for k in _all_error_classes()}
    assert names == set(EXPECTED), "give the new error class a status in EXPECTED"


@pytest.mark.parametrize("kind", _all_error_classes(), ids=lambda k: k.__name__)
def test_each_error_answers_with_its_status_and_the_usual_body(
        kind: type[core.StudyhallError]) -> None:
    status, wait = EXPECTED[kind.__name__]
    error = _instance(kind)
    response = error_response(error)
    assert status_for(error) == status == response.status_code
    assert response.headers.get("retry-after") == (str(wait) if wait is not None else None)
    body = json.loads(bytes(response.body))
    assert body["error"] == kind.__name__ and body["message"] == str(error)
    assert {"error", "message"} <= set(body)


def test_a_model_error_also_says_its_kind_and_role() -> None:
    body = json.loads(bytes(error_response(core.ModelAuthError("Refused.", role="teacher")).body))
    assert body == {"error": "ModelAuthError", "message": "Refused.", "kind": "auth",
                    "role": "teacher"}


def test_conflict_is_409_everywhere_not_only_on_one_route() -> None:
    assert error_response(core.Conflict("Already answered.")).status_code == 409
    assert error_response(BodyTooLarge("Too big.")).status_code == 413
