"""``python -m scorio_core``: the command-line interface."""

from scorio_core.cli import run

if __name__ == "__main__":
    raise SystemExit(run())
