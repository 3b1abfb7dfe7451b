"""Count arrays -> count table (scorio_core.engines.frames): row order and duplicate keys against numpy's sorts."""

import numpy as np
import pandas as pd
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorio_core.engines.frames import count_frame, dense_key, key_order, n_duplicate_keys, order_rows


def _codes(draw_sizes, n, seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, s, n) for s in draw_sizes]


@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(1, 40), min_size=3, max_size=3), n=st.integers(0, 300), seed=st.integers(0, 2**32 - 1),
       unique=st.booleans(), presorted=st.booleans())
@example(sizes=[1, 1, 1], n=1, seed=0, unique=True, presorted=False)
@example(sizes=[3, 1, 5], n=15, seed=1, unique=True, presorted=False)  # every key once: the scatter path
def test_key_order_is_the_stable_lexsort(sizes, n, seed, unique, presorted):
    codes = _codes(sizes, n, seed)
    if unique:  # distinct keys, as an engine's GROUP BY or a ready count table gives
        key = dense_key(codes, sizes)
        _, first = np.unique(key, return_index=True)
        first = np.random.default_rng(seed).permutation(first)
        codes = [c[first] for c in codes]
    if presorted:
        order = np.lexsort(codes[::-1])
        codes = [c[order] for c in codes]
    got, n_dup = order_rows(codes, sizes)
    want = np.lexsort(codes[::-1])
    if got is None:
        assert np.array_equal(want, np.arange(len(want)))
    else:
        assert np.array_equal(got, want)
    assert n_dup == int(pd.DataFrame({i: c for i, c in enumerate(codes)}).duplicated().sum())
    if unique:
        assert n_dup == 0


@settings(max_examples=200, deadline=None)
@given(sizes=st.lists(st.integers(1, 30), min_size=3, max_size=3), n=st.integers(0, 200), seed=st.integers(0, 2**32 - 1))
def test_duplicate_keys_counted_as_pandas_does(sizes, n, seed):
    codes = _codes(sizes, n, seed)
    frame = pd.DataFrame({i: c for i, c in enumerate(codes)})
    assert n_duplicate_keys(codes, sizes) == int(frame.duplicated().sum())


def test_huge_key_space_falls_back_to_lexsort():
    sizes = [2**21, 2**21, 2**21]  # product >= 2**62: no combined key
    codes = [np.array([5, 5, 1, 5]), np.array([2, 1, 9, 1]), np.array([0, 3, 3, 3])]
    assert dense_key(codes, sizes) is None
    assert np.array_equal(key_order(codes, sizes), np.lexsort(codes[::-1]))
    assert n_duplicate_keys(codes, sizes) == 1


def test_count_frame_orders_naturally_from_codes_or_values():
    cells = {
        "model": np.array([1, 0, 1, 0], dtype=np.int32), "model__values": ["m-10", "m-9"],
        "task": np.zeros(4, dtype=np.int32), "task__values": ["t"],
        "question_id": np.array([0, 1, 1, 0], dtype=np.int32), "question_id__values": ["q2", "q10"],
        "n_trials": np.array([4, 5, 6, 7]), "n_correct": np.array([1, 2, 3, 4]),
    }
    frame = count_frame(cells)
    assert list(frame["model"].cat.categories) == ["m-9", "m-10"]  # natural order, not "m-10" < "m-9"
    assert list(frame["question_id"].cat.categories) == ["q2", "q10"]
    assert frame.astype(str).values.tolist() == [
        ["m-9", "t", "q2", "4", "1"], ["m-9", "t", "q10", "6", "3"],
        ["m-10", "t", "q2", "7", "4"], ["m-10", "t", "q10", "5", "2"],
    ]
    by_value = count_frame({"model": np.array(["m-9", "m-10", "m-9", "m-10"], dtype=object), "task": np.array(["t"] * 4, dtype=object),
                            "question_id": np.array(["q2", "q10", "q10", "q2"], dtype=object),
                            "n_trials": cells["n_trials"], "n_correct": cells["n_correct"]})
    pd.testing.assert_frame_equal(by_value.astype(str), frame.astype(str))
