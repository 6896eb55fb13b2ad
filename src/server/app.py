"""THE composition root: the only module that constructs adapters and wires them into the app.

``build_services(config)`` picks an adapter for every port; ``build_runtime(services)`` builds
every runner, scheduler and feed on those ports and declares who reacts to what. The ASGI app
over a runtime (route groups, UI, middleware) is ``server/web.py: build_app``. The CLI builds
the same services and runtime here and runs the same ``started``, so the command line and the
HTTP API always run the same wiring. Heavy libraries (torch,
sentence_transformers, litellm) are never imported on this path.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from functools import partial

from studyhall.adapters.embed.onnx_minilm import OnnxMiniLMEmbedder
from studyhall.adapters.embed.select import SettingsEmbedder, local_embedder
from studyhall.adapters.export.genanki_deck import GenankiDeckWriter
from studyhall.adapters.export.markdown_folder import MarkdownFolderWriter
from studyhall.adapters.llm.audit import JsonlAuditLog
from studyhall.adapters.llm.capability_probe import HttpCapabilityProbe
from studyhall.adapters.llm.litellm_model import LitellmChatModel
from studyhall.adapters.llm.script import ChatScript
from studyhall.adapters.llm.transcriber import LitellmTranscriber
from studyhall.adapters.sandbox import ChromiumSandbox
from studyhall.adapters.search.index import FileSearchIndex
from studyhall.adapters.search.late_interaction import MiniLMEncoder, MiniLMLateScorer
from studyhall.adapters.secrets import FileSecretStore, default_secret_store
from studyhall.adapters.sources.anki_package import AnkiPackageReader
from studyhall.adapters.sources.material import FileMaterialReader
from studyhall.adapters.sources.path_rule import PathRule
from studyhall.adapters.sources.vault import FileVaultReader
from studyhall.adapters.store import (
    JsonAskStore,
    JsonChatStore,
    JsonJobStore,
    JsonlArtifactStore,
    JsonlGoalStore,
    JsonlGraphStore,
    JsonlLearnerStore,
    JsonSettingsStore,
    JsonSourceStore,
)
from studyhall.adapters.system import RandomIds, SystemClock
from studyhall.core.agents.job_tools import job_tools
from studyhall.core.agents.learner_tools import READ_TOOLS, learner_tools
from studyhall.core.agents.quiz_gate import gated
from studyhall.core.agents.reranker import ModelReranker
from studyhall.core.agents.review_question_writer import ROLE as QUESTION_ROLE
from studyhall.core.agents.rewriter import ModelRewriter
from studyhall.core.agents.roster import ToolWrap
from studyhall.core.agents.tools import Tool
from studyhall.core.agents.writers import ROLES as WRITER_ROLES
from studyhall.core.contracts.chat import AgentRole
from studyhall.core.guardrails.chat_model import GuardedChatModel, SettingsScrubPolicy
from studyhall.core.guardrails.repetition import RepetitionGuard
from studyhall.core.library.imports.lectures import LectureTopics
from studyhall.core.library.imports.notes import NotesImporter
from studyhall.core.library.retrieval.hybrid import Retriever
from studyhall.server.config import Config
from studyhall.server.redaction import REDACTOR, RedactingSecretStore
from studyhall.server.runtime.ask import AskDesk
from studyhall.server.runtime.classroom import Classroom
from studyhall.server.runtime.classroom.graph_context import GraphContext
from studyhall.server.runtime.classroom.model_ready import (
    no_key_for_extraction,
    no_key_for_turn,
    no_model_reason,
    transcriber_action,
)
from studyhall.server.runtime.classroom.prompts import load_prompt
from studyhall.server.runtime.classroom.quiz_gating import QuizGating
from studyhall.server.runtime.classroom.study import StudyMaterials
from studyhall.server.runtime.classroom.turn_board import TurnBoard
from studyhall.server.runtime.classroom.turns import TurnRunner
from studyhall.server.runtime.learner import Learner
from studyhall.server.runtime.learner.questions import ReviewQuestions
from studyhall.server.runtime.library import Library
from studyhall.server.runtime.library.anki_import import AnkiImporter
from studyhall.server.runtime.library.encoder_setup import EncoderSetup
from studyhall.server.runtime.library.extraction import ExtractionScheduler
from studyhall.server.runtime.library.graph_reader import GraphReader
from studyhall.server.runtime.library.graph_upkeep import GraphUpkeep
from studyhall.server.runtime.library.import_runs import ImportRunner
from studyhall.server.runtime.library.material import CourseMaterial
from studyhall.server.runtime.library.meaning_neighbours import MeaningNeighbours
from studyhall.server.runtime.library.node_finder import NodeFinder
from studyhall.server.runtime.reactions import (
    GraphMerged,
    JobChanged,
    JobFinished,
    PlanApproved,
    QuizGraded,
    Reactions,
    TurnEnded,
    WakeWanted,
)
from studyhall.server.runtime.role_capabilities import RoleCapabilities
from studyhall.server.runtime.runtime import Runtime
from studyhall.server.runtime.supervisor import Supervisor
from studyhall.server.runtime.workbench import Workbench
from studyhall.server.runtime.workbench.activity import ActivityFeed
from studyhall.server.runtime.workbench.artifact_scope import ScopeResolver
from studyhall.server.runtime.workbench.artifacts import ArtifactDesk
from studyhall.server.runtime.workbench.job_work import JobWork
from studyhall.server.runtime.workbench.jobs import JobRunner
from studyhall.server.services import Services
from studyhall.server.startup_work import StartupWork


def build_services(config: Config) -> Services:
    """Construct every adapter for this data dir. Cheap: no heavy import, no network (torch,
    sentence_transformers, litellm, bm25s, Playwright load on first use inside the adapters)."""
    secret_store = RedactingSecretStore(
        default_secret_store(config.data_dir, testing=config.testing), REDACTOR
    )
    REDACTOR.register(config.token)
    REDACTOR.register_environment()
    data = config.data_dir
    settings_store = JsonSettingsStore(data / "settings.json")
    # One model adapter serves every role. STUDYHALL_SCRIPT answers each call from the script
    # (validated here, so a bad file fails the launch), still through litellm's offline mock
    # path; in testing mode a real provider call is refused instead of reaching the network.
    script = (
        ChatScript.load(config.script_path, data / "script_cursor.json")
        if config.script_path is not None
        else None
    )
    # Every role's calls pass the guardrails (core/guardrails/chat_model.py): personal data is
    # replaced by placeholders before a hosted provider sees it (a local server: Settings →
    # Privacy) and restored in what streams back; each audit row gets the call's risk level.
    # A looping answer is ended early with what was useful (issue 31: RepetitionGuard).
    chat_model = GuardedChatModel(
        RepetitionGuard(LitellmChatModel(
            settings_store,
            secret_store,
            JsonlAuditLog(data / "audit.jsonl"),
            script=script,
            allow_network=not config.testing,
            backoff_base=0.0 if config.testing else 1.0,  # tests retry instantly
        )),
        scrub_for=SettingsScrubPolicy(settings_store),
    )
    # Demos and diagrams are checked in the system's headless Chromium (network off; started
    # on first use and kept warm while jobs run).
    sandbox = ChromiumSandbox()
    # Every stored key becomes known to the log redactor as the server starts: at once for the
    # key file (cheap), in the background for the OS keyring (probing it is slow); a key read
    # earlier than that is registered by the read itself.
    probe = (None if isinstance(secret_store.inner, FileSecretStore)
             else StartupWork(secret_store.preload))  # in a thread, joined on shutdown
    preload = probe.start if probe is not None else _now(secret_store.preload)
    # The settings pick the embedder: the bundled MiniLM by default (offline), a litellm model
    # when set.
    local = local_embedder(data / "models")
    embedder = SettingsEmbedder(settings_store, secret_store, allow_network=not config.testing,
                                local=local)
    # The one path rule every reader of imported files obeys: nothing out of the imported root,
    # and never the data folder (settings, keys, caches), even inside a folder being imported.
    files = PathRule.guarding(data)
    return Services(
        config=config,
        settings_store=settings_store,
        secret_store=secret_store,
        clock=SystemClock(),
        ids=RandomIds(),
        chat_store=JsonChatStore(data / "chats"),
        graph_store=JsonlGraphStore(data / "graph"),
        learner_store=JsonlLearnerStore(data / "learner"),
        goal_store=JsonlGoalStore(data / "goals"),
        job_store=JsonJobStore(data / "jobs"),
        source_store=JsonSourceStore(data / "sources"),
        ask_store=JsonAskStore(data / "asks"),
        artifact_store=JsonlArtifactStore(data / "artifacts"),
        chat_model=chat_model,
        capability_probe=HttpCapabilityProbe(data / "model_capabilities.json", secret_store,
                                             allow_network=not config.testing,
                                             scripted=script is not None),
        embedder=embedder,
        search_index=FileSearchIndex(data / "index"),
        # Audio/video without captions: transcribed once per content hash, cached as WebVTT.
        material_reader=FileMaterialReader(transcripts_dir=data / "transcripts", rule=files),
        transcriber=LitellmTranscriber(settings_store, secret_store, data / "transcripts",
                                       script=script, allow_network=not config.testing,
                                       rule=files),
        # Ask's reranker matches the question's tokens against each passage's on the local
        # encoder's model: ONNX Runtime's when that is the encoder (torch then never loads).
        passage_scorer=MiniLMLateScorer(
            local if isinstance(local, OnnxMiniLMEmbedder) else MiniLMEncoder()),
        vault_reader=FileVaultReader(rule=files),
        sandbox=sandbox,
        # Exports write each file whole (genanki loads on the first deck written).
        deck_writer=GenankiDeckWriter(data / "exports" / "anki-note-times.json"),
        vault_writer=MarkdownFolderWriter(),
        # The ONNX export once per data folder, at the app's first start (not in the tests:
        # each test's fresh data folder would export again; they use a prepared folder).
        prepare_encoder=(local.prepare_sync if isinstance(local, OnnxMiniLMEmbedder)
                         and not config.testing else None),
        encoder_needs_setup=(lambda: not local.prepared) if isinstance(local, OnnxMiniLMEmbedder)
        else (lambda: False),
        on_startup=(preload,),
        # A one-time model export in flight is killed, not waited for (~10 s in torch).
        on_shutdown=(sandbox.aclose, embedder.aclose, *((probe.aclose,) if probe else ())),
    )


SWITCH_INTERVAL = 0.0005  # seconds


def build_runtime(services: Services) -> Runtime:
    """Every runner, scheduler and feed, wired now (not on first use): the order of requests
    never changes what is hooked to what. Cheap: objects only; nothing starts until
    ``started(runtime)``."""
    s = services
    # A thread that wants the GIL waits up to this long for a busy one (CPython: 5 ms). The
    # encoder's runners need it for a moment after every run (~25 ms of work without it); beside
    # Python-heavy work at 5 ms they lost about a quarter of their speed waiting (bench/import.py,
    # 6,500 notes: ratio 0.73 -> 0.81). The event loop answers sooner beside busy threads too.
    sys.setswitchinterval(SWITCH_INTERVAL)
    supervisor = Supervisor()
    # The bus first: every producer gets it in its constructor; who reacts to what is the one
    # table below, declared once the parts exist.
    reactions = Reactions(supervisor)
    # What each role's model can do: ``capabilities.for_role(role)`` is the agents' sync lookup.
    capabilities = RoleCapabilities(s.settings_store, s.capability_probe, supervisor)
    board = TurnBoard(chat_store=s.chat_store, clock=s.clock)
    graph = GraphReader(s.graph_store)
    upkeep = GraphUpkeep(graph_store=s.graph_store, source_store=s.source_store, reader=graph,
                         embedder=s.embedder, chat_model=s.chat_model, prompt=load_prompt,
                         supervisor=supervisor,
                         model_usable=lambda: no_model_reason(s, "labeler") is None)
    extraction = ExtractionScheduler(
        chat_store=s.chat_store, graph_store=s.graph_store, settings_store=s.settings_store,
        chat_model=s.chat_model, embedder=s.embedder,
        by_meaning=MeaningNeighbours(upkeep, graph.snapshot), clock=s.clock,
        ids=s.ids, prompt=load_prompt, supervisor=supervisor, reader=graph, reactions=reactions,
        no_model=partial(no_key_for_extraction, s),  # no lambda: app.py stays out of a turn
    )
    notes = NotesImporter(
        vault_reader=s.vault_reader, graph_store=s.graph_store, source_store=s.source_store,
        settings_store=s.settings_store, clock=s.clock, ids=s.ids, upkeep=upkeep,
        chat_model=s.chat_model, prompt=load_prompt, off_loop=asyncio.to_thread,
        no_model_reason=lambda: no_model_reason(s),
    )
    material = CourseMaterial(reader=s.material_reader, index=s.search_index, clock=s.clock,
                              sources=s.source_store, graph_store=s.graph_store,
                              embedder=s.embedder, upkeep=upkeep, transcriber=s.transcriber,
                              no_transcriber=lambda: no_model_reason(s, "transcriber"),
                              transcriber_action=lambda: transcriber_action(s))
    # The one retriever: Ask's model grades the passages and rewrites a follow-up; every other
    # search (the tutor's tool, a sub-agent's grounding, the eval) asks it for no model step.
    retriever = Retriever(index=s.search_index, embedder=s.embedder, scorer=s.passage_scorer,
                          grader=ModelReranker(s.chat_model),
                          rewriter=ModelRewriter(s.chat_model))
    ask_desk = AskDesk(retriever=retriever, model=s.chat_model, index=s.search_index,
                       store=s.ask_store, clock=s.clock, ids=s.ids, graph=graph,
                       chats=s.chat_store)
    finder = NodeFinder(upkeep)
    learner = Learner(
        graph=graph, graph_store=s.graph_store, learner_store=s.learner_store,
        goal_store=s.goal_store, settings_store=s.settings_store, chat_store=s.chat_store, sources=s.source_store,
        finder=finder, material=ask_desk, deck_writer=s.deck_writer, vault_writer=s.vault_writer,
        clock=s.clock, ids=s.ids, no_model=lambda: no_model_reason(s, "teacher"),
        questions=ReviewQuestions(
            graph=graph, learner_store=s.learner_store, model=s.chat_model,
            supervisor=supervisor, clock=s.clock, ids=s.ids,
            no_model=lambda: no_model_reason(s, QUESTION_ROLE),
            model_name=lambda: s.settings_store.load().model_for(QUESTION_ROLE).model))
    # An Anki deck's reviews and cards go to the learner ledgers through their one writer.
    # The deck reader obeys the one path rule too: never a deck linked into the data folder.
    deck_reader = AnkiPackageReader(rule=PathRule.guarding(s.config.data_dir))
    anki = AnkiImporter(reader=deck_reader, graph_store=s.graph_store, clock=s.clock,
                        ids=s.ids, upkeep=upkeep, learner=learner)
    # Lectures and PDFs become topics on the map after each import (their moments, pages).
    lectures = LectureTopics(index=s.search_index, graph_store=s.graph_store,
                             sources=s.source_store, snapshot=upkeep.snapshot, clock=s.clock,
                             ids=s.ids, off_loop=asyncio.to_thread)
    imports = ImportRunner(notes=notes, material=material, clock=s.clock, ids=s.ids,
                           supervisor=supervisor, anki=anki, lectures=lectures)
    setup = EncoderSetup(prepare=s.prepare_encoder, needed=s.encoder_needs_setup, clock=s.clock)
    library = Library(sources=s.source_store, index=s.search_index, reader=s.material_reader,
                      notes=s.vault_reader, embedder=s.embedder, upkeep=upkeep, learner=learner,
                      model=s.chat_model, ids=s.ids, clock=s.clock, imports=imports,
                      extraction=extraction, chats=s.chat_store, settings=s.settings_store,
                      setup=setup)
    scopes = ScopeResolver(graph=graph, chats=s.chat_store, sources=s.source_store,
                           index=s.search_index)
    # The job runner queues its steers on the board and asks for a wake turn (``WakeWanted``),
    # so it needs no turn runner, and the turn runner gets its job tools at construction.
    jobs = JobRunner(job_store=s.job_store, chat_store=s.chat_store, board=board,
                     model=s.chat_model, clock=s.clock, ids=s.ids, supervisor=supervisor,
                     reactions=reactions,
                     work=JobWork(sandbox=s.sandbox, prompt=load_prompt,
                                  grounding=ask_desk.grounding, scope_grounding=scopes.grounding))
    learner_tools_for, quiz_gate = _tutor_knows_the_learner(learner, finder)
    turns = TurnRunner(board=board, chat_store=s.chat_store, chat_model=s.chat_model,
                       settings_store=s.settings_store, clock=s.clock, ids=s.ids,
                       prompt=load_prompt, supervisor=supervisor, reactions=reactions,
                       tools={"teacher": (*job_tools(jobs.spawn, jobs.capacity),
                                          *learner_tools_for["teacher"]),
                              "prober": learner_tools_for["prober"]},
                       wrap={"quiz": quiz_gate},
                       no_key=partial(no_key_for_turn, s),  # no lambda: app.py stays out of a turn
                       # What the probe learned of each role's model (UNKNOWN until it has):
                       # a model that cannot call tools answers each step as JSON.
                       capabilities=capabilities.for_role)
    context = GraphContext(board=board, upkeep=upkeep, clock=s.clock, supervisor=supervisor,
                           learner=learner)
    classroom = Classroom(turns=turns, context=context, chats=s.chat_store, clock=s.clock,
                          study=StudyMaterials(graph=graph, index=s.search_index,
                                               sources=s.source_store), learner=learner)
    activity = ActivityFeed(jobs=jobs, job_store=s.job_store, registries=(extraction, imports, setup))
    artifact_desk = ArtifactDesk(store=s.artifact_store, jobs=jobs, job_store=s.job_store,
                                 chats=s.chat_store, resolver=scopes, cards=learner, clock=s.clock,
                                 no_model=lambda kind: no_model_reason(s, WRITER_ROLES[kind]))
    workbench = Workbench(jobs=jobs, artifacts=artifact_desk, activity=activity,
                          job_store=s.job_store, supervisor=supervisor)
    # Who reacts to what: the one place the parts are joined after they exist. Each handler
    # is error-contained by the bus; the producer picks when they run (reactions.py).
    reactions.declare({
        # Each in its own task once the turn is saved: a turn past chunk_tokens starts an
        # extraction run; the workbench flips what the turn delivered and wakes for the rest.
        TurnEnded: (library.turn_ended, workbench.on_turn_end),
        WakeWanted: (classroom.wake,),  # a job's steer waits and no turn will claim it
        JobChanged: (workbench.job_changed,),  # the activity streams re-read
        # Session and scope jobs alike keep what they wrote, before the delivery.
        JobFinished: (workbench.job_finished,),
        GraphMerged: (library.graph_merged,),  # new nodes get vectors, clusters, positions
        QuizGraded: (learner.quiz_graded,),  # a studied note's quiz answers are its evidence
        PlanApproved: (learner.plan_approved,),  # a goal session's plan flows into its goal
    })
    return Runtime(
        services=s, supervisor=supervisor, reactions=reactions, classroom=classroom,
        library=library,
        workbench=workbench,
        learner=learner, ask=ask_desk,
        capabilities=capabilities,
    )


def _tutor_knows_the_learner(
    learner: Learner, finder: NodeFinder,
) -> tuple[dict[AgentRole, tuple[Tool, ...]], ToolWrap]:
    """The learner model in the session: hard quiz questions gated by prerequisites (every
    agent's quiz, the returned wrap), the learner tools for the teacher, their read-only part
    for the prober, all answered by the Learner."""
    gate = QuizGating(learner.recent_model, finder)
    tools: dict[AgentRole, tuple[Tool, ...]] = {
        "teacher": tuple(learner_tools(learner)),
        "prober": tuple(learner_tools(learner, READ_TOOLS))}
    return tools, lambda tool: gated(tool, gate)


def _now(work: Callable[[], object]) -> Callable[[], Awaitable[None]]:
    async def hook() -> None:
        work()

    return hook
