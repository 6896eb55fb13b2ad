"""The Learner façade: the learner model's use cases — today's review queue, a grade (with the
preview of each grade's due date), mastery explained, statistics, the stored review questions,
the study exports (Anki deck, Markdown folder), the evidence other systems hand in (Quiz me
answers, an Anki deck's history, kept flashcards), the learner's own word on a topic (an
assertion, and its undo) with the misconception patterns (``wrong_choices.py``), the learner's
goals across sessions, and the answers behind the tutor's learner tools
(``core/agents/learner_tools.py``'s ``LearnerToolsPort``).

One class, built once in ``build_runtime`` with every collaborator it needs; routes and CLI
commands of the learner take only it (issue 26). Inside: ``LearnerLedgers`` (``ledgers.py``),
the learner ledgers' one writer and the one read of the learner's state; ``ReviewQuestions``
(``questions.py``); ``LearnerToolAnswers`` (``tool_answers.py``); the exports' reads
(``study_export.py``, imported with the first export); Today's reads (``today.py``); the goals
store's one writer and their progress (``GoalDesk``, ``goals.py``). Blocking methods (file
reads, FSRS replays) are for worker threads; the ``async`` ones run their work off the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from studyhall.core.agents.tools import ToolContext
from studyhall.core.contracts.anki_deck import AnkiDeckOptions
from studyhall.core.contracts.chat import Message
from studyhall.core.contracts.learner import PromptKind, ReviewGraded, SourceQuizAnswered
from studyhall.core.library.graph.snapshot import graph_snapshot
from studyhall.core.library.graph.view import GraphSnapshot
from studyhall.core.library.learner.memory import assertion_json
from studyhall.core.library.learner.misconceptions import Misconception
from studyhall.core.library.learner.model import LearnerModel
from studyhall.core.library.learner.report import mastery_json
from studyhall.core.ports.exports import DeckWriter, VaultWriter
from studyhall.core.ports.storage import (
    ChatStore,
    GoalStore,
    GraphStore,
    LearnerStore,
    SettingsStore,
    SourceStore,
)
from studyhall.core.ports.system import Clock, Ids
from studyhall.server.runtime.learner.goals import UNSET, GoalDesk, GoalOpening
from studyhall.server.runtime.learner.ledgers import MAX_QUEUE, LearnerLedgers
from studyhall.server.runtime.learner.questions import ReviewQuestions
from studyhall.server.runtime.learner.tool_answers import LearnerToolAnswers
from studyhall.server.runtime.learner.wrong_choices import WrongChoices
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.node_finder import NodeFinder
from studyhall.server.runtime.reactions import PlanApproved, QuizGraded

if TYPE_CHECKING:
    from studyhall.core.library.export.vault import VaultReport
    from studyhall.server.runtime.ask import AskDesk  # a type only: Ask reads the graph

__all__ = ["MAX_QUEUE", "Learner"]

Card = Mapping[str, str | None]  # a flashcard: node_id, front, back, evidence?


class Learner:
    def __init__(self, *, graph: GraphReader, graph_store: GraphStore,
                 learner_store: LearnerStore, goal_store: GoalStore,
                 settings_store: SettingsStore,
                 chat_store: ChatStore, sources: SourceStore, questions: ReviewQuestions,
                 finder: NodeFinder, material: AskDesk, deck_writer: DeckWriter,
                 vault_writer: VaultWriter, clock: Clock, ids: Ids,
                 no_model: Callable[[], str | None]) -> None:
        self._graph_store = graph_store
        self._sources = sources
        self._chats = chat_store
        self._no_model = no_model  # why the tutor cannot answer, told without calling it
        self._questions = questions
        self._deck_writer = deck_writer
        self._vault_writer = vault_writer
        self._ids = ids
        self._ledgers = LearnerLedgers(graph=graph, learner_store=learner_store,
                                       settings_store=settings_store, clock=clock, ids=ids)
        self._wrong = WrongChoices(chat_store=chat_store, graph_store=graph_store)
        self._goals = GoalDesk(store=goal_store, chats=chat_store, graph_store=graph_store,
                               clock=clock, ids=ids)
        self._answers = LearnerToolAnswers(ledgers=self._ledgers, finder=finder,
                                           chat_store=chat_store, learner_store=learner_store,
                                           material=material)

    def _base(self, read_only: bool) -> GraphSnapshot | None:
        """The graph to read: a plain fold of the ledgers for a command line beside the app (the
        app's reader may save its fold cache; a CLI read writes nothing), else the app's read."""
        return graph_snapshot(self._graph_store) if read_only else None

    # --- the review screen and the statistics (blocking) ----------------------------------

    def queue(self, limit: int = 20, *, read_only: bool = False) -> dict[str, Any]:
        """Today's queue (``GET /api/review``, ``studyhall review``)."""
        return self._ledgers.queue(limit, self._base(read_only))

    def card(self, node_id: str) -> dict[str, Any]:
        """That node's card now, due or not ("Review now")."""
        return self._ledgers.card(node_id)

    def grade(self, node_id: str, grade: str,
              prompt_kind: PromptKind | None = None) -> dict[str, Any]:
        """Record a review grade: the node's new card and mastery (the model built once)."""
        return self._ledgers.grade(node_id, grade, prompt_kind)

    def suspend_card(self, node_id: str, suspended: bool) -> dict[str, Any]:
        """Take a node's card out of review, or put it back."""
        return self._ledgers.suspend(node_id, suspended)

    def undo_grade(self, grade_id: str) -> dict[str, Any]:
        """Take a review grade back: its node's card replayed without it."""
        return self._ledgers.undo_grade(grade_id)

    def fsrs_state(self, node_id: str) -> dict[str, Any]:
        """That node's FSRS state now, read-only (``NotFound`` for an unknown node)."""
        return self._ledgers.fsrs_state(node_id)

    def mastery(self, node_id: str) -> dict[str, Any]:
        """The score, its state, every event that made it, what the learner said of it and
        the misconception patterns on it."""
        model = self._ledgers.model()
        out = mastery_json(model, node_id)
        out["misconceptions"] = [m.json() for m in self._wrong.patterns(model, node_id)]
        return out

    def misconceptions(self, model: LearnerModel) -> list[Misconception]:
        """Every live misconception pattern over ``model``, the latest first."""
        return self._wrong.patterns(model)

    def assert_about(self, node_id: str, claim: str, note: str = "") -> dict[str, Any]:
        """The learner says "I know this" / "I don't know this" / "this is wrong" of a node
        (their request alone: no model tool reaches it). Its mastery after, with the id."""
        said = self._ledgers.assert_(node_id, claim, note)
        return {**self.mastery(node_id), "assertion_id": said}

    def assertions(self, node_id: str) -> dict[str, Any]:
        """What the learner said of the node and has not taken back, newest first."""
        return {"node_id": node_id, "assertions": self.mastery(node_id)["assertions"]}

    def assertion(self, node_id: str, assertion_id: str) -> dict[str, Any]:
        """One assertion on the node, taken back or not (``retracted_at``)."""
        said, taken = self._ledgers.assertion(node_id, assertion_id)
        return {**assertion_json(said),
                "retracted_at": taken.at.isoformat() if taken is not None else None}

    def take_back(self, node_id: str, assertion_id: str) -> dict[str, Any]:
        """Undo an assertion (a retraction is appended); the node's mastery after."""
        self._ledgers.retract(node_id, assertion_id)
        return self.mastery(node_id)

    def stats(self, *, read_only: bool = False) -> dict[str, Any]:
        """Mastery over time, reviews due per day, retention vs target (``GET /api/stats``)."""
        return self._ledgers.stats(self._base(read_only))

    def today(self) -> dict[str, Any]:
        """What to do now, at most five steps (``GET /api/today``): due reviews, the open
        session, the next topic, a misconception to revisit, import/ask when empty."""
        from studyhall.server.runtime.learner.today import today_plan

        model = self._ledgers.model()
        goals = self._goals.goals()
        return today_plan(model, self._chats, self._sources, has_model=self._no_model() is None,
                          patterns=self._wrong.patterns(model),
                          goals=list(zip(goals, self._goals.progress(goals, model),
                                         strict=True))).json()

    # --- goals across sessions (blocking, but ``plan_approved``) --------------------------

    def goals(self) -> list[dict[str, Any]]:
        """Every goal with its plan and progress, newest first (``GET /api/goals``)."""
        goals = self._goals.goals()
        progress = self._goals.progress(goals, self._ledgers.model())
        return [self._goals.view(g, p) for g, p in zip(goals, progress, strict=True)]

    def goal(self, goal_id: str) -> dict[str, Any]:
        goal = self._goals.goal(goal_id)
        (progress,) = self._goals.progress([goal], self._ledgers.model())
        return self._goals.view(goal, progress)

    def create_goal(self, text: str, target: date | None,
                    plan: Mapping[str, str] | None) -> dict[str, Any]:
        return self.goal(self._goals.create(text, target, plan).id)

    def update_goal(self, goal_id: str, changes: Mapping[str, Any]) -> dict[str, Any]:
        """``changes``: the fields the request set (``text``, ``target``, ``plan``; None
        clears the target or the plan)."""
        self._goals.update(goal_id, text=changes.get("text", UNSET),
                           target=changes.get("target", UNSET), plan=changes.get("plan", UNSET))
        return self.goal(goal_id)

    def delete_goal(self, goal_id: str) -> None:
        self._goals.delete(goal_id)

    def goal_opening(self, goal_id: str) -> GoalOpening:
        """Where a new session on the goal resumes (``NotFound`` for an unknown goal)."""
        return self._goals.opening(goal_id, self._ledgers.model())

    def goal_steer(self, opening: GoalOpening, chat_id: str) -> Message:
        """The goal steer a goal session's teacher reads first (pure: it is saved with the
        session's record, so a restart before the first message keeps it)."""
        return self._goals.steer(opening, chat_id)

    def attach_goal(self, opening: GoalOpening, chat_id: str) -> None:
        """Record the session on its goal (its approved plans flow back into the goal)."""
        self._goals.attach(opening.goal.id, chat_id)

    async def plan_approved(self, approved: PlanApproved) -> None:
        """A session approved a plan: on a goal, it becomes the goal's plan."""
        await asyncio.to_thread(self._goals.take_session_plan, approved.chat_id)

    def write_questions(self, cards: list[dict[str, Any]]) -> None:
        """With a model, start writing stored questions for the shown cards that lack one, and
        for the studied topics with no card, in the background (call on the event loop;
        returns at once)."""
        self._questions.want(cards, also=self._ledgers.uncarded)

    # --- the learner model, for the other systems (blocking) ------------------------------

    def model(self, base: GraphSnapshot | None = None) -> LearnerModel:
        """The learner's state now, over ``base`` (the app's graph read when not given)."""
        return self._ledgers.model(base)

    def graph_with_evidence(self, *, read_only: bool = False) -> GraphSnapshot:
        """The graph with the learner ledgers' evidence in its nodes' states and scores."""
        return self._ledgers.graph_with_evidence(self._base(read_only))

    def record_quiz(self, records: list[SourceQuizAnswered]) -> None:
        """Append "Quiz me" answers (graded by the server, on nodes the graph holds)."""
        self._ledgers.record_quiz(records)

    def quiz_graded(self, event: QuizGraded) -> None:
        """A quiz answered in a session studying a note: each verdict on that note, once per
        question (the reaction to ``QuizGraded``)."""
        self._ledgers.record_quiz([SourceQuizAnswered(
            id=self._ids.new("sqa"), node_id=event.node_id, verdict=verdict,
            source_id=event.chat_id, quiz_id=event.quiz_id, question=i, at=event.at)
            for i, verdict in enumerate(event.verdicts)])

    def record_deck(self, grades: Sequence[ReviewGraded], cards: Mapping[str, Sequence[Card]],
                    suspended: Sequence[str] = ()) -> tuple[int, int]:
        """An Anki deck's learner side: its review history as grades (each id once), its
        cards kept per artifact id, and the nodes whose cards it holds suspended (out of
        review here, once: a card put back here stays back when the deck comes again). How
        many grades were new, and how many cards joined."""
        added = self._ledgers.record_grades(grades)
        queued = sum(self._ledgers.keep_flashcards(artifact_id, deck)
                     for artifact_id, deck in cards.items())
        self._ledgers.suspend_from_anki(suspended)
        return added, queued

    def adopt_deck_options(self, options: Sequence[AnkiDeckOptions],
                           day_starts_hour: int | None) -> None:
        """An imported collection's scheduling options as review settings: each deck's FSRS
        parameters and desired retention, and when its day starts (when it says)."""
        self._ledgers.adopt_deck_options(options, day_starts_hour)

    # --- the study exports (blocking) -----------------------------------------------------

    def anki_deck(self, scope: str | None) -> tuple[bytes, str]:
        """The scope's Anki package and its deck name (``GET /api/export/anki``)."""
        from studyhall.server.runtime.learner.study_export import anki_export

        notes, deck = anki_export(self._ledgers, self._sources, None, scope)
        return self._deck_writer.package(notes, deck), deck

    def write_anki_deck(self, scope: str | None, output: str) -> tuple[int, str]:
        """``studyhall export anki``: the scope's deck written to ``output`` over a plain fold.
        How many notes, and the deck's name."""
        from studyhall.server.runtime.learner.study_export import anki_export

        notes, deck = anki_export(self._ledgers, self._sources, self._base(True), scope)
        return self._deck_writer.write(notes, deck, output), deck

    def write_markdown(self, folder: str, *, force: bool) -> VaultReport:
        """``studyhall export markdown``: one note per topic in ``folder``, over a plain fold
        (``InvalidInput`` for a folder holding the learner's own notes, unless ``force``)."""
        from studyhall.server.runtime.learner.study_export import markdown_export

        return markdown_export(self._ledgers, self._sources, self._base(True),
                               self._vault_writer, folder, force=force)

    # --- the tutor's learner tools (LearnerToolsPort) and the quiz gate ---------------------

    async def recent_model(self) -> LearnerModel:
        """The learner model now, a read at most a couple of seconds old (one model step
        checks several tool calls: one read serves them all)."""
        return await self._answers.model()

    async def strengths(self, ctx: ToolContext, topic: str | None, limit: int) -> Any:
        return await self._answers.strengths(ctx, topic, limit)

    async def confidence(self, concept: str) -> Any:
        return await self._answers.confidence(concept)

    async def explain(self, node_id: str) -> Any:
        return await self._answers.explain(node_id)

    async def history(self, ctx: ToolContext, query: str, limit: int) -> Any:
        return await self._answers.history(ctx, query, limit)

    async def due(self, ctx: ToolContext, topic: str | None, limit: int) -> Any:
        return await self._answers.due(ctx, topic, limit)

    async def material(self, query: str, limit: int) -> Any:
        return await self._answers.material(query, limit)

    async def has_node(self, node_id: str) -> bool:
        return await self._answers.has_node(node_id)

    async def observed(self, ctx: ToolContext, node_id: str, quote: str) -> str | None:
        return await self._answers.observed(ctx, node_id, quote)

    async def observe(self, ctx: ToolContext, node_id: str, level: str, quote: str,
                      note: str) -> Any:
        return await self._answers.observe(ctx, node_id, level, quote, note)

    # --- a flashcards artifact's cards, kept or deleted (the workbench) --------------------

    async def keep_flashcards(self, artifact_id: str, cards: Sequence[Card]) -> int:
        """Queue the cards for review, each on its node (idempotent). How many joined."""
        return await self._answers.keep_flashcards(artifact_id, cards)

    async def retire_flashcards(self, artifact_id: str) -> None:
        """The artifact was deleted: its cards leave the review queue (grades stay evidence)."""
        await self._answers.retire_flashcards(artifact_id)
