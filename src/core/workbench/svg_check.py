"""The static check of a generated SVG: it must parse, and it must be inert and self-contained.

Parsed with the standard library's XML parser. Refused, each with a reason the visual maker can
act on: scripts, ``foreignObject`` (HTML inside SVG), event-handler attributes (``onclick``...),
``javascript:`` anywhere, references to anything outside the document (only ``#fragment``
and inline ``data:image/...`` are allowed), DOCTYPE/entity declarations, and stylesheets
that import. An SVG that passes still gets drawn in the sandbox before it is delivered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SVG_NS = "http://www.w3.org/2000/svg"
MAX_ELEMENTS = 5000

_FORBIDDEN = {"script", "foreignobject", "iframe", "object", "embed", "audio", "video",
              "handler", "listener", "canvas"}
_SAFE_DATA = re.compile(r"^data:image/(png|jpeg|jpg|gif|webp);base64,[A-Za-z0-9+/=\s]*$", re.IGNORECASE)
_CSS_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.IGNORECASE | re.DOTALL)


@dataclass(frozen=True)
class SvgCheck:
    svg: str  # the document to render (the SVG namespace added when it was missing)
    problems: tuple[str, ...]
    elements: int = 0


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1].lower()


def _add_namespace(svg: str) -> str:
    """``<svg ...>`` without ``xmlns`` does not draw as an image; adding it is harmless."""
    head_end = svg.find(">")
    head = svg[: head_end if head_end > 0 else len(svg)]
    if re.search(r"\sxmlns\s*=", head):
        return svg
    return re.sub(r"^<svg", f'<svg xmlns="{SVG_NS}"', svg, count=1, flags=re.IGNORECASE)


def _url_problem(where: str, value: str) -> str | None:
    v = value.strip()
    if not v or v.startswith("#") or _SAFE_DATA.match(v):
        return None
    return (f"{where} refers to {v[:80]!r}, outside the document; diagrams must be "
            "self-contained (use #ids for references, inline everything else).")


def _css_problems(where: str, css: str) -> list[str]:
    problems = []
    if re.search(r"@import", css, re.IGNORECASE):
        problems.append(f"{where} uses @import; put every style inline.")
    for match in _CSS_URL.finditer(css):
        problem = _url_problem(f"{where} url()", match.group(2))
        if problem:
            problems.append(problem)
    return problems


def check_svg(svg: str) -> SvgCheck:
    """Parse and inspect ``svg``; ``problems`` is empty when it may be rendered."""
    if re.search(r"<!doctype|<!entity", svg, re.IGNORECASE):
        return SvgCheck(svg, ("do not use a DOCTYPE or entity declarations; start at <svg>.",))
    if re.search(r"<\?xml-stylesheet", svg, re.IGNORECASE):
        return SvgCheck(svg, ("do not link stylesheets (<?xml-stylesheet?>); style inline.",))
    import xml.etree.ElementTree as ET  # on the first diagram, not at start-up

    svg = _add_namespace(svg.strip())
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as e:
        line, col = e.position
        problem = (f"the SVG is not well-formed XML (line {line}, column {col + 1}: "
                   f"{str(e).split(':')[0]}). Close every tag and quote every attribute.")
        return SvgCheck(svg, (problem,))
    if root.tag != f"{{{SVG_NS}}}svg":
        problem = f'the root element must be <svg> in the SVG namespace (xmlns="{SVG_NS}").'
        return SvgCheck(svg, (problem,))
    problems: list[str] = []
    count = 0
    for element in root.iter():
        count += 1
        name = _local(element.tag) if isinstance(element.tag, str) else ""
        if name in _FORBIDDEN:
            problems.append(f"<{name}> is not allowed: a diagram is a static picture "
                            "(no scripts, no embedded HTML or media).")
            continue
        for attr, value in element.attrib.items():
            local = _local(attr)
            if local.startswith("on"):
                problems.append(f"<{name}> has an event handler ({local}); remove it.")
            elif "javascript:" in value.replace(" ", "").lower():
                problems.append(f"<{name} {local}> contains javascript:; remove it.")
            elif local in ("href", "src"):
                url_problem = _url_problem(f"<{name} {local}>", value)
                if url_problem:
                    problems.append(url_problem)
            elif local == "style":
                problems.extend(_css_problems(f"<{name}> style", value))
            elif local in ("attributename",) and (value.lower().startswith("on")
                                                  or _local(value) == "href"):
                problems.append(f"<{name}> animates {value}; animate only presentation "
                                "attributes.")
            elif "url(" in value.lower():
                problems.extend(_css_problems(f"<{name} {local}>", value))
        if name == "style" and element.text:
            problems.extend(_css_problems("<style>", element.text))
    if count > MAX_ELEMENTS:
        problems.append(f"the SVG has {count} elements; keep it under {MAX_ELEMENTS}.")
    return SvgCheck(svg, tuple(dict.fromkeys(problems)), count)
