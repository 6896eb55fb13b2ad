"""axe-core (vendored under ``tests/support/vendor/``, test-only) run in a page: its critical and
serious violations, and a plain-words report of them for a failing test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
BLOCKING = ("critical", "serious")

_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160),
                                 why: (n.failureSummary || "").split("\\n").slice(0, 3).join(" / ") })),
  }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """The page's critical and serious axe violations (axe injected through the driver, which
    the page's CSP does not govern: the app's own CSP stays as shipped)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    return [v for v in page.evaluate(_RUN) if v["impact"] in BLOCKING]


def report(found: list[dict[str, Any]]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['impact']}: {v['id']} — {v['help']} ({len(v['nodes'])} elements)")
        for node in v["nodes"][:8]:
            lines.append(f"    {node['target']}\n      {node['html']}\n      {node['why']}")
    return "\n".join(lines)
