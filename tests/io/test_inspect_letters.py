"""An outcome column of Inspect AI's score letters (C, I, P, N) is refused with the recoding Inspect applies."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.errors import InputError
from scorio_core.io.formats.inspect_ai import value_to_float
from scorio_core.io.formats.letters import letter_scores_hint

CSV = "model,question_id,trial,score\nm1,q1,0,C\nm1,q1,1,I\nm1,q2,0,P\nm2,q1,0,N\nm2,q2,0,C\n"


def test_the_hint_recodes_as_inspect_does():
    hint = letter_scores_hint(["C", "I", "P", "N"], "score")
    # Inspect AI's value_to_float (inspect_ai/scorer/_metric.py): CORRECT "C" 1.0, INCORRECT "I" 0, PARTIAL "P" 0.5,
    # NOANSWER "N" 0; the Inspect reader applies the same values
    assert "df['score'].map({'C': 1, 'I': 0, 'P': 0.5, 'N': 0})" in hint
    assert [value_to_float(v) for v in "CIPN"] == [1.0, 0.0, 0.5, 0.0]
    assert letter_scores_hint(["P", "N"]) == ""  # no C or I: not recognisably Inspect's
    assert letter_scores_hint(["C", "wrong"]) == "" and letter_scores_hint([]) == ""
    assert letter_scores_hint([" C", None, float("nan"), "I"])  # spaces and empty cells do not hide it


def test_pandas_and_duckdb_name_inspect_letters(tmp_path):
    path = tmp_path / "samples.csv"
    path.write_text(CSV)
    with pytest.raises(InputError) as info:
        io.load(path)
    text = str(info.value)
    assert "look like Inspect AI's scores" in text and "df['score'].map(" in text and "samples.csv" in text
    assert "text labels" not in text  # the specific advice, not the generic one
    pytest.importorskip("duckdb")
    from scorio_core.engines import load_counts

    with pytest.raises(InputError) as info:
        load_counts(path, engine="duckdb")
    assert "look like Inspect AI's scores" in str(info.value) and info.value.field == "is_correct"


def test_other_text_labels_keep_the_generic_advice(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("model,question_id,trial,score\nm1,q1,0,correct\nm1,q1,1,wrong\n")
    with pytest.raises(InputError) as info:
        io.load(path)
    assert "text labels" in str(info.value) and "Inspect" not in str(info.value)
