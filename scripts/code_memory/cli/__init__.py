"""Command-line edges: argument parsing and output only; the work happens in the library."""
