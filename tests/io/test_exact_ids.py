"""Trial ids beyond exact float range are refused, never collapsed into false duplicates (issue 17)."""

from __future__ import annotations

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError


def test_huge_trial_ids_are_refused_with_the_row(tmp_path, capsys):
    path = tmp_path / "big.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,99999999999999999999,1\na,q1,99999999999999999998,0\n")
    with pytest.raises(InputError, match=r"line 2: field 'trial'.*below 2\*\*53"):
        io.load([str(path)])
    assert main(["leaderboard", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "RuntimeWarning" not in err


def test_large_but_exact_trial_ids_are_kept(tmp_path):
    path = tmp_path / "seeds.csv"
    path.write_text("model,question_id,trial,is_correct\na,q1,9007199254740991,1\na,q1,9007199254740990,0\n")
    data = io.load([str(path)])
    assert sorted(data.attempts["trial"].tolist()) == [9007199254740990, 9007199254740991]
    assert data.report.n_duplicate_keys == 0 and data.ready
