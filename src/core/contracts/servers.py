"""Model server addresses: one normal form, how a message names a server, where it runs.

The normal form is what a server's key is saved under, so ``HTTP://Box:1234/v1/`` and
``http://box:1234/v1`` are one server while ``/V1`` and ``/v1`` stay two: scheme and host are
case-free, a path is not.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit

from studyhall.core.contracts.settings import LOCAL_PROVIDERS, RoleModel, Timeouts
from studyhall.core.contracts.text_patterns import SPACE, WHITESPACE
from studyhall.core.errors import InvalidInput

_DEFAULT_PORTS = {"http": 80, "https": 443}
_BAD_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
MAX_ADDRESS = 500
_ESC = "%[0-9A-Fa-f]{2}"
_PORT = r"(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[0-9]{1,4})"
# Everything ``parse_server_address`` accepts, as one regular expression (blank included): the
# OpenAPI document gives it, so a client can check an address before sending it. An http(s)
# scheme, optional "user:key@", a host (ASCII: an international name in its xn-- form; or an
# [IPv6] literal), an optional port, then a path or query; escapes well formed; no space,
# control character or #fragment.
SERVER_ADDRESS_PATTERN = (
    rf"^{SPACE}*(?:[Hh][Tt][Tt][Pp][Ss]?://"
    rf"(?:(?:[A-Za-z0-9._~!$&'()*+,;=:-]|{_ESC})*@)?"
    rf"(?:\[[0-9A-Fa-f:.]+\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|{_ESC})+)(?::{_PORT}?)?"
    rf"(?:[/?](?:[^{WHITESPACE}#%\x00-\x1f\x7f]|{_ESC})*)?)?{SPACE}*$"
)
_ADDRESS = re.compile(SERVER_ADDRESS_PATTERN)
_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


def normal_address(url: str) -> str | None:
    """``scheme://host[:port][/path]``: scheme and host lower case, a default port dropped, the
    path's case kept and its trailing slashes removed, no credentials, query or fragment.
    None when ``url`` is not an http(s) address."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:  # a port that is not a number, an unbalanced IPv6 bracket
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if ":" in host:
        host = f"[{host}]"  # an IPv6 literal keeps its brackets in an address
    if port is not None and port != _DEFAULT_PORTS[scheme]:
        host = f"{host}:{port}"
    return f"{scheme}://{host}{parts.path.rstrip('/')}"


def server_label(url: str) -> str:
    """How a message names a server: ``127.0.0.1:1234``, or the host alone on a default port."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return url.strip()
    host = parts.hostname or url.strip()
    if port is not None and port != _DEFAULT_PORTS.get(parts.scheme.lower()):
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return host


def is_loopback(url: str) -> bool:
    """True for an http(s) address on this machine's loopback interface (``127.0.0.0/8``,
    ``::1``, ``localhost``); a LAN or remote address is not."""
    try:
        host = (urlsplit(url.strip()).hostname or "").lower()
    except ValueError:
        return False
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_near(url: str) -> bool:
    """True for a server on this machine or the local network (private, link-local or
    ``.local`` addresses): where a model may be a slow, cold-loading one on a small computer."""
    if is_loopback(url):
        return True
    try:
        host = (urlsplit(url.strip()).hostname or "").lower()
    except ValueError:
        return False
    if host.endswith((".local", ".lan")) or "." not in host:
        return bool(host)
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_private or address.is_link_local


@dataclass(frozen=True)
class ServerAddress:
    """A server address as typed in Settings, checked: the ``url`` to save (no credentials,
    no trailing slash) and the ``secret`` that was written into it, if any — a key, which
    belongs in the key store under the address, never in settings.json."""

    url: str
    secret: str | None = None


def parse_server_address(text: str) -> ServerAddress:
    """Check a typed model-server address; ``InvalidInput`` says what is wrong with it (never
    quoting it back: it may hold a key)."""
    url = text.strip()
    example = "e.g. http://localhost:11434 for Ollama"
    if len(url) > MAX_ADDRESS:
        raise InvalidInput(f"The server address is over {MAX_ADDRESS} characters.")
    if any(c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F for c in url):
        raise InvalidInput("The server address has a space, a line break or a control "
                           f"character in it; type the address alone, {example}.")
    if _BAD_ESCAPE.search(url):
        raise InvalidInput("The server address has a % that does not start an escape like %20; "
                           f"check what was pasted, {example}.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        raise InvalidInput(f"The server address is not a valid URL, {example}.") from None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        raise InvalidInput(f"The server address is not an http(s) URL, {example}.")
    if parts.fragment:
        raise InvalidInput("The server address cannot end with a #fragment.")
    if not _ADDRESS.match(url):  # what is left: a host we cannot read, a port over 65535
        raise InvalidInput(f"The server address is not a valid URL, {example}.")
    secret = None
    if parts.username is not None or parts.password is not None:
        # "https://user:key@host": the key goes to the key store, the address stays clean.
        secret = unquote(parts.password or parts.username or "") or None
        parts = parts._replace(netloc=parts.netloc.rpartition("@")[2])
    return ServerAddress(urlunsplit(parts).rstrip("/"), secret)


def without_credentials(url: str) -> str:
    """``url`` with any ``user:password@`` taken out (for showing an address saved before
    credentials were moved to the key store)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def is_near_model(model: RoleModel) -> bool:
    """Whether a role's model runs on this machine or the local network: a local provider
    (Ollama, LM Studio, ...) at its default address, or any model at a near address."""
    if model.api_base:
        return is_near(model.api_base)
    return model.model.partition("/")[0].lower() in LOCAL_PROVIDERS


def wait_seconds(model: RoleModel, timeouts: Timeouts) -> float:
    """How long a call to ``model`` waits for bytes: a near server's model may first load."""
    return timeouts.local_s if is_near_model(model) else timeouts.hosted_s
