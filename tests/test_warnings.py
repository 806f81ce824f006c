"""The warning classes carry LangGraph's names, hierarchy and message text."""

from __future__ import annotations

import warnings

import pytest

from foldgraph.warnings import (
    LangGraphDeprecatedSinceV05,
    LangGraphDeprecatedSinceV10,
    LangGraphDeprecatedSinceV11,
    LangGraphDeprecationWarning,
)


@pytest.mark.parametrize(
    ("cls", "text"),
    [
        (
            LangGraphDeprecatedSinceV05,
            "old thing. Deprecated in LangGraph V0.5 to be removed in V2.0.",
        ),
        (
            LangGraphDeprecatedSinceV10,
            "old thing. Deprecated in LangGraph V1.0 to be removed in V2.0.",
        ),
        (
            LangGraphDeprecatedSinceV11,
            "old thing. Deprecated in LangGraph V1.1 to be removed in V3.0.",
        ),
    ],
)
def test_message_names_both_versions(cls, text):
    warning = cls("old thing.")
    assert str(warning) == text
    assert warning.message == "old thing"
    assert isinstance(warning, LangGraphDeprecationWarning)
    assert isinstance(warning, DeprecationWarning)


def test_removal_defaults_to_next_major():
    warning = LangGraphDeprecationWarning("gone", since=(1, 3))
    assert warning.expected_removal == (2, 0)
    assert str(warning) == "gone. Deprecated in LangGraph V1.3 to be removed in V2.0."


def test_filters_match_the_base_class():
    with pytest.warns(LangGraphDeprecationWarning, match="Deprecated in LangGraph V1.0"):
        warnings.warn(LangGraphDeprecatedSinceV10("x"), stacklevel=1)
