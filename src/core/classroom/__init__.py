"""Core system: the classroom — a session record turned into model messages, phases, the plan tree
(parse, validate, status), questions and their grading, steers and Ask's exchanges.
"""
