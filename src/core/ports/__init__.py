"""Ports: the protocols every edge implements, one module per role. Types only; value
types live in ``core/contracts/``, adapters in ``adapters/``."""
