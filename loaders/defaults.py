"""Loader defaults that the CLI shows in --help, kept apart from the driver-heavy loader."""

DEFAULT_BATCH_SIZE = 20_000  # rows per write transaction
DEFAULT_WORKERS = 2          # concurrent write transactions
