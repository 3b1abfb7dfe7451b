"""dashboard.guard.blocking_in_app_terms: a blocking data-quality issue names the app's widget, not the API or a flag."""

from __future__ import annotations

import pytest

from dashboard.guard import CHOICE_IN_APP, GRADED_IN_APP, blocking_in_app_terms
from scorio_core.io.quality.compute import blocking_messages


@pytest.mark.parametrize("counts_layout", [False, True])
def test_every_blocking_message_is_rewritten_for_the_app(counts_layout):
    core = blocking_messages(3, 2, 5, 1, counts_layout=counts_layout)
    assert len(core) == 3 and all("apply_choices(" in m for m in core)  # the script advice the app replaces
    app = blocking_in_app_terms(core)
    assert app[1] == f"2 attempts have no outcome; {CHOICE_IN_APP}."
    assert app[2].startswith("5 duplicate rows share a (model, task, question") and "(1 key conflicts)" in app[2]
    for text in app:
        assert "apply_choices" not in text and " --" not in text
        assert text.endswith(CHOICE_IN_APP + ("." if "non-binary" not in text else GRADED_IN_APP + "."))
    assert app[0].endswith(GRADED_IN_APP + ".")  # graded scores: the threshold, or the partial-credit button


def test_a_message_without_advice_gets_the_app_choice():
    assert blocking_in_app_terms(["Something else."]) == [f"Something else; {CHOICE_IN_APP}."]
