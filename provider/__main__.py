"""``python -m provider``: the knowledge-provider command."""

from .cli import run

# Guarded: worker processes (multiprocessing's spawn and forkserver) import the main
# module again, and must not run the command a second time.
if __name__ == "__main__":
    run()
