"""One rule adds up model usage everywhere (turns, jobs, extraction runs, the chat view):
each figure sums what the calls reported, and a figure no call reported stays absent."""

from __future__ import annotations

from studyhall.core.contracts.chat import Usage, add_usage


def test_each_figure_sums_only_what_was_reported() -> None:
    first = Usage(input_tokens=10, output_tokens=2, cost_usd=None)
    second = Usage(input_tokens=5, output_tokens=None, cost_usd=0.25)
    assert add_usage(first, second) == Usage(input_tokens=15, output_tokens=2, cost_usd=0.25)
    assert add_usage(None, first, None) == first


def test_absent_is_never_zero() -> None:
    assert add_usage() is None
    assert add_usage(None, None) is None
    assert add_usage(Usage(), Usage()) is None  # calls that reported nothing add up to nothing
    only_cost = add_usage(Usage(cost_usd=0.5), Usage())
    assert only_cost == Usage(cost_usd=0.5)
    assert only_cost is not None and only_cost.input_tokens is None


def test_a_running_total_folds_call_by_call() -> None:
    total: Usage | None = None
    for call in (Usage(input_tokens=3), Usage(), Usage(input_tokens=4, cost_usd=0.1)):
        total = add_usage(total, call)
    assert total == Usage(input_tokens=7, cost_usd=0.1)
