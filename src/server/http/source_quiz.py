"""The reader's "Quiz me": ``POST /api/sources/{id}/quiz`` opens three questions on the source up
to the learner's place; ``POST /api/sources/{id}/quiz/{quiz_id}/answers`` grades them and
records each answer on the graph nodes its passage supports (``GET /api/mastery/{node}``)."""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from studyhall.core.contracts.source_quiz import SourceQuizAnswer, SourceQuizRequest
from studyhall.core.library.retrieval.chunking import SourcePlace
from studyhall.server.http.bodies import read_model
from studyhall.server.http.openapi import describe
from studyhall.server.runtime.library import Library


def routes(library: Library) -> list[BaseRoute]:

    @describe(summary="Quiz me: three questions on a source up to the learner's place",
              request=SourceQuizRequest,
              responses={400: "Not enough text up to here", 404: "No such source with passages"})
    async def open_quiz(request: Request) -> Response:
        """With a model (the answerer role) the questions are written from the passages read
        so far; with none, built from them (fill-in-the-blank, distractors from other
        passages). Nothing past the place is asked about; with no place, the whole source.
        Answer: ``quiz_id``, ``written_by`` (``model`` / ``passages``), ``passages``,
        ``up_to``, ``whole``, ``questions`` [{``prompt``, ``choices`` (in the order shown),
        ``passage`` (where it was written from)}]. Too little text up to the place: 400
        ``NotEnoughReadYet`` (ask with no place for the whole source)."""
        body = await read_model(request, SourceQuizRequest)
        where = SourcePlace(request.path_params["source_id"], t=body.t, page=body.page, at=body.at)
        return JSONResponse(await library.open_quiz(where))

    @describe(summary="Answer a Quiz me quiz: graded, and recorded on the graph",
              request=SourceQuizAnswer,
              responses={400: "The answer does not fit the quiz",
                         404: "No such open quiz (answered, or the app restarted)"})
    async def answer_quiz(request: Request) -> Response:
        """Graded like a session quiz (``correct``, ``total``, ``results`` with each verdict,
        the right answer and its explanation); ``recorded``: the nodes the answers were
        recorded on, each with its mastery after them."""
        body = await read_model(request, SourceQuizAnswer)
        sid, qid = request.path_params["source_id"], request.path_params["quiz_id"]
        out = await anyio.to_thread.run_sync(library.answer_quiz, sid, qid, body.as_answer())
        return JSONResponse(out)

    return [
        Route("/api/sources/{source_id}/quiz", open_quiz, methods=["POST"], name="open_source_quiz"),
        Route("/api/sources/{source_id}/quiz/{quiz_id}/answers", answer_quiz, methods=["POST"],
              name="answer_source_quiz"),
    ]
