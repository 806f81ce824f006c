"""The imperative shell: runs node functions, streams, persists. Calls the kernel."""
