"""``ask_user_question``: an open question to the learner (goal, preference, background).

Nothing is graded. Arguments: ``{"question", "options"?: [str], "allow_free_text"?: bool}``;
without options the learner types; with options they pick one, and may type only when
``allow_free_text`` is true. Options keep the order the model gave (they may be a scale).
Answers: ``{"option": int}``, ``{"text": "..."}`` or ``{"dont_know": true}``.
"""

from __future__ import annotations

from typing import Any

from studyhall.core.errors import InvalidAnswer, InvalidQuiz

MAX_OPTIONS = 8
MAX_QUESTION = 2000
MAX_OPTION = 500
MAX_ANSWER = 4000
_KEYS = {"question", "options", "allow_free_text"}


def validate_ask(args: Any) -> list[str]:
    if not isinstance(args, dict):
        return ['the arguments must be a JSON object: {"question": "..."}']
    problems: list[str] = []
    question = args.get("question")
    if not isinstance(question, str) or not question.strip():
        problems.append("question must be a non-empty string")
    elif len(question) > MAX_QUESTION:
        problems.append(f"question is {len(question)} characters; the limit is {MAX_QUESTION}")
    options = args.get("options")
    if options is not None:
        if (
            not isinstance(options, list)
            or not options
            or not all(isinstance(o, str) and o.strip() and len(o) <= MAX_OPTION for o in options)
        ):
            problems.append(
                f"options must be a list of non-empty strings (≤ {MAX_OPTION} characters each)"
            )
        elif len(options) > MAX_OPTIONS:
            problems.append(f"options has {len(options)} entries; give at most {MAX_OPTIONS}")
        elif len({o.strip().casefold() for o in options}) != len(options):
            problems.append("options contains the same option twice")
    free = args.get("allow_free_text")
    if free is not None and not isinstance(free, bool):
        problems.append("allow_free_text must be true or false")
    if not options and free is False:
        problems.append("with no options, allow_free_text cannot be false (nothing to answer)")
    unknown = sorted(set(args) - _KEYS)
    if unknown:
        problems.append(f"unknown argument(s): {', '.join(unknown)}")
    return problems


def present_ask(args: Any) -> dict[str, Any]:
    """What the learner is shown: the question, the options, whether typing is allowed."""
    problems = validate_ask(args)
    if problems:
        return {"question": "", "options": [], "free_text": False, "errors": problems}
    options = [o.strip() for o in args.get("options") or []]
    return {
        "question": args["question"].strip(),
        "options": options,
        "free_text": _free_text(args),
        "dont_know": True,
    }


def _free_text(args: dict[str, Any]) -> bool:
    return not args.get("options") or args.get("allow_free_text") is True


def answer_ask(args: Any, answer: Any) -> dict[str, Any]:
    """The tool output for the learner's answer; ``InvalidAnswer`` when it does not fit."""
    problems = validate_ask(args)
    if problems:
        raise InvalidQuiz(problems)
    options = [o.strip() for o in args.get("options") or []]
    shapes = '{"option": n}, {"text": "..."} or {"dont_know": true}'
    if (
        not isinstance(answer, dict)
        or len(answer) != 1
        or next(iter(answer)) not in ("option", "text", "dont_know")
    ):
        raise InvalidAnswer([f"answer with exactly one of {shapes}"])
    if "dont_know" in answer:
        if answer["dont_know"] is not True:
            raise InvalidAnswer(['"dont_know" must be true'])
        return {"status": "answered", "text": None, "option": None, "dont_know": True}
    if "option" in answer:
        option = answer["option"]
        if not options:
            raise InvalidAnswer(['this question has no options: answer with {"text": "..."}'])
        if (
            not isinstance(option, int)
            or isinstance(option, bool)
            or not 0 <= option < len(options)
        ):
            raise InvalidAnswer([f"option must be an index from 0 to {len(options) - 1}"])
        return {"status": "answered", "text": options[option], "option": option, "dont_know": False}
    text = answer["text"]
    if not _free_text(args):
        raise InvalidAnswer(['this question takes one of its options: answer with {"option": n}'])
    if not isinstance(text, str) or not text.strip():
        raise InvalidAnswer(['type an answer, or choose "I don\'t know"'])
    if len(text) > MAX_ANSWER:
        raise InvalidAnswer([f"the answer is {len(text)} characters; the limit is {MAX_ANSWER}"])
    return {"status": "answered", "text": text.strip(), "option": None, "dont_know": False}


grade_ask = answer_ask  # the name INTERFACES.md also uses
