"""AppTest: an upload whose values need recoding shows the recoding to write and keeps what was loaded before.

The loaders refuse pass/fail words, 0-100 scores and text trial labels rather than guess
(``scorio_core.io.formats.recoding``); in the app the error box must carry the same advice, escaped, and the
previous upload stays active.
"""

from __future__ import annotations

from tests.app.conftest import no_exception, saved_key, shown
from tests.app.test_pages_data import upload

GOOD = b"model,question_id,trial,is_correct\na,q1,0,1\na,q1,1,0\nb,q1,0,1\nb,q1,1,1\n"
CASES = {  # file -> (content, what the error box must say)
    "passfail.csv": (b"model,question_id,trial,correct\na,q1,0,pass\na,q1,1,FAIL\nb,q1,0,pass\n",
                     "df['is_correct'] = df['correct'].map({'FAIL': 0, 'pass': 1})"),
    "percent.csv": (b"model,question_id,trial,score\na,q1,0,0\na,q1,1,100\nb,q1,0,50\n",
                    "df['is_correct'] = df['score'] / 100"),
    "runs.csv": (b"model,question_id,trial,is_correct\na,q1,run-a,1\na,q1,run-b,0\nb,q1,run-a,1\n",
                 "pd.factorize(df['trial'])[0]"),
}


def test_recoding_advice_in_the_error_box_and_the_good_upload_kept(app):
    upload(app, ("good.csv", GOOD, "text/csv"))
    good = saved_key(app, "good")
    assert app.session_state["dataset"] == good
    for name, (content, advice) in CASES.items():
        upload(app, (name, content, "text/csv"))
        no_exception(app)
        errors = [shown(e.value) for e in app.main.error if name in shown(e.value)]
        assert errors and any(advice in e for e in errors), (name, [e.value for e in app.main.error])
        assert app.session_state["dataset"] == good  # nothing the user loaded before is lost
        assert list(app.session_state["_ws_names"].values()) == ["good"]
