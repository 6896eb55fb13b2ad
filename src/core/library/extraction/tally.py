"""What merged runs added up to: the counts and usage an extraction run or an import reports."""

from __future__ import annotations

from dataclasses import dataclass, field

from studyhall.core.contracts.chat import Usage, add_usage
from studyhall.core.library.extraction.merger import MergePlan


def plan_usage(plan: MergePlan) -> Usage | None:
    """The model calls' tokens and cost a plan's checkpoint records; None when no call reported
    any (a model-free plan, or a provider that reports nothing: absence is not zero)."""
    cp = plan.checkpoint
    if cp is None or (cp.input_tokens, cp.output_tokens, cp.cost_usd) == (None, None, None):
        return None
    return Usage(input_tokens=cp.input_tokens, output_tokens=cp.output_tokens,
                 cost_usd=cp.cost_usd)


@dataclass
class MergeTally:
    batches: int = 0  # merge plans counted
    propositions: int = 0  # new nodes
    evidence: int = 0  # evidence added to existing nodes
    edges: int = 0
    drops: list[str] = field(default_factory=list)
    usage: Usage | None = None  # None while no model call reported any

    @property
    def dropped(self) -> int:
        return len(self.drops)

    def add(self, plan: MergePlan) -> None:
        self.batches += 1
        self.propositions += len(plan.propositions)
        self.evidence += len(plan.identities)
        self.edges += len(plan.edges)
        self.drops += [str(d) for d in plan.drops]
        self.usage = add_usage(self.usage, plan_usage(plan))
