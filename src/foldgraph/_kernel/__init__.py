"""The pure core: channels, reducers as monoids, snapshots, plan and apply.

Nothing in this package performs I/O, reads a clock, starts a thread or
mutates a value it was given. The runner (`foldgraph._shell`) calls it; it
never calls the runner.
"""
