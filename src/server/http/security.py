"""The local server's front door: loopback Host, same-Origin writes, per-launch token, headers.

A pure ASGI middleware (not ``BaseHTTPMiddleware``) so SSE streams pass through untouched.
Order of checks: Host (DNS rebinding) -> Origin (CSRF) -> token bootstrap -> token on /api.
A header that must be single (Host, Origin) is refused when it comes twice. The bootstrap's
redirect is built from the raw request target and is always a same-origin path.

One page has headers of its own, ``/diagram-frame.html``: Mermaid writes ``<style>`` and
``style=""`` into the SVG it lays out, which the app page's CSP (``style-src 'self'``) refuses.
So diagrams are drawn in a frame of their own, sandboxed (an opaque origin: no cookie, no reach
into the app, no network) whose CSP allows inline styles and nothing else new; it runs only the
app's own two scripts and posts the SVG text back, which the reader shows as an ``<img>``. The
two scripts it loads are shared with that opaque origin.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, unquote_to_bytes

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Everything the page needs comes from the app itself: no external hosts, no inline script,
# no framing by anyone. A page that needs more (the sandboxed diagram frame) has its own below.
CONTENT_SECURITY_POLICY = "; ".join(  # noqa: FLY002 - one directive per line
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "media-src 'self' blob:",
        "worker-src 'self' blob:",
        "frame-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
    ("permissions-policy", "camera=(), microphone=(), geolocation=()"),
)

# --- the diagram frame: the one page with headers of its own (see the docstring) ----------

DIAGRAM_FRAME = "/diagram-frame.html"
DIAGRAM_CSP = "; ".join((  # noqa: FLY002 - one directive per line
    "sandbox allow-scripts",
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'unsafe-inline'",
    "img-src data:",
    "font-src 'self' data:",
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
))
DIAGRAM_SCRIPTS = frozenset({"/vendor/mermaid.js", "/js/diagram-frame.js"})


def page_headers(path: str) -> tuple[tuple[str, str], ...]:
    """Headers that replace the app's defaults for ``path`` (none for every other path)."""
    if path == DIAGRAM_FRAME:
        # The app frames it (SAMEORIGIN, frame-ancestors 'self'); nobody else can.
        return (("content-security-policy", DIAGRAM_CSP), ("x-frame-options", "SAMEORIGIN"))
    if path in DIAGRAM_SCRIPTS:  # public code, loaded by the sandboxed (opaque-origin) frame
        return (("cross-origin-resource-policy", "cross-origin"),)
    return ()

log = logging.getLogger("studyhall.http")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TOKEN_QUERY = "token"


def cookie_name(port: int) -> str:
    # Cookies ignore ports; two instances (two data dirs) must not overwrite each other's.
    return f"studyhall_{port}"


def loopback_hosts(host: str, port: int) -> frozenset[str]:
    names = {host, "127.0.0.1", "localhost"}
    return frozenset(f"{name}:{port}" for name in names)


class SecurityMiddleware:
    def __init__(self, app: ASGIApp, *, token: str, host: str, port: int) -> None:
        if not token:
            raise ValueError("the security middleware needs a per-launch token")
        self.app = app
        self._token = token.encode()
        self._port = port
        self._hosts = loopback_hosts(host, port)
        self._origins = frozenset(f"http://{h}" for h in self._hosts)
        self._cookie = cookie_name(port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        denial = self._deny(scope, headers)
        if denial is not None:
            status, body = denial
            # The raw target is logged on purpose: the log redactor masks any secret in it.
            query = scope.get("query_string", b"").decode("latin-1")
            log.warning(
                "[http] refused %s %s%s -> %d %s", scope.get("method", "WS"), scope.get("path", ""),
                f"?{query}" if query else "", status, body["error"],
            )
            await _reject(scope, send, status, body)
            return
        if (
            scope["type"] == "http"
            and scope["method"] == "GET"
            and not _is_api(scope)
            and self._has_query_token(scope)
        ):
            await self._bootstrap(scope, send)
            return
        await self.app(scope, receive, _with_headers(scope, send))

    # --- checks -----------------------------------------------------------------------------

    def _deny(self, scope: Scope, headers: Headers) -> tuple[int, dict[str, str]] | None:
        hosts = headers.getlist("host")
        if len(hosts) > 1:
            return 400, _error("bad_request", "More than one Host header.")
        host = hosts[0].strip().lower() if hosts else ""
        if not host:
            return 400, _error("bad_request", "Missing Host header.")
        if host not in self._hosts:
            # 421: this server does not serve that name (a DNS-rebinding page lands here).
            return 421, _error("misdirected", "This server only answers on its loopback address.")
        method = scope.get("method", "GET")
        origins = headers.getlist("origin")
        if len(origins) > 1:
            # Which one would a proxy or a browser have meant? Checking only the first would
            # let a second, foreign one through to anything that reads the last.
            return 403, _error("forbidden", "More than one Origin header: refused.")
        if scope["type"] == "websocket" or method not in SAFE_METHODS:
            origin = origins[0] if origins else None
            if origin is not None and origin.lower() not in self._origins:
                return 403, _error("forbidden", "Cross-origin requests are refused.")
            if headers.get("sec-fetch-site", "") == "cross-site":
                return 403, _error("forbidden", "Cross-site requests are refused.")
        if _is_api(scope) and not self._authorized(headers):
            return 401, _error(
                "unauthorized",
                "Missing or wrong launch token. Open Studyhall from its window or the URL it printed.",
            )
        return None

    def _authorized(self, headers: Headers) -> bool:
        auth = headers.get("authorization", "")
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and self._matches(value.strip()):
            return True
        return self._matches(_cookie_value(headers, self._cookie))

    def _matches(self, candidate: str | None) -> bool:
        return bool(candidate) and hmac.compare_digest(candidate.encode(), self._token)  # type: ignore[union-attr]

    @staticmethod
    def _has_query_token(scope: Scope) -> bool:
        query = scope.get("query_string", b"").decode("latin-1")
        return any(key == TOKEN_QUERY for key, _ in parse_qsl(query, keep_blank_values=True))

    async def _bootstrap(self, scope: Scope, send: Send) -> None:
        """``GET /path?token=T``: trade the token for a session cookie, then drop it from the URL."""
        pairs = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = next((value for key, value in pairs if key == TOKEN_QUERY), "")
        if not self._matches(given):
            await _reject(scope, send, 401, _error("unauthorized", "Wrong launch token."))
            return
        location = same_origin_target(scope)
        cookie = f"{self._cookie}={given}; Path=/; HttpOnly; SameSite=Strict"
        headers = [
            (b"location", location),
            (b"set-cookie", cookie.encode("latin-1")),
            (b"cache-control", b"no-store"),
            (b"content-length", b"0"),
        ]
        await _with_headers(scope, send)(
            {"type": "http.response.start", "status": 303, "headers": headers}
        )
        await send({"type": "http.response.body", "body": b""})


# --- helpers ----------------------------------------------------------------------------------

# Characters a path or query may carry as they are (RFC 3986 pchar, "/" and "?", and "%" of the
# escapes already there); every other byte — a backslash, a space, a control, non-ASCII — is
# percent-encoded, so no browser can read the target as another host ("/\\evil.example").
_PATH_SAFE = "/-._~!$&'()*+,;=:@%"
_QUERY_SAFE = _PATH_SAFE + "?"


def same_origin_target(scope: Scope) -> bytes:
    """Where ``GET /path?token=T`` sends the browser: the same path and query without the
    token, built from the raw request target (never the decoded path) as a path-absolute
    reference — "/" when the path could name another origin ("//host")."""
    raw: bytes = scope.get("raw_path") or scope.get("path", "/").encode("utf-8")
    path = quote(raw.split(b"?", 1)[0], safe=_PATH_SAFE)
    if not path.startswith("/") or path.startswith("//"):
        path = "/"
    kept = [
        quote(part, safe=_QUERY_SAFE)
        for part in scope.get("query_string", b"").split(b"&")
        if part and unquote_to_bytes(part.split(b"=", 1)[0].replace(b"+", b" ")) != TOKEN_QUERY.encode()
    ]
    return (path + ("?" + "&".join(kept) if kept else "")).encode("ascii")



def _is_api(scope: Scope) -> bool:
    path: str = scope.get("path", "")
    return path == "/api" or path.startswith("/api/")


def _error(code: str, message: str) -> dict[str, str]:
    return {"error": code, "message": message}


def _cookie_value(headers: Headers, name: str) -> str | None:
    for header in headers.getlist("cookie"):
        for part in header.split(";"):
            key, _, value = part.strip().partition("=")
            if key == name:
                return value
    return None


def _with_headers(scope: Scope, send: Send) -> Send:
    api = _is_api(scope)

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for key, value in page_headers(scope.get("path", "")):
                headers.setdefault(key, value)
            for key, value in _security_headers(api):
                if key not in headers:
                    headers.append(key, value)
        await send(message)

    return wrapped


def _security_headers(api: bool) -> Iterable[tuple[str, str]]:
    yield from SECURITY_HEADERS
    if api:
        yield ("cache-control", "no-store")


async def _reject(scope: Scope, send: Send, status: int, body: dict[str, str]) -> None:
    if scope["type"] == "websocket":
        # Close before accept: the handshake fails with 403 at the client.
        await send({"type": "websocket.close", "code": 1008})
        return
    payload = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    await _with_headers(scope, send)(
        {"type": "http.response.start", "status": status, "headers": headers}
    )
    await send({"type": "http.response.body", "body": payload})
