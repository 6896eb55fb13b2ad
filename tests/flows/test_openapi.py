"""The OpenAPI document is generated from the route table, details included where declared."""

from __future__ import annotations

from pydantic import BaseModel
from starlette.endpoints import HTTPEndpoint
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from studyhall.server.http.openapi import describe, openapi_document


class NewChat(BaseModel):
    topic: str | None = None


class ChatId(BaseModel):
    id: str


@describe(request=NewChat, response=ChatId, responses={409: "A turn is running"})
async def create(request):
    """Create a chat.

    Longer explanation.
    """
    return JSONResponse({})


@describe(stream=True)
async def turn(request):
    """Run a turn."""


class Items(HTTPEndpoint):
    async def get(self, request):
        """List items."""

    async def delete(self, request):
        """Delete items."""


def test_document_covers_mounts_models_streams_and_class_endpoints():
    routes = [
        Mount("/api/chats", routes=[Route("/", create, methods=["POST"]),
                                    Route("/{chat_id}/messages", turn, methods=["POST"])]),
        Route("/api/items", Items),
        Route("/not-api", create),
    ]
    doc = openapi_document(routes, title="T", version="1")
    assert set(doc["paths"]) == {"/api/chats/", "/api/chats/{chat_id}/messages", "/api/items"}
    post = doc["paths"]["/api/chats/"]["post"]
    assert post["summary"] == "Create a chat."
    assert post["description"] == "Longer explanation."
    assert post["requestBody"]["content"]["application/json"]["schema"]["title"] == "NewChat"
    assert "id" in post["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    assert post["responses"]["409"]["description"] == "A turn is running"
    stream = doc["paths"]["/api/chats/{chat_id}/messages"]["post"]
    assert "text/event-stream" in stream["responses"]["200"]["content"]
    assert stream["parameters"] == [
        {"name": "chat_id", "in": "path", "required": True, "schema": {"type": "string"}}
    ]
    items = doc["paths"]["/api/items"]
    assert items["get"]["summary"] == "List items." and items["delete"]["summary"] == "Delete items."
    operation_ids = [op["operationId"] for ops in doc["paths"].values() for op in ops.values()]
    assert len(operation_ids) == len(set(operation_ids))
