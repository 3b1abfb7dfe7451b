"""Built-in schemas: binary correctness, the paper's 12 schemata, 5 reference schemas.

* **Binary correctness** (the app's default): wrong / correct on ``is_correct``, ``w = [0, 1]``.
* **Paper schemata** (Hariri et al., ICLR 2026, Appendix F.1, Table 5) over the rubric
  variables and thresholds of Table 4. Weights: the paper gives only Format Aware's
  ``[0, 0, 1, 2, 3]`` (F.1); the others are ours, integer ladders in the same spirit:
  invalid is 0, the worst wrong category is 0, correct categories rank above all wrong
  ones, and each refinement the schema's description rewards adds 1.
* **Reference base-signal schemas** (scorio 0.2.3, ``scorio/categorical/schemas.py``):
  Confident & Correct, Token Surprise vs. Correctness, Format Compliance & Correctness,
  Difficulty-Adjusted Correctness, IO Ratio Profile. Weights are the scores the package's
  code returns, not the weight vectors of its categorical README, which disagree (README
  ``[1, .5, .5, 0]`` for the first three, ``[1, .75, .5, 0]`` for Difficulty-Adjusted and
  a malformed 6-entry vector for the 7 IO Ratio categories): the code is what the package
  computes and what our tests cross-check. Categories are ordered by increasing weight so
  codes equal the reference's ``R`` when weights are distinct; "high"/"low" levels are
  ``>= median`` / ``< median`` of the pooled data, as in ``Thresholds.from_columns``.
  Unlike the reference, which silently treats a missing signal as "low"/"0", attempts
  with missing signals are left unmatched and reported.

Readings of Table 5 where the literal text is ambiguous (documented per schema):
``wrong_low_conf`` is ``wrong and completion_bpt > tau_low_wrong`` so that the two wrong
categories of Conf-Calibrated and Conf-Wrong Penalty split wrong attempts at one threshold
(``wrong and low_conf`` with ``low_conf`` on tau_high could overlap ``wrong_high_conf`` or
leave a gap); Conf-Calibrated grades correct attempts by corr_p33/corr_p66 (Table 4's
percentiles of completion_bpt among correct attempts, otherwise unused); Verifier-Only's
"high C"/"high B" are the larger of C and B when A is not high; Concision-High-Conf's
category 4 excludes high confidence so that category 5 is reachable under first-match.
"""

from __future__ import annotations

import dataclasses
import re
from difflib import get_close_matches

import numpy as np

from scorio_core.errors import InputError
from scorio_core.rubric.expr import names, parse
from scorio_core.rubric.schema import Category, Schema, Threshold, Variable

__all__ = ["BUILTIN_SCHEMAS", "CATEGORY_CODES_SCHEMA", "DEFAULT_SCHEMA", "FORMAT_CODE_SCALES", "SCALE_COLUMN", "category_code_schema",
           "code_weights_text", "default_schema_for", "default_schema_note", "get_schema", "list_schemas"]

PAPER = "Hariri et al., Don't Pass@k (ICLR 2026), Appendix F.1, Tables 4-5"
REFERENCE = "scorio 0.2.3, scorio/categorical/schemas.py (weights from the code)"

_THRESHOLDS = (
    Threshold("tau_high", percentile=40, of="completion_bpt", description="Table 4: 40th pct of completion_bpt"),
    Threshold("tau_low_wrong", percentile=60, of="completion_bpt", where="wrong",
              description="Table 4: 60th pct of completion_bpt among wrong attempts"),
    Threshold("tau_prompt", percentile=90, of="prompt_bpt", description="Table 4: 90th pct of prompt_bpt"),
    Threshold("len_p33", percentile=33, of="token_ratio", description="Table 4: 33rd pct of token_ratio"),
    Threshold("len_p66", percentile=66, of="token_ratio", description="Table 4: 66th pct of token_ratio"),
    Threshold("corr_p33", percentile=33, of="completion_bpt", where="correct",
              description="Table 4: 33rd pct of completion_bpt among correct attempts"),
    Threshold("corr_p66", percentile=66, of="completion_bpt", where="correct",
              description="Table 4: 66th pct of completion_bpt among correct attempts"),
    Threshold("tau_invalid_C", value=0.5, description="Table 4: invalid when compass_context_C >= 0.5"),
    Threshold("tau_A_high", value=0.6, description="Table 4: A_high when compass_context_A >= 0.6"),
    # reference base-signal schemas: median of the pooled data
    Threshold("c1_median", percentile=50, of="completion_logprob_mean", description="median of C1"),
    Threshold("lp_min_median", percentile=50, of="completion_logprob_min", description="median of T_lp_min"),
    Threshold("p2_median", percentile=50, of="prompt_ppl", description="median of P2"),
    Threshold("p3_median", percentile=50, of="prompt_logprob_sum", description="median of P3"),
    Threshold("c3_median", percentile=50, of="completion_logprob_sum", description="median of C3"),
)

_VARIABLES = (
    Variable("invalid", "repeated_pattern == 1 or compass_context_C >= tau_invalid_C", "Table 4"),
    Variable("correct", "is_correct >= 0.5", "Table 4"),
    Variable("wrong", "is_correct < 0.5", "Table 4"),
    Variable("high_conf", "completion_bpt <= tau_high", "Table 4: confidence proxy"),
    Variable("low_conf", "completion_bpt > tau_high", "Table 4"),
    Variable("wrong_high_conf", "wrong and completion_bpt <= tau_low_wrong", "Table 4"),
    Variable("wrong_low_conf", "wrong and completion_bpt > tau_low_wrong", "complement of wrong_high_conf among wrong"),
    Variable("ood", "prompt_bpt >= tau_prompt", "Table 4: out-of-distribution prompt"),
    Variable("ind", "prompt_bpt < tau_prompt", "Table 4: in-distribution prompt"),
    Variable("economical", "token_ratio <= len_p33", "Table 4"),
    Variable("moderate", "len_p33 < token_ratio <= len_p66", "Table 4"),
    Variable("verbose", "token_ratio > len_p66", "Table 4"),
    Variable("boxed", "has_box >= 0.5", "Table 4"),
    Variable("unboxed", "has_box < 0.5", "Table 4"),
    Variable("A_high", "compass_context_A >= tau_A_high", "Table 4: verifier confident of correct"),
    Variable("high_C", "not A_high and compass_context_C > compass_context_B", "Verifier-Only: off-task leads"),
    Variable("high_B", "not A_high and compass_context_B >= compass_context_C", "Verifier-Only: wrong leads"),
    Variable("corr_high_conf", "completion_bpt <= corr_p33", "confidence tertile among correct"),
    Variable("corr_mid_conf", "corr_p33 < completion_bpt <= corr_p66", "Table 5 'mid'"),
    Variable("corr_low_conf", "completion_bpt > corr_p66", "confidence tertile among correct"),
    Variable("c1_high", "completion_logprob_mean >= c1_median", "reference C1 'high'"),
    Variable("c1_low", "completion_logprob_mean < c1_median", "reference C1 'low'"),
    Variable("lp_min_high", "completion_logprob_min >= lp_min_median", "reference T_lp_min 'high'"),
    Variable("lp_min_low", "completion_logprob_min < lp_min_median", "reference T_lp_min 'low'"),
    Variable("hard", "prompt_ppl >= p2_median", "reference P2 'high'"),
    Variable("easy", "prompt_ppl < p2_median", "reference P2 'low'"),
    Variable("p3_high", "prompt_logprob_sum >= p3_median", "reference P3 'high'"),
    Variable("p3_low", "prompt_logprob_sum < p3_median", "reference P3 'low'"),
    Variable("c3_high", "completion_logprob_sum >= c3_median", "reference C3 'high'"),
    Variable("c3_low", "completion_logprob_sum < c3_median", "reference C3 'low'"),
)
_VAR = {v.name: v for v in _VARIABLES}
_THR = {t.name: t for t in _THRESHOLDS}


def _make(name: str, description: str, source: str, categories) -> Schema:
    """Build a schema with exactly the shared variables/thresholds its conditions reach."""
    cats = tuple(Category(label, cond, weight) for label, cond, weight in categories)
    pending = [n for c in cats for n in names(parse(c.condition))]
    used: set[str] = set()
    while pending:
        n = pending.pop()
        if n in used:
            continue
        used.add(n)
        if n in _VAR:
            pending.extend(names(parse(_VAR[n].condition)))
        elif n in _THR and _THR[n].where:
            pending.extend(names(parse(_THR[n].where)))
    return Schema(name, cats, tuple(v for v in _VARIABLES if v.name in used),
                  tuple(t for t in _THRESHOLDS if t.name in used), description, source)


_TABLE5 = [
    ("Exact Match", "Correctness only; ignores formatting, confidence and length. Weights ours.",
     [("invalid", "invalid", 0), ("wrong", "wrong", 0), ("correct", "correct", 1)]),
    ("Format Aware", ("Rewards boxed answers; distinguishes boxed/unboxed even when wrong. "
     "Weights [0, 0, 1, 2, 3] from the paper (F.1)."),
     [("invalid", "invalid", 0), ("wrong, unboxed", "wrong and unboxed", 0),
      ("wrong, boxed", "wrong and boxed", 1), ("correct, unboxed", "correct and unboxed", 2),
      ("correct, boxed", "correct and boxed", 3)]),
    ("Conf-Calibrated", ("Penalizes confidently wrong; grades correct answers by confidence "
     "(low/mid/high tertiles of completion_bpt among correct: corr_p33, corr_p66). Wrong "
     "attempts split at tau_low_wrong. Weights ours: confidently wrong = invalid = 0."),
     [("invalid", "invalid", 0), ("wrong, low conf", "wrong_low_conf", 1),
      ("wrong, high conf", "wrong_high_conf", 0), ("correct, low conf", "correct and corr_low_conf", 2),
      ("correct, mid conf", "correct and corr_mid_conf", 3),
      ("correct, high conf", "correct and corr_high_conf", 4)]),
    ("OOD Robustness", ("Separates in-distribution and OOD prompts (tau_prompt); correctness on "
     "OOD prompts counts double. Weights ours."),
     [("invalid", "invalid", 0), ("OOD, wrong", "ood and wrong", 0), ("ID, wrong", "ind and wrong", 0),
      ("OOD, correct", "ood and correct", 2), ("ID, correct", "ind and correct", 1)]),
    ("Strict Compliance", "Requires boxed final answers; unboxed-correct is non-compliant. Weights ours.",
     [("invalid", "invalid", 0), ("wrong or unboxed", "wrong or (correct and unboxed)", 0),
      ("correct, boxed", "correct and boxed", 1)]),
    ("Conf-Wrong Penalty", ("Heavier penalty for wrong answers at high confidence, lighter when "
     "uncertain (wrong split at tau_low_wrong). Weights ours."),
     [("invalid", "invalid", 0), ("wrong, high conf", "wrong_high_conf", 0),
      ("wrong, low conf", "wrong_low_conf", 1), ("correct", "correct", 2)]),
    ("Verifier-Only", ("Uses verifier probabilities alone (compass_context_A/B/C): A_high, else "
     "the larger of B (wrong) and C (off-task). Weights ours."),
     [("invalid", "invalid", 0), ("verifier: off-task", "high_C", 0),
      ("verifier: wrong", "high_B", 1), ("verifier: correct", "A_high", 2)]),
    ("Format+Confidence", ("(boxed/unboxed) x (low/high confidence) for wrong and correct; "
     "rewards boxed high-confidence correctness, penalizes confidently wrong. Weights ours."),
     [("invalid", "invalid", 0), ("wrong, unboxed", "wrong and unboxed", 0),
      ("wrong, boxed, low conf", "wrong and boxed and low_conf", 1),
      ("wrong, boxed, high conf", "wrong and boxed and high_conf", 0),
      ("correct, unboxed, low conf", "correct and unboxed and low_conf", 2),
      ("correct, unboxed, high conf", "correct and unboxed and high_conf", 3),
      ("correct, boxed, low conf", "correct and boxed and low_conf", 4),
      ("correct, boxed, high conf", "correct and boxed and high_conf", 5)]),
    ("Length-Robust", ("Correctness irrespective of verbosity (same rubric as Exact Match in "
     "Table 5). Weights ours."),
     [("invalid", "invalid", 0), ("wrong", "wrong", 0), ("correct", "correct", 1)]),
    ("Verifier Prob", ("Agreement with the verifier: wrong with high A is inconsistent; "
     "under/over-confidence on correct. Weights ours."),
     [("invalid", "invalid", 0), ("wrong, A high", "wrong and A_high", 0),
      ("wrong, A not high", "wrong and not A_high", 1), ("correct, A not high", "correct and not A_high", 2),
      ("correct, A high", "correct and A_high", 3)]),
    ("Efficiency-Adjusted", ("Rewards short correct completions; penalizes verbosity, most when "
     "wrong (len_p33/len_p66 of token_ratio). Weights ours: each step toward verbose costs 1."),
     [("invalid", "invalid", 0), ("wrong, economical", "wrong and economical", 2),
      ("wrong, moderate", "wrong and moderate", 1), ("wrong, verbose", "wrong and verbose", 0),
      ("correct, economical", "correct and economical", 6), ("correct, moderate", "correct and moderate", 5),
      ("correct, verbose", "correct and verbose", 4)]),
    ("Concision-High-Conf", ("Prefers concise, high-confidence correct answers. Category 4 is "
     "economical without high confidence so that category 5 is reachable. Weights ours."),
     [("invalid", "invalid", 0), ("wrong", "wrong", 0), ("correct, verbose", "correct and verbose", 1),
      ("correct, moderate", "correct and moderate", 2),
      ("correct, economical", "correct and economical and not high_conf", 3),
      ("correct, economical, high conf", "correct and economical and high_conf", 4)]),
]

_REFERENCE = [
    ("Confident & Correct", ("Calibration: completion confidence C1 (mean log-prob, high = >= "
     "median) vs correctness. README weights [1, .5, .5, 0] not used (see module docs)."),
     [("Confidently Wrong", "wrong and c1_high", 0.1), ("Uncertain & Wrong", "wrong and c1_low", 0.2),
      ("Lucky or Cautious", "correct and c1_low", 0.6), ("Confident & Correct", "correct and c1_high", 1.0)]),
    ("Token Surprise vs. Correctness", ("Least likely completion token (T_lp_min, low = < median) "
     "vs correctness. README weights [1, .5, .5, 0] not used."),
     [("Critical Token Derailed Answer", "wrong and lp_min_low", 0.1),
      ("Smooth but Wrong", "wrong and lp_min_high", 0.3),
      ("Risky Token Bet Paid Off", "correct and lp_min_low", 0.6),
      ("Smooth Correct", "correct and lp_min_high", 0.9)]),
    ("Format Compliance & Correctness", ("Boxed answer (R2) vs correctness. README weights "
     "[1, .5, .5, 0] not used."),
     [("Fully Non-Compliant", "wrong and unboxed", 0.0), ("Obedient but Wrong", "wrong and boxed", 0.3),
      ("Correct but Unformatted", "correct and unboxed", 0.6), ("Full Compliance", "correct and boxed", 1.0)]),
    ("Difficulty-Adjusted Correctness", ("Prompt perplexity (P2, hard = >= median) vs "
     "correctness. README weights [1, .75, .5, 0] not used."),
     [("Easy Problem Failed", "wrong and easy", 0.1), ("Hard Problem Failed", "wrong and hard", 0.4),
      ("Easy Problem Solved", "correct and easy", 0.7), ("Hard Problem Solved", "correct and hard", 1.0)]),
    ("IO Ratio Profile", ("Total prompt (P3) and completion (C3) log-prob, high = >= median, vs "
     "correctness; the reference's two 'Mixed IO Profile' outcomes are split by correctness."),
     [("Complex Problem, Wasted Effort", "wrong and p3_low and c3_low", 0.1),
      ("Simple Problem, Brief Failure", "wrong and p3_high and c3_high", 0.2),
      ("Mixed IO Profile (wrong)", "wrong and ((p3_low and c3_high) or (p3_high and c3_low))", 0.2),
      ("Mixed IO Profile (correct)", "correct and p3_low and c3_low", 0.5),
      ("Appropriate Expansion", "correct and p3_high and c3_low", 0.8),
      ("Proportional IO", "correct and p3_high and c3_high", 0.8),
      ("Insightful Compression", "correct and p3_low and c3_high", 1.0)]),
]

DEFAULT_SCHEMA = "Binary correctness"

BUILTIN_SCHEMAS: dict[str, Schema] = {
    DEFAULT_SCHEMA: Schema(
        DEFAULT_SCHEMA,
        (Category("wrong", "is_correct < 0.5", 0.0), Category("correct", "is_correct >= 0.5", 1.0)),
        description="Correct or not (is_correct); Bayes@N with w = [0, 1] is the binary case.",
        source="binary Bayes@N (paper Section 2)",
    ),
    **{name: _make(name, desc, PAPER, cats) for name, desc, cats in _TABLE5},
    **{name: _make(name, desc, REFERENCE, cats) for name, desc, cats in _REFERENCE},
}


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


_BY_KEY = {_key(name): name for name in BUILTIN_SCHEMAS}
_BY_KEY.setdefault("binary", "Binary correctness")  # the name the commands' JSON settings give the default schema


def list_schemas() -> list[str]:
    """Names of the built-in schemas: the default, the paper's 12 (Table 5 order), the 5 reference.

    >>> list_schemas()[:3]
    ['Binary correctness', 'Exact Match', 'Format Aware']
    >>> len(list_schemas())
    18
    """
    return list(BUILTIN_SCHEMAS)


def get_schema(name: str) -> Schema:
    """A built-in schema by name; case, spaces and punctuation are ignored.

    Raises
    ------
    InputError
        For an unknown name, with the closest built-in names.

    >>> get_schema("format-aware").weights.tolist()
    [0.0, 0.0, 1.0, 2.0, 3.0]
    """
    if not isinstance(name, str):
        raise InputError(f"schema name must be a string; got {type(name).__name__}.")
    found = _BY_KEY.get(_key(name))
    if found is None:
        close = get_close_matches(name, list(BUILTIN_SCHEMAS), n=3, cutoff=0.5)
        hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
        raise InputError(f"unknown schema {name!r}.{hint} Built-in schemas: {', '.join(BUILTIN_SCHEMAS)}.")
    return BUILTIN_SCHEMAS[found]


#: Name of the rubric chosen by default for data with integer category codes and no is_correct.
CATEGORY_CODES_SCHEMA = "Category codes (weights: code / max code; edit on the Rubric page)"


#: Formats whose readers write category codes on a known scale (scorio_core.io.formats), named on each attempt in the
#: text column :data:`SCALE_COLUMN`: format key -> (the tool, the top code, each code's meaning or None). The default
#: rubric weighs code / top whichever codes one load holds (a model that never wins decisively must not make a plain
#: win full credit), and the column keeps the scale where the attempts are stored (a workspace's attempt table).
SCALE_COLUMN = "code_scale_label"
FORMAT_CODE_SCALES = {
    "arena-hard": ("Arena-Hard's verdicts from the model's side", 4, (
        "much worse than the baseline (>> for the baseline)", "worse than the baseline", "tie",
        "better than the baseline", "much better than the baseline (>> for the model)")),
    "alpaca-eval": ("AlpacaEval's rounded preferences", 2, (
        "the baseline's output preferred", "draw", "the model's output preferred")),
    "fastchat-judge": ("FastChat's ratings 1-10", 10, None),
    "wildbench": ("WildBench's ratings 1-10", 10, None),
    "fastchat-pair": ("FastChat's pairwise verdicts", 2, (
        "the baseline's answer preferred", "tie (or the two games disagree)", "the model's answer preferred")),
}


def category_code_schema(codes, scale: tuple | None = None) -> Schema:
    """A rubric with one category per observed category code, weighted code / max code.

    Parameters
    ----------
    codes : array-like of int
        Category codes of the attempts (values >= 0; missing values are ignored).
    scale : tuple (str, int, tuple of str or None), optional
        A tool's known scale (:data:`FORMAT_CODE_SCALES`): what the codes are, the top code the weights divide by
        (instead of the highest code found) and each code's meaning (the categories' descriptions).

    Returns
    -------
    Schema
        Categories ``code k`` with condition ``category == k`` for each distinct code, in increasing
        order, and weight ``k / max code`` (or ``k / top``: the highest code full credit, 0 none; all 0 when the only
        code is 0). The weights are a stated default: edit them (Rubric page, or a rubric JSON with ``--schema``).

    Raises
    ------
    InputError
        If no code is present.

    Examples
    --------
    >>> s = category_code_schema([0, 3, 2, 0, 1])
    >>> s.labels, [round(w, 3) for w in s.weights.tolist()]
    (('code 0', 'code 1', 'code 2', 'code 3'), [0.0, 0.333, 0.667, 1.0])
    >>> category_code_schema([2, 3], FORMAT_CODE_SCALES["arena-hard"]).weights.tolist()
    [0.5, 0.75]
    """
    values = np.asarray(codes, dtype=float).ravel()
    found = sorted({int(v) for v in np.unique(values[np.isfinite(values)]) if v >= 0 and float(v).is_integer()})
    if not found:
        raise InputError("the data has no category codes (column 'category' is empty); map a column of "
                         "integer codes as the category (--map category=COLUMN).", field="category")
    what, top, meaning = scale if scale is not None and max(found) <= scale[1] else (None, max(found), None)
    about = (f"{what}, weights code / {top} (the top of its scale, {top}, full credit; 0 none)" if what else
             "weights are a default, code / max code (the highest code counts fully, 0 not at all)")
    return Schema(
        CATEGORY_CODES_SCHEMA,
        tuple(Category(f"code {k}", f"category == {k}", float(np.float64(k) / top) if top else 0.0,
                       description=meaning[k] if meaning and k < len(meaning) else "") for k in found),
        description=(f"One category per category code found in the data ({', '.join(map(str, found))}); {about}"
                     + (" (" + "; ".join(f"{k} {meaning[k]}" for k in found if k < len(meaning)) + ")" if meaning
                        else "") + ": edit them to your rubric's credit per code."),
        source="default for data with category codes and no is_correct",
    )


def default_schema_for(dataset) -> Schema | None:
    """The rubric a dataset is scored with when none is chosen, if it is not binary correctness.

    Parameters
    ----------
    dataset : scorio_core.io.Dataset
        Loaded data.

    Returns
    -------
    Schema or None
        :func:`category_code_schema` of the data's codes when the attempts carry integer ``category``
        codes and no ``is_correct`` value (on the tool's scale when every coded attempt names one scale of
        :data:`FORMAT_CODE_SCALES` in :data:`SCALE_COLUMN`; said in the description when scales are mixed); None
        otherwise (binary correctness, today's default).
    """
    attempts = getattr(dataset, "attempts", None)
    if attempts is None or "category" not in attempts.columns or not attempts["category"].notna().any():
        return None
    if "is_correct" in attempts.columns and attempts["is_correct"].notna().any():
        return None
    coded = attempts["category"].notna().to_numpy()  # no copy of the attempts: two columns read
    scales = attempts[SCALE_COLUMN][coded] if SCALE_COLUMN in attempts.columns else None
    unnamed = scales is None or bool(scales.isna().any())  # codes of files that name no scale
    names = sorted({str(v) for v in scales.dropna().unique()} & set(FORMAT_CODE_SCALES)) if scales is not None else []
    mixed = len(names) > 1 or (bool(names) and unnamed)
    scale = FORMAT_CODE_SCALES[names[0]] if len(names) == 1 and not mixed else None
    schema = category_code_schema(attempts["category"].to_numpy(dtype=float, na_value=np.nan)[coded], scale)
    if mixed:  # one rubric reads every task: codes of another scale would be misweighed
        tools = [FORMAT_CODE_SCALES[n][0] for n in names]
        schema = dataclasses.replace(schema, description=(
            f"MIXED SCALES: this load holds category codes of {' and '.join(tools)}"
            + (" and of other files" if unnamed else "") + ", each on its own scale, and one rubric "
            "weighs them alike: load each tool's files on their own. " + schema.description))
    return schema


def code_weights_text(schema: Schema) -> str:
    """How the category-code default weighs the codes, for the CLI's note and the app's caption.

    >>> code_weights_text(category_code_schema([0, 1, 2]))
    'weights assumed code / max code (0 -> 0, 1 -> 0.5, 2 -> 1)'
    >>> code_weights_text(category_code_schema([2, 3], FORMAT_CODE_SCALES["arena-hard"]))
    "on Arena-Hard's verdicts from the model's side, weights code / 4 (2 -> 0.5, 3 -> 0.75)"
    """
    weights = ", ".join(f"{label.removeprefix('code ')} -> {w:.3g}" for label, w in zip(schema.labels, schema.weights))
    scale = next((f"on {what}, weights code / {top}" for what, top, _ in FORMAT_CODE_SCALES.values()
                  if f"{what}, weights code / {top} " in schema.description), "weights assumed code / max code")
    mixed = schema.description.split(". ", 1)[0] + "; " if schema.description.startswith("MIXED SCALES") else ""
    return f"{mixed}{scale} ({weights})"


def default_schema_note(schema: Schema) -> str:
    """What the category-code default assumed and how to override it (CLI ``notes``)."""
    return (f"the data has category codes and no is_correct, so the rubric defaults to '{schema.name}': one category "
            f"per code, {code_weights_text(schema)}; to use other weights pass --schema FILE (a rubric "
            "JSON with one category per code, e.g. condition \"category == 2\", weight 0.5; the Rubric page saves one).")
