"""Deprecation warnings with LangGraph's class names, so filters written for it apply.

Each class records the version that deprecated a feature (`since`) and the one
expected to remove it (`expected_removal`); the text shown to users states both.

    >>> import warnings
    >>> warnings.simplefilter("error", LangGraphDeprecationWarning)  # doctest: +SKIP
"""

from __future__ import annotations

__all__ = (
    "LangGraphDeprecatedSinceV05",
    "LangGraphDeprecatedSinceV10",
    "LangGraphDeprecatedSinceV11",
    "LangGraphDeprecationWarning",
    "UnreturnedMutationWarning",
)


class LangGraphDeprecationWarning(DeprecationWarning):
    """A deprecated LangGraph feature that foldgraph still accepts.

    `since` and `expected_removal` are `(major, minor)` pairs; without an explicit
    removal version the next major release is assumed.
    """

    message: str
    since: tuple[int, int]
    expected_removal: tuple[int, int]

    def __init__(
        self,
        message: str,
        *args: object,
        since: tuple[int, int],
        expected_removal: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(message, *args)
        self.message = message.rstrip(".")
        self.since = since
        self.expected_removal = expected_removal or (since[0] + 1, 0)

    def __str__(self) -> str:
        since = "V{}.{}".format(*self.since)
        removal = "V{}.{}".format(*self.expected_removal)
        return f"{self.message}. Deprecated in LangGraph {since} to be removed in {removal}."


class LangGraphDeprecatedSinceV05(LangGraphDeprecationWarning):
    """Deprecated in LangGraph 0.5, removal planned for 2.0."""

    def __init__(self, message: str, *args: object) -> None:
        super().__init__(message, *args, since=(0, 5), expected_removal=(2, 0))


class LangGraphDeprecatedSinceV10(LangGraphDeprecationWarning):
    """Deprecated in LangGraph 1.0, removal planned for 2.0."""

    def __init__(self, message: str, *args: object) -> None:
        super().__init__(message, *args, since=(1, 0), expected_removal=(2, 0))


class LangGraphDeprecatedSinceV11(LangGraphDeprecationWarning):
    """Deprecated in LangGraph 1.1, removal planned for 3.0."""

    def __init__(self, message: str, *args: object) -> None:
        super().__init__(message, *args, since=(1, 1), expected_removal=(3, 0))


class UnreturnedMutationWarning(UserWarning):
    """foldgraph only: a node changed its input in place and did not return the change.

    A node's input is its own copy, so such a change is lost; in LangGraph the same
    change would reach later nodes. Shown with `compile(warn_unreturned_mutations=True)`.
    """
