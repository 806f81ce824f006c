"""Developer tools (not part of the package)."""
