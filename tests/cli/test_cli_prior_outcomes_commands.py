"""``--prior-outcomes FILE [--prior-model NAME]`` (the paper's prior outcomes R0) on ``tasks``, ``compare``, ``export``
and ``publish``, with ``leaderboard``'s semantics: the same numbers, notes, settings keys and refusals.

Before: only ``leaderboard`` took R0, so a CI job could not see R0 per task, in a comparison, in an export or a
manifest (``tasks``/``compare``/``export``/``publish`` rejected the option: "unrecognized arguments").
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorio_core as sc
from scorio_core.cli import main

HEAD = "model,task,question_id,trial,is_correct"


def _write(tmp_path, name, rows, head=HEAD):
    path = tmp_path / name
    path.write_text("\n".join([head, *rows]) + "\n")
    return str(path)


def _data(tmp_path):
    # task alpha -- gpt: q1 1,0; q2 1,1 / claude: q1 0,0; q2 1,1; task beta -- gpt: q1 0,0; q3 1,0 / claude: q1 1,1; q3 1,1
    runs = _write(tmp_path, "runs.csv", [
        "gpt,alpha,q1,0,1", "gpt,alpha,q1,1,0", "gpt,alpha,q2,0,1", "gpt,alpha,q2,1,1",
        "claude,alpha,q1,0,0", "claude,alpha,q1,1,0", "claude,alpha,q2,0,1", "claude,alpha,q2,1,1",
        "gpt,beta,q1,0,0", "gpt,beta,q1,1,0", "gpt,beta,q3,0,1", "gpt,beta,q3,1,0",
        "claude,beta,q1,0,1", "claude,beta,q1,1,1", "claude,beta,q3,0,1", "claude,beta,q3,1,1"])
    # R0 -- old: alpha q1 1,1; alpha q2 0,0; beta q1 1; beta q3 0 -- other: alpha q1 0
    old = _write(tmp_path, "old.csv", ["old,alpha,q1,0,1", "old,alpha,q1,1,1", "old,alpha,q2,0,0", "old,alpha,q2,1,0",
                                       "old,beta,q1,0,1", "old,beta,q3,0,0", "other,alpha,q1,0,0"])
    return runs, old


def _json(capsys, *argv):
    assert main([*map(str, argv), "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def _board(capsys, runs, task, *extra):
    out = _json(capsys, "leaderboard", runs, "--task", task, *extra)
    return {r["model"]: r for r in out["rows"]}, out


@pytest.mark.parametrize("extra", [["--prior", "uniform", "--prior-model", "old"], [], ["--schema", "exact_match"]])
def test_tasks_cells_equal_the_leaderboard_with_r0_of_each_task(tmp_path, capsys, extra):
    runs, old = _data(tmp_path)
    out = _json(capsys, "tasks", runs, "--prior-outcomes", old, *extra)
    assert out["prior_outcomes"] == "old.csv" and out["prior_model"] == ("old" if "old" in extra else None)
    plain = _json(capsys, "tasks", runs, *[x for x in extra if x not in ("--prior-model", "old")])
    assert plain["prior_outcomes"] is None and plain["prior_model"] is None
    for task in ("alpha", "beta"):
        rows, board = _board(capsys, runs, task, "--prior-outcomes", old, *extra)
        cells = {c["model"]: c for c in out["cells"] if c["task"] == task}
        for model in ("gpt", "claude"):
            assert [cells[model][k] for k in ("bayes", "lo", "hi")] == [rows[model][k] for k in ("mu", "lo", "hi")]
        (mine,) = [n for n in out["notes"] if n["code"] == "prior_outcomes" and n["task"] == task]
        (theirs,) = [n for n in board["notes"] if n["code"] == "prior_outcomes"]
        assert mine == theirs  # the same note: source, matched, prior trials, not_used
    if "uniform" in extra:
        assert {c["model"]: c["bayes"] for c in plain["cells"]} != {c["model"]: c["bayes"] for c in out["cells"]}


def test_tasks_r0_by_hand_under_the_uniform_prior(tmp_path, capsys):
    runs, old = _data(tmp_path)
    out = _json(capsys, "tasks", runs, "--prior", "uniform", "--prior-outcomes", old, "--prior-model", "old")
    gpt_beta = next(c for c in out["cells"] if c["task"] == "beta" and c["model"] == "gpt")
    mu, _ = sc.eval.bayes(np.array([[0, 0], [1, 0]]), None, np.array([[1], [0]]))  # R0 of beta: q1 1, q3 0
    assert gpt_beta["bayes"] == pytest.approx(mu, abs=1e-12)
    # Eq. 6 by hand: q1 correct 1 + 0 + 1 of 1 + 1 + 2 + 1 = 5; q3 correct 1 + 1 + 0 of 5
    assert gpt_beta["bayes"] == pytest.approx(((1 + 0 + 1) / 5 + (1 + 1 + 0) / 5) / 2)


def test_compare_rows_equal_the_leaderboard_with_r0_and_the_settings_name_it(tmp_path, capsys):
    runs, old = _data(tmp_path)
    args = ["--prior", "uniform", "--prior-outcomes", old, "--prior-model", "old"]
    out = _json(capsys, "compare", runs, "--task", "alpha", "--models", "gpt", "claude", *args)
    rows, board = _board(capsys, runs, "alpha", *args)
    for side, model in (("a", "gpt"), ("b", "claude")):
        assert [out[side][k] for k in ("mu", "sigma", "lo", "hi")] == [rows[model][k] for k in ("mu", "sigma", "lo", "hi")]
    mu_gpt, _ = sc.eval.bayes(np.array([[1, 0], [1, 1]]), None, np.array([[1, 1], [0, 0]]))
    assert out["a"]["mu"] == pytest.approx(mu_gpt, abs=1e-12)
    assert out["difference"]["mean"] == pytest.approx(rows["gpt"]["mu"] - rows["claude"]["mu"])
    assert out["settings"]["prior_outcomes"] == "old.csv" and out["settings"]["prior_model"] == "old"
    (note,) = [n for n in board["notes"] if n["code"] == "prior_outcomes"]
    assert note in out["notes"]  # the leaderboard's note object, as in every command
    plain = _json(capsys, "compare", runs, "--task", "alpha", "--models", "gpt", "claude", "--prior", "uniform")
    assert plain["settings"]["prior_outcomes"] is None and plain["settings"]["prior_model"] is None
    assert plain["a"]["mu"] != out["a"]["mu"]  # and the trials needed use R0 too
    assert plain["trials_needed"]["z_observed"] != out["trials_needed"]["z_observed"]


def test_export_csv_md_html_and_manifest_carry_r0(tmp_path, capsys):
    runs, old = _data(tmp_path)
    args = ["--task", "alpha", "--prior", "uniform", "--prior-outcomes", old, "--prior-model", "old"]
    rows, board = _board(capsys, runs, "alpha", *args[2:])
    assert main(["export", runs, "--format", "csv", *args]) == 0
    out, err = capsys.readouterr()
    import csv
    import io

    table = {r["model"]: r for r in csv.DictReader(io.StringIO(out))}
    for model in ("gpt", "claude"):
        assert float(table[model]["mu"]) == pytest.approx(rows[model]["mu"], abs=1e-12)
        assert table[model]["prior_outcomes"] == "old.csv, model old"
    assert "prior outcomes R0 from old.csv, model old" in err
    assert main(["export", runs, "--format", "md", *args]) == 0
    assert "Prior outcomes R0: old.csv, model old" in capsys.readouterr().out
    assert main(["export", runs, "--format", "html", *args]) == 0
    assert "Prior outcomes R0" in capsys.readouterr().out
    manifest = tmp_path / "a.manifest.json"
    assert main(["export", runs, "--format", "manifest", "--out", str(manifest), *args]) == 0
    capsys.readouterr()
    prior = json.loads(manifest.read_text())["prior"]
    assert prior["kind"] == "dataset" and prior["label"] == "old.csv" and prior["model"] == "old"
    assert len(prior["sources"]) == 1 and len(prior["sources"][0]) == 64
    # restoring: R0 from the same file only (--prior-model and --prior uniform from the manifest)
    assert main(["export", runs, "--format", "csv", "--manifest", str(manifest), "--prior-outcomes", old]) == 0
    again = {r["model"]: r for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert again["gpt"]["mu"] == table["gpt"]["mu"]
    assert main(["export", runs, "--format", "csv", "--manifest", str(manifest)]) == 2
    assert "the manifest records prior outcomes R0 (old.csv, model old); pass those trials with --prior-outcomes" in \
        capsys.readouterr().err
    assert main(["export", runs, "--format", "csv", "--manifest", str(manifest), "--prior-outcomes", runs]) == 2
    assert "--prior-outcomes runs.csv is not the prior outcomes R0 it records" in capsys.readouterr().err
    plain = tmp_path / "plain.manifest.json"
    assert main(["export", runs, "--format", "manifest", "--task", "alpha", "--out", str(plain)]) == 0
    assert json.loads(plain.read_text())["prior"] is None


def test_publish_refuses_r0_before_storing_anything(tmp_path, capsys):
    runs, old = _data(tmp_path)
    workspace = tmp_path / "ws"
    for extra in (["--prior-outcomes", old], ["--prior-outcomes", old, "--prior-model", "old"], ["--prior-model", "old"]):
        assert main(["publish", runs, "--workspace", str(workspace), *extra]) == 2
        err = capsys.readouterr().err
        assert "publish cannot carry the prior outcomes R0 yet" in err
        assert "`leaderboard --prior-outcomes FILE` and `export --prior-outcomes FILE" in err
    assert not workspace.exists() or not any(workspace.rglob("*.csv"))


@pytest.mark.parametrize("command", [["tasks"], ["compare", "--task", "alpha", "--models", "gpt", "claude"],
                                     ["export", "--format", "csv", "--task", "alpha"]])
def test_refusals_as_leaderboard(tmp_path, capsys, command):
    runs, old = _data(tmp_path)
    name, *rest = command
    assert main([name, runs, *rest, "--prior-model", "old"]) == 2
    assert "--prior-model picks a model of --prior-outcomes FILE" in capsys.readouterr().err
    assert main([name, runs, *rest, "--prior-outcomes", old, "--prior-model", "nobody"]) == 2
    assert "the prior outcomes have no model 'nobody'; models there: old, other" in capsys.readouterr().err
    dup = _write(tmp_path, "dup.csv", ["old,alpha,q1,0,1", "old,alpha,q1,0,1"])
    assert main([name, runs, *rest, "--prior-outcomes", dup]) == 2
    assert "dup.csv: the prior outcomes need a choice first" in capsys.readouterr().err


def test_export_refuses_r0_with_another_metric_and_compare_with_a_sampled_scope(tmp_path, capsys):
    runs, old = _data(tmp_path)
    assert main(["export", runs, "--format", "csv", "--task", "alpha", "--metric", "pass@k", "--prior-outcomes", old]) == 2
    assert "prior outcomes R0 enter Bayes@N only (--metric bayes); --metric pass@k ignores them" in capsys.readouterr().err
    assert main(["compare", runs, "--task", "alpha", "--models", "gpt", "claude", "--scope", "questions-sampled",
                 "--prior-outcomes", old]) == 2
    assert "--prior-outcomes: the paired difference of --scope questions-sampled does not take prior outcomes R0" in \
        capsys.readouterr().err


def test_help_names_the_option(capsys):
    for command in ("tasks", "compare", "export", "publish"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "--prior-outcomes FILE" in capsys.readouterr().out
