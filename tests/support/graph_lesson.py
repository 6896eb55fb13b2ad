"""The scripted graph-theory lesson (prober quiz, broken then corrected plan, a revision, a
tagged teaching quiz) that the session flow test and the browser tests play."""

from __future__ import annotations

PROBE_QUIZ = {
    "questions": [
        {"prompt": "How many edges does a tree on 5 vertices have?",
         "choices": ["4", "5", "10"], "correct": [0], "explanation": "A tree on n vertices has n-1."}
    ]
}
PROBE_ARGS = {"floor": "knows what a graph is", "ceiling": "proofs about trees",
              "goal": "pass my discrete maths exam", "summary": "Quick, confident."}
BROKEN_PLAN = {"title": "Graph basics",
               "mermaid": "graph TD\n  A[Vertices and edges] -->\n  B[Paths] --> C[Trees]"}
PLAN_V1 = {"title": "Graph basics", "mermaid": "graph TD\n  A[Vertices and edges] --> B[Paths]"}
PLAN_V2 = {"title": "Graph basics",
           "mermaid": "graph TD\n  A[Vertices and edges] --> B[Paths]\n  B --> C[Trees]"}
TEACH_QUIZ = {
    "questions": [{"prompt": "What joins two vertices?", "choices": ["an edge", "a path", "a face"],
                   "correct": [0]}],
    "plan_node": "A",
}

SCRIPT = {
    "prober": [
        {"text": "Hi! A few quick questions so the teacher starts at the right place."},
        {"text": "First one:", "tool_calls": [
            {"name": "quiz", "arguments": PROBE_QUIZ, "id": "probe_q"}]},
        {"text": "Thanks, that helps.", "tool_calls": [
            {"name": "probe_done", "arguments": PROBE_ARGS, "id": "probe_fin"}]},
    ],
    "teacher": [
        {"text": "Here is our plan.", "tool_calls": [
            {"name": "plan_init", "arguments": BROKEN_PLAN, "id": "plan_bad"}]},
        {"tool_calls": [{"name": "plan_init", "arguments": PLAN_V1, "id": "plan_v1"}]},
        {"text": "Added trees.", "tool_calls": [
            {"name": "plan_init", "arguments": PLAN_V2, "id": "plan_v2"}]},
        {"text": "A graph is a set of vertices joined by edges.", "tool_calls": [
            {"name": "quiz", "arguments": TEACH_QUIZ, "id": "teach_q"}]},
        {"text": "Exactly. Next: paths."},
    ],
    "labeler": [{"text": "Graph basics"}],
}
