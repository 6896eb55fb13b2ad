# `make run`: set up the venv and open Studyhall.  `make test`: set up and run every test.
.PHONY: run test bench

run:
	bash scripts/dev.sh run $(ARGS)

test:
	bash scripts/dev.sh test $(ARGS)

bench:
	for b in bench/*.py; do .venv/bin/python $$b; done
