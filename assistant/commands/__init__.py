"""One module per `table-assistant` subcommand (see assistant/cli.py)."""
