"""Ask: grounded questions over the learner's imported material — ``AskDesk`` is its one public
class (``desk.py``); the stream (``answering.py``), the Ask history's checkpoints
(``history.py``) and a sub-agent's grounding (``grounding.py``) are its parts."""

from studyhall.server.runtime.ask.desk import AskDesk

__all__ = ["AskDesk"]
