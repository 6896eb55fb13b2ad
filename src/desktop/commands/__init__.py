"""CLI subcommands, one module each: ``register(subparsers)`` adds a parser and sets
``func=handler`` where ``handler(args) -> int`` is the exit code.

Keep module level light (argparse only): every command module is imported on each start of
``studyhall``. Import heavy things inside the handler. Reach the app through
``async with studyhall.desktop.app_runtime.app_runtime() as runtime`` (the server's wiring and
start-up/shutdown) — never construct adapters here.
List a new module in ``studyhall.desktop.cli.COMMANDS``.
"""
