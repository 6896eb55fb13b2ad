"""The learner's evidence per node, from both sources: the graph's trail (graded quiz answers,
the extractor's observations of a session) and the learner ledgers (review grades, the teacher's
validated observations, what the learner said of themselves unless they took it back). Also which nodes are reviewable and how much each one matters.

A node is *reviewable* once there is evidence about the learner on it — a quiz answer, an
observation from a session, a review grade or a teacher's observation — i.e. once it was studied,
not merely imported: a vault of 5,000 notes must not become 5,000 new cards. Grading any node
makes it reviewable too (the learner chose to), and so does keeping a flashcard on it (the
learner asked to review it: a kept card is not evidence of knowing, so it moves no score).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime

from studyhall.core.contracts.learner import (
    AssertionRetracted,
    CardSuspended,
    FlashcardKept,
    FlashcardsRetired,
    GradeUndone,
    LearnerAsserted,
    LearnerObserved,
    ReviewGraded,
    SourceQuizAnswered,
)
from studyhall.core.library.graph.view import GraphSnapshot, SnapshotNode, signals_of
from studyhall.core.library.learner.cards import Graded
from studyhall.core.library.learner.flashcards import Flashcards
from studyhall.core.library.learner.mastery import Signal
from studyhall.core.library.learner.queue import Reviewable


def aware(at: datetime) -> datetime:
    """A naive time (a hand-edited line) is taken as UTC, so times always compare."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class LearnerEvidence:
    """The learner ledgers read once, grouped by node (records about nodes the graph does not
    hold are kept: the node may be stated later). ``follow``: absorbed node -> the node it now
    is (``GraphSnapshot.absorbed``): a grade given to a node later folded into another (a
    heading node into its note's topic) counts for that one — ledgers are never rewritten."""

    def __init__(self, grades: Iterable[ReviewGraded] = (),
                 observations: Iterable[LearnerObserved] = (),
                 quiz_answers: Iterable[SourceQuizAnswered] = (),
                 flashcards: Iterable[FlashcardKept] = (),
                 retired: Iterable[FlashcardsRetired] = (),
                 follow: Mapping[str, str] | None = None,
                 assertions: Iterable[LearnerAsserted] = (),
                 retractions: Iterable[AssertionRetracted] = (),
                 undone: Iterable[GradeUndone] = (),
                 suspensions: Iterable[CardSuspended] = ()) -> None:
        self.flashcards = Flashcards(flashcards, retired, follow)
        self.signals: dict[str, list[Signal]] = {}
        self.grades: dict[str, list[Graded]] = {}
        at_node = (lambda node_id: node_id) if not follow else (lambda n: follow.get(n, n))
        # Cards out of review (the latest word per node holds; its evidence still counts).
        self.suspended: set[str] = set()
        for sus in suspensions:
            if sus.suspended:
                self.suspended.add(at_node(sus.node_id))
            else:
                self.suspended.discard(at_node(sus.node_id))
        taken_back_grades = {u.grade_id for u in undone}  # as if never given
        for g in grades:
            if g.id in taken_back_grades:
                continue
            at = aware(g.at)
            node = at_node(g.node_id)
            self.signals.setdefault(node, []).append(Signal(at, "review", g.grade, g.id))
            self.grades.setdefault(node, []).append(Graded(at, g.grade))
        for o in observations:
            self.signals.setdefault(at_node(o.node_id), []).append(
                Signal(aware(o.at), "teacher", o.level, o.id, note=o.note))
        self.quiz_answers: list[tuple[str, SourceQuizAnswered]] = []  # (its node now, answer)
        for a in quiz_answers:  # "Quiz me" on a source: a graded answer like a session quiz's
            self.quiz_answers.append((at_node(a.node_id), a))
            self.signals.setdefault(at_node(a.node_id), []).append(
                Signal(aware(a.at), "quiz", a.verdict, f"{a.quiz_id}/q{a.question + 1}"))
        # The learner's own word, unless they took it back (an undo is a retraction record).
        taken_back = {r.assertion_id for r in retractions}
        self.assertions: dict[str, list[LearnerAsserted]] = {}
        for said in assertions:
            if said.id in taken_back:
                continue
            node = at_node(said.node_id)
            self.assertions.setdefault(node, []).append(said)
            self.signals.setdefault(node, []).append(
                Signal(aware(said.at), "learner", said.claim, said.id, note=said.note))

    def graded(self, node_id: str) -> tuple[Graded, ...]:
        return tuple(sorted(self.grades.get(node_id, ())))


def node_signals(node: SnapshotNode) -> list[Signal]:
    """The graph's evidence on a node: its graded answers and its session observations."""
    _, quiz, observations, _ = node.rows()
    return signals_of(quiz, observations)


def reviewables(snapshot: GraphSnapshot, learner: LearnerEvidence) -> list[Reviewable]:
    """Every reviewable node with its grades, since when it is reviewable (its first evidence)
    and its importance: how much evidence it has, and how many links."""
    degree: Counter[str] = Counter()
    for e in snapshot.edges:
        degree[e.source] += 1
        degree[e.target] += 1
    out: list[Reviewable] = []
    for node in snapshot.nodes:
        if node.id in learner.suspended:
            continue  # the learner took it out of review
        evidence, quiz, observations, _ = node.rows()
        extra = learner.signals.get(node.id, ())
        cards = learner.flashcards.on(node.id)
        if not (quiz or observations or extra or cards):
            continue
        since = min([*(q[2] for q in quiz), *(o[2] for o in observations),
                     *(s.at for s in extra), *(aware(c.at) for c in cards)])
        importance = len(evidence) + len(quiz) + len(observations) + len(extra) \
            + len(cards) + degree[node.id]
        out.append(Reviewable(node.id, learner.graded(node.id), since, float(importance)))
    return out


def first_quote(node: SnapshotNode) -> str | None:
    """The verbatim quote the node rests on first (what a reveal shows beside its text)."""
    evidence = node.rows()[0]
    return evidence[0][2] if evidence else None


def all_signals(node: SnapshotNode, extra: Mapping[str, Sequence[Signal]]) -> list[Signal]:
    """The graph's signals and the ledgers'; a quiz question both hold (a studied note's quiz,
    recorded at once and later linked by extraction) counts once."""
    own = node_signals(node)
    quizzed = {s.ref for s in own if s.kind == "quiz"}
    return [*own, *(s for s in extra.get(node.id, ()) if s.kind != "quiz" or s.ref not in quizzed)]
