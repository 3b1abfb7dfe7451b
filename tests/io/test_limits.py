"""Bounded resources for hostile uploads (issue 17): bombs and deep JSON end in a clear InputError.

Every crafted file is generated here in tmp_path (nothing committed); limits are lowered through
their environment variables so the tests stay fast.
"""

from __future__ import annotations

import gzip
import io as _io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from scorio_core import io
from scorio_core.cli import main
from scorio_core.errors import InputError
from scorio_core.limits import get_limits

ROOT = Path(__file__).resolve().parents[2]
INSPECT = ROOT / "tests" / "fixtures" / "formats" / "inspect_ai" / "log_read_sample.eval"


def _gzip_bomb(path: Path, megabytes: int) -> Path:
    with gzip.open(path, "wb", compresslevel=9) as fh:
        block = b"0" * (1 << 20)
        fh.write(b"model,question_id,is_correct\n")
        for _ in range(megabytes):
            fh.write(block)
    return path


def test_gzip_bomb_stops_at_the_limit(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", str(8 << 20))
    bomb = _gzip_bomb(tmp_path / "bomb.csv.gz", 40)
    assert bomb.stat().st_size < 200_000
    with pytest.raises(InputError, match=r"bomb\.csv\.gz.*more than 8\.0 MiB.*SCORIO_MAX_DECOMPRESSED_BYTES"):
        io.load([str(bomb)])
    assert main(["quality", str(bomb)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "SCORIO_MAX_DECOMPRESSED_BYTES" in err and err.count("\n") == 1


def test_small_gzip_still_loads(tmp_path):
    path = tmp_path / "ok.csv.gz"
    path.write_bytes(gzip.compress(b"model,question_id,is_correct\na,q1,1\na,q2,0\n"))
    assert len(io.load([str(path)]).attempts) == 2


# --------------------------------------------------------------------------- gzip counted while streaming
_HEADER = b"model,question_id,trial,is_correct\n"


def _csv_bomb(path: Path, mebibytes: int) -> Path:
    """A valid CSV header then ``mebibytes`` MiB of ``a,q1,1,1`` rows, gzipped block by block (never held whole)."""
    block = b"a,q1,1,1\n" * ((1 << 20) // 9)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6) as fh:
        fh.write(_HEADER)
        for _ in range(mebibytes):
            fh.write(block)
    return path


def test_csv_gzip_bomb_is_refused_naming_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", str(1 << 20))
    bomb = _csv_bomb(tmp_path / "bomb.csv.gz", 50)
    with pytest.raises(InputError, match=r"^bomb\.csv\.gz: decompresses to more than 1\.0 MiB \(limit "
                                         r"SCORIO_MAX_DECOMPRESSED_BYTES\); split the file or raise the limit\.$"):
        io.load([str(bomb)])


@pytest.mark.parametrize("limit_mib", [1, 32])
def test_gzip_bomb_is_counted_while_streaming(tmp_path, monkeypatch, limit_mib):
    """Refusing 40 MiB of content never holds it: traced peak < 20 MiB even with the limit at 32 MiB."""
    import tracemalloc

    from scorio_core.io._gzip import gunzip_limited

    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", str(limit_mib << 20))
    raw = _csv_bomb(tmp_path / "bomb.csv.gz", 40).read_bytes()
    tracemalloc.start()
    try:
        with pytest.raises(InputError, match=rf"bomb\.csv\.gz: decompresses to more than {limit_mib}\.0 MiB"):
            gunzip_limited(raw, "bomb.csv.gz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 << 20, f"peak {peak / 2**20:.1f} MiB"


def test_gzip_within_the_limit_is_decompressed_without_an_extra_copy(tmp_path):
    import tracemalloc

    from scorio_core.io._gzip import gunzip_limited

    raw = _csv_bomb(tmp_path / "big.csv.gz", 40).read_bytes()
    tracemalloc.start()
    try:
        data = gunzip_limited(raw, "big.csv.gz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(data, bytes) and data.startswith(_HEADER) and len(data) == len(_HEADER) + 40 * 9 * ((1 << 20) // 9)
    assert peak < 1.3 * len(data), f"peak {peak / 2**20:.1f} MiB for {len(data) / 2**20:.1f} MiB"  # one copy, not two


def test_concatenated_members_and_a_file_exactly_at_the_limit_load(tmp_path, monkeypatch):
    rows = b"".join(f"m{i % 3},q{i % 50},{i // 150},{i % 2}\n".encode() for i in range(1500))
    first, second = _HEADER + rows[:20_000], rows[20_000:]
    path = tmp_path / "two.csv.gz"
    path.write_bytes(gzip.compress(first) + gzip.compress(second) + b"\x00" * 16)  # zero padding, as before
    content = len(first) + len(second)
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", str(content))
    assert len(io.load([str(path)]).attempts) == 1500
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", str(content - 1))
    with pytest.raises(InputError, match=r"two\.csv\.gz: decompresses to more than"):
        io.load([str(path)])


def test_damaged_gzip_is_still_an_input_error(tmp_path):
    whole = gzip.compress(_HEADER + b"a,q1,1,1\n" * 1000)
    for name, raw in [("cut.csv.gz", whole[:-20]), ("tail.csv.gz", whole + b"junk")]:
        (tmp_path / name).write_bytes(raw)
        with pytest.raises(InputError, match=rf"{name.replace('.', r'[.]')}: the gzip stream is damaged or truncated"):
            io.load([str(tmp_path / name)])


def test_cli_leaderboard_refuses_a_gzip_bomb_in_one_line(tmp_path):
    bomb = _csv_bomb(tmp_path / "bomb.csv.gz", 64)
    env = {"SCORIO_MAX_DECOMPRESSED_BYTES": str(8 << 20), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "scorio_core", "leaderboard", str(bomb)], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: bomb.csv.gz: decompresses to more than 8.0 MiB"), proc.stderr
    assert "SCORIO_MAX_DECOMPRESSED_BYTES" in lines[0] and proc.stdout == ""


def _eval_with(tmp_path, name, extra: dict[str, bytes]) -> Path:
    """The genuine Inspect fixture with extra members added."""
    out = tmp_path / name
    with zipfile.ZipFile(INSPECT) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        for member, data in extra.items():
            dst.writestr(member, data)
    return out


def test_zip_member_bomb(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORIO_MAX_DECOMPRESSED_BYTES", str(4 << 20))
    bomb = _eval_with(tmp_path, "bomb.eval", {"samples/zzz_epoch_1.json": b" " * (16 << 20)})
    with pytest.raises(InputError, match=r"bomb\.eval.*more than 4\.0 MiB"):
        io.load([str(bomb)])


def test_zip_with_too_many_members(tmp_path, monkeypatch):
    monkeypatch.setenv("SCORIO_MAX_ARCHIVE_MEMBERS", "50")
    many = _eval_with(tmp_path, "many.eval", {f"junk/{i}.txt": b"" for i in range(60)})
    with pytest.raises(InputError, match=r"many\.eval.*more than the limit of 50 \(SCORIO_MAX_ARCHIVE_MEMBERS\)"):
        io.load([str(many)])


def test_genuine_eval_still_loads():
    assert io.load([str(INSPECT)]).attempts is not None


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl"])
def test_deep_json_is_an_input_error(tmp_path, name, capsys):
    path = tmp_path / name
    path.write_bytes(b"[" * 200_000 + b"]" * 200_000 + b"\n")
    with pytest.raises(InputError, match=name.replace(".", r"\.")):
        io.load([str(path)])
    assert main(["quality", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "RecursionError" not in err and err.count("\n") == 1


def test_deep_json_inside_an_inspect_header(tmp_path):
    buf = _io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("header.json", b'{"eval": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    path = tmp_path / "deep.eval"
    path.write_bytes(buf.getvalue())
    with pytest.raises(InputError, match=r"deep\.eval"):
        io.load([str(path)])


def test_bad_limit_variable_is_named(monkeypatch):
    monkeypatch.setenv("SCORIO_MAX_ARCHIVE_MEMBERS", "lots")
    with pytest.raises(ValueError, match="SCORIO_MAX_ARCHIVE_MEMBERS"):
        get_limits()


def test_gzip_bomb_under_an_address_space_limit(tmp_path):
    """A regression must fail this test, not the machine: the CLI runs with RLIMIT_AS = 1.5 GiB."""
    bomb = _gzip_bomb(tmp_path / "big.csv.gz", 300)  # 300 MiB inside, ~300 kB on disk
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 << 29, 3 << 29)); "
        "from scorio_core.cli import main; sys.exit(main(['quality', sys.argv[1]]))"
    )
    env = {"SCORIO_MAX_DECOMPRESSED_BYTES": str(100 << 20), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", code, str(bomb)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "SCORIO_MAX_DECOMPRESSED_BYTES" in proc.stderr and "Traceback" not in proc.stderr


def test_npz_header_declaring_a_huge_array_is_refused_before_allocation(tmp_path):
    import numpy as np

    buf = _io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": "<i8", "fortran_order": False, "shape": (10**5, 10**5, 10**5)})
    buf.write(b"\x00" * 64)
    path = tmp_path / "huge.npz"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("R.npy", buf.getvalue())
    with pytest.raises(InputError, match=r"huge\.npz.*array 'R' declares .*SCORIO_MAX_DECOMPRESSED_BYTES"):
        io.load([str(path)])
    npy = tmp_path / "huge.npy"
    npy.write_bytes(buf.getvalue())
    with pytest.raises(InputError, match=r"huge\.npy.*SCORIO_MAX_DECOMPRESSED_BYTES"):
        io.load([str(npy)])


# --------------------------------------------------------------------------- dataset-size limits
def _long_csv(path: Path, models: int, questions: int, trials: int, task: str | None = None) -> Path:
    head = "model,question_id,trial,is_correct" + (",task" if task else "")
    rows = [
        f"m{m},q{q},{t},{(m + q + t) % 2}" + (f",{task}" if task else "")
        for m in range(models) for q in range(questions) for t in range(trials)
    ]
    path.write_text(head + "\n" + "\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize(
    ("var", "limit", "shape", "found"),
    [
        ("SCORIO_MAX_MODELS", 3, (4, 2, 1), "4 found"),
        ("SCORIO_MAX_QUESTIONS", 5, (1, 6, 1), "6 found"),
        ("SCORIO_MAX_TRIALS", 7, (1, 1, 8), "8 found"),
        ("SCORIO_MAX_ROWS", 10, (2, 3, 2), "12 found"),
    ],
)
def test_dataset_size_limits(tmp_path, monkeypatch, capsys, var, limit, shape, found):
    path = _long_csv(tmp_path / "big.csv", *shape)
    assert io.load([str(path)]).attempts is not None  # loads under the defaults
    monkeypatch.setenv(var, str(limit))
    pattern = rf"big\.csv: .*{found}, more than the limit of {limit} \({var}\).*raise the limit with {var}"
    with pytest.raises(InputError, match=pattern):
        io.load([str(path)])
    monkeypatch.setenv(var, str(limit + 1 if var != "SCORIO_MAX_ROWS" else 12))
    assert io.load([str(path)]).attempts is not None  # the limit itself is allowed
    monkeypatch.setenv(var, str(limit))
    assert main(["quality", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: big.csv: ") and var in err and err.count("\n") == 1


def test_size_limits_name_only_the_files_concerned(tmp_path, monkeypatch):
    a = _long_csv(tmp_path / "a.csv", 1, 2, 1, task="small")
    b = _long_csv(tmp_path / "b.csv", 1, 9, 1, task="large")
    monkeypatch.setenv("SCORIO_MAX_QUESTIONS", "5")
    with pytest.raises(InputError) as info:
        io.load([str(a), str(b)])
    assert str(info.value).startswith("b.csv: too many questions in task 'large': 9 found")
    monkeypatch.setenv("SCORIO_MAX_QUESTIONS", "100")
    monkeypatch.setenv("SCORIO_MAX_MODELS", "1")
    c = _long_csv(tmp_path / "c.csv", 2, 1, 1, task="small")
    with pytest.raises(InputError, match=r"^a\.csv, b\.csv, c\.csv: too many models: 2 found"):
        io.load([str(a), str(b), str(c)])


def test_trial_limit_on_count_tables_sums_n_trials(tmp_path, monkeypatch):
    path = tmp_path / "counts.csv"
    path.write_text("model,question_id,n_trials,n_correct\nm1,q1,60,3\nm1,q2,5,1\n")
    monkeypatch.setenv("SCORIO_MAX_TRIALS", "50")
    with pytest.raises(InputError, match=r"counts\.csv: too many trials for one question \(model 'm1', task 'counts', question 'q1'\): 60 found"):
        io.load([str(path)])
    monkeypatch.setenv("SCORIO_MAX_TRIALS", "60")
    assert io.load([str(path)]).counts is not None


def test_trial_limit_counts_duplicated_attempt_rows(tmp_path, monkeypatch):
    path = tmp_path / "dups.csv"
    path.write_text("model,question_id,trial,is_correct\n" + "m,q,0,1\n" * 5 + "m,r,0,1\n")
    monkeypatch.setenv("SCORIO_MAX_TRIALS", "4")
    with pytest.raises(InputError, match=r"dups\.csv: too many trials .*question 'q'\): 5 found.*SCORIO_MAX_TRIALS"):
        io.load([str(path)])


def test_size_limit_defaults_and_bad_values(monkeypatch):
    lim = get_limits()
    assert (lim.max_models, lim.max_questions, lim.max_trials, lim.max_rows) == (200_000, 1_000_000, 100_000, 200_000_000)
    monkeypatch.setenv("SCORIO_MAX_ROWS", "0")
    with pytest.raises(ValueError, match="SCORIO_MAX_ROWS must be >= 1"):
        get_limits()


def test_load_reports_progress_and_can_be_stopped():
    # the app shows these steps and cancels a long load by raising from the callback (a Streamlit rerun)
    from scorio_core.io import load

    files = [(f"f{i}.csv", f"model,question_id,trial,is_correct\nm{i},q1,0,1\nm{i},q2,0,0\n".encode()) for i in range(3)]
    seen = []
    load(files, progress=lambda fraction, message: seen.append((fraction, message)))
    assert [round(f, 3) for f, _ in seen] == [0.0, 0.25, 0.5, 0.75]
    assert seen[0][1] == "Reading f0.csv (1 of 3)" and "quality" in seen[-1][1]

    class Stop(Exception):
        pass

    def stop(fraction, message):
        if fraction > 0:
            raise Stop

    with pytest.raises(Stop):
        load(files, progress=stop)


def _blas_threads():
    from threadpoolctl import threadpool_info

    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_single_threaded_blas_inside_nested_and_concurrent_blocks_and_restored_after():
    import threading

    import numpy as np

    from scorio_core.limits import single_threaded_blas

    with single_threaded_blas():
        pass
    before = _blas_threads()
    assert before  # numpy's and scipy's OpenBLAS are found
    with single_threaded_blas():
        assert set(_blas_threads()) == {1}
        with single_threaded_blas():
            assert set(_blas_threads()) == {1}
        assert set(_blas_threads()) == {1}  # the outer block still holds
    assert _blas_threads() == before
    with pytest.raises(RuntimeError):
        with single_threaded_blas():
            raise RuntimeError("boom")
    assert _blas_threads() == before
    errors = []

    def work():
        try:
            with single_threaded_blas():
                np.ones((60, 60)) @ np.ones((60, 60))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and _blas_threads() == before


def test_limit_blas_threads_reads_its_variable():
    import os

    code = ("from scorio_core.limits import limit_blas_threads; import numpy, scipy.optimize, os; "
            "n = limit_blas_threads(); from threadpoolctl import threadpool_info; "
            "print(n, sorted({p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}), "
            "os.environ['OPENBLAS_NUM_THREADS'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "[1]", "1"]
    env = {**os.environ, "SCORIO_BLAS_THREADS": "0"}
    bad = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert bad.returncode != 0 and "SCORIO_BLAS_THREADS must be >= 1" in bad.stderr
