"""Canonical column names, their aliases, and column-mapping inference.

The attempt table and the count table (docs/ARCHITECTURE.md, "Canonical tables") use fixed
column names. Dumps use many spellings (``doc_id``, ``problem``, ``seed``, ``passed`` ...);
this module decides which source column feeds which canonical column, and says so when it
cannot decide.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scorio_core.errors import InputError
from scorio_core.io._text import grading_hint

__all__ = [
    "CANONICAL_COLUMNS",
    "COUNT_COLUMNS",
    "ID_COLUMNS",
    "SIGNAL_COLUMNS",
    "MappingGuess",
    "infer_mapping",
    "normalize_name",
]

ID_COLUMNS = ("model", "task", "question_id", "trial")
COUNT_COLUMNS = ("n_trials", "n_correct")
OUTCOME_COLUMNS = ("is_correct", "category")
# Per-attempt signals with a canonical name (the rubric engine derives its variables from these).
SIGNAL_COLUMNS = (
    "finish_reason",
    "completion_tokens",
    "prompt_tokens",
    "max_tokens",
    "completion_ppl",
    "prompt_ppl",
    "completion_logprob_mean",
    "prompt_logprob_mean",
    "completion_logprob_min",
    "prompt_logprob_sum",
    "completion_logprob_sum",
    "repeated_pattern",
    "token_ratio",
    "prompt_bpt",
    "completion_bpt",
    "has_box",
    "score",
    "cost",
    "latency",
    "compass_context_A",
    "compass_context_B",
    "compass_context_C",
)
STRING_SIGNALS = frozenset({"finish_reason"})
BINARY_SIGNALS = frozenset({"has_box"})
CANONICAL_COLUMNS = ID_COLUMNS + OUTCOME_COLUMNS + COUNT_COLUMNS + SIGNAL_COLUMNS

# canonical name -> tiers of aliases (normalized spellings). The canonical name itself is
# always tier 0. Within the first tier that matches, one candidate is chosen; two or more
# make the field ambiguous.
_ALIASES: dict[str, tuple[tuple[str, ...], ...]] = {
    "model": (("model_name", "model_id", "llm", "engine", "system", "checkpoint", "submission", "agent"),),
    "task": (("benchmark", "dataset", "task_name", "eval", "eval_name", "evaluation_name", "subset", "suite"),),
    "question_id": (
        ("question", "problem", "problem_id", "doc_id", "data_id", "idx", "qid", "item",
         "item_id", "instance_id", "sample_id", "example_id", "example_abbr", "prompt_id", "task_id"),
        ("id", "index"),
    ),
    "trial": (
        ("seed", "sample", "sample_idx", "sample_index", "epoch", "run", "run_id", "attempt",
         "attempt_id", "repeat", "repetition", "rollout", "generation", "trial_id",
         "trial_index", "train_trial_index"),
    ),
    "is_correct": (
        ("correct", "passed", "pass", "resolved", "solved", "success", "is_pass", "is_solved",
         "acc", "accuracy", "exact_match", "em", "outcome", "graded_list", "correctness"),  # graded_list: LiveCodeBench's
        ("score", "reward", "pass_rate", "solve_rate", "success_rate"),  # rates: scorio_core.io.formats.rates
        ("status", "base_status", "plus_status", "result", "verdict"),  # 'pass'/'fail' labels (EvalPlus): --recode
    ),
    "category": (("category_code", "cat"),),
    "n_trials": (
        ("n", "num_samples", "num_trials", "n_samples", "trials", "n_total", "num_attempts",
         "n_attempts", "total"),
    ),
    "n_correct": (
        ("c", "num_correct", "correct_count", "n_pass", "n_passed", "num_passed", "successes",
         "n_success", "num_success"),
    ),
    "finish_reason": (("stop_reason", "finishreason"),),
    "completion_tokens": (
        ("num_completion_tokens", "output_tokens", "n_completion_tokens", "completion_length",
         "response_tokens"),
    ),
    "prompt_tokens": (("num_prompt_tokens", "input_tokens", "n_prompt_tokens"),),
    "max_tokens": (("max_new_tokens", "max_gen_toks", "max_output_tokens"),),
    "completion_ppl": (("completion_perplexity",),),
    "prompt_ppl": (("prompt_perplexity",),),
    "completion_logprob_mean": (("completion_avg_logprob", "avg_logprob", "mean_logprob"),),
    "has_box": (("boxed",),),
    "score": (("soft_score", "reward"),),
    "cost": (("cost_usd", "usd_cost", "price"),),
    "latency": (("latency_s", "duration", "elapsed", "response_time", "total_time", "runtime"),),
}
_STRUCTURAL = ID_COLUMNS + OUTCOME_COLUMNS + COUNT_COLUMNS
_WIDE = re.compile(
    r"^(trial|run|attempt|sample|seed|epoch|try|rep|repeat|r|t|s)?[ _\-#]?(\d+)$", re.IGNORECASE
)


def normalize_name(name: object) -> str:
    """Return a column name folded for alias matching (case, spaces, dashes, dots).

    Examples
    --------
    >>> normalize_name(" Is-Correct "), normalize_name("Correct?"), normalize_name("Question ID:")
    ('is_correct', 'correct', 'question_id')
    """
    text = str(name).strip().rstrip("?:*").strip()  # a spreadsheet's header "Correct?" or "Model:"
    if text in {"compass_context_A", "compass_context_B", "compass_context_C"}:
        return text
    folded = re.sub(r"[\s\-\.]+", "_", text.lower())
    if folded.startswith("compass_context_") and len(folded) == 17:
        return folded[:-1] + folded[-1].upper()
    return folded


@dataclass(frozen=True)
class MappingGuess:
    """Which source column feeds which canonical column.

    Attributes
    ----------
    mapping : dict of str to str
        ``{canonical_name: source_column}`` chosen (user overrides included).
    ambiguous : dict of str to tuple of str
        Structural fields (ids, outcome, counts) with two or more equally good candidates.
    missing : tuple of str
        Required canonical fields with no candidate (``question_id`` and an outcome).
    layout : {"attempts", "wide", "counts"}
        One row per attempt, one row per (model, question) with one column per trial, or
        one row per (model, question) with ``n_trials``/``n_correct``.
    wide_columns : dict of str to int (or str)
        For ``layout == "wide"``: trial column -> trial index taken from its name; for a response matrix
        (:mod:`scorio_core.io.formats.matrix`), question (or model) column -> its name.
    wide_field : {"trial", "question_id", "model"}
        What the wide columns are: trials, or the questions (models) of a response matrix.
    user : dict of str to str
        The subset of ``mapping`` given by the user.
    signal_ambiguous : dict of str to tuple of str
        Optional signals with several candidates; left under their own names.
    unmapped : tuple of str
        Fields the user un-mapped (``--map is_correct=none``): never guessed.
    """

    mapping: dict[str, str]
    ambiguous: dict[str, tuple[str, ...]] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    layout: str = "attempts"
    wide_columns: dict[str, int] = field(default_factory=dict)
    user: dict[str, str] = field(default_factory=dict)
    signal_ambiguous: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unmapped: tuple[str, ...] = ()
    columns: tuple[str, ...] = field(default=(), compare=False, repr=False)
    wide_field: str = "trial"

    @property
    def ok(self) -> bool:
        """True when nothing is ambiguous or missing, so a table can be built."""
        return not self.ambiguous and not self.missing

    def to_dict(self) -> dict:
        """JSON-serializable form (for the app's mapping widget and the CLI)."""
        return {
            "mapping": dict(self.mapping),
            "ambiguous": {k: list(v) for k, v in self.ambiguous.items()},
            "missing": list(self.missing),
            "layout": self.layout,
            "wide_columns": dict(self.wide_columns), "wide_field": self.wide_field, "user": dict(self.user),
            "signal_ambiguous": {k: list(v) for k, v in self.signal_ambiguous.items()},
            "unmapped": list(self.unmapped),
        }

    def raise_if_unresolved(self, source: str) -> None:
        """Raise :class:`InputError` naming the first ambiguous or missing field.

        Raises
        ------
        InputError
            ``"<file>: field 'question_id' is ambiguous: candidates 'problem', 'idx'; pass
            --map question_id=COLUMN (CLI) or pick the column in the app."``
        """
        for name, candidates in self.ambiguous.items():
            listed = ", ".join(repr(c) for c in candidates)
            raise InputError(f"field '{name}' is ambiguous: candidates {listed}; pass --map {name}=COLUMN (CLI) or pick the "
                             "column in the app's mapping widget.", source=source, field=name)
        for name in self.missing:
            what = "an outcome column (is_correct, correct, passed, score ...)" if name == "is_correct" else f"a '{name}' column"
            raise InputError(
                f"no column found for required field '{name}': the table needs {what}; pass "
                f"--map {name}=COLUMN (CLI) or pick the column in the app's mapping widget{self._free_columns()}."
                + (grading_hint(self.columns) + TEXT_LABELS_HINT + MODELS_MATRIX_HINT if name == "is_correct"
                   else AGGREGATE_HINT if name == "question_id" else ""),
                source=source,
                field=name,
            )

    def _free_columns(self) -> str:
        """``"; columns no field uses: 'a', 'b'"`` (at most 12), so the fix can name one; empty if none."""
        taken = set(self.mapping.values()) | {c for cs in self.ambiguous.values() for c in cs}
        free = [c for c in self.columns if c not in taken and c not in self.wide_columns]
        if not free:
            return ""
        return f"; columns no field uses: {', '.join(repr(c) for c in free[:12])}{' ...' if len(free) > 12 else ''}"


#: Said when no outcome column is found or an outcome column holds text: how to recode text labels.
TEXT_LABELS_HINT = (" An outcome given as text labels ('correct', 'partially correct', 'wrong' ...) must be recoded first, "
                    "to integer codes in a 'category' column (one code per label; then a rubric gives each code its "
                    "weight) or to 0/1 in an 'is_correct' column, e.g. with pandas: "
                    "df['category'] = df['label'].map({'wrong': 0, 'partially correct': 1, 'correct': 2}) "
                    "(README, 'Text labels', also shows DuckDB).")
#: Said when no question column is found: a table of one score per model (a leaderboard) cannot be ranked here.
AGGREGATE_HINT = (" A table of one score per model (and task), such as a published leaderboard, cannot be ranked here: "
                  "Bayes@N and its intervals need each question's outcomes; export the per-sample results (lm-eval "
                  "--log_samples, Inspect's .eval log, a HELM run folder) or per-question counts (n_trials, n_correct). "
                  "A response matrix (one row per model, one 0/1 column per question) is read with --map "
                  "question_id=@columns (the app: 'every other column' for question_id).")
#: Said when no outcome column is found: a matrix with one column per model.
MODELS_MATRIX_HINT = (" A response matrix (one row per question, one 0/1 column per model) is read with --map model=@columns "
                      "(the app: 'every other column' for model).")
#: ``--map FIELD=none`` (any case) un-maps FIELD, unless the file has a column of that name.
UNMAP = "none"


def _check_user_mapping(columns: list[str], mapping: Mapping[str, str], source: str | None) -> tuple[dict, tuple]:
    user: dict[str, str] = {}
    present = set(columns)
    unmapped = tuple(k for k, c in mapping.items() if str(c).strip().lower() == UNMAP and c not in present
                     and k in CANONICAL_COLUMNS)
    for key, column in mapping.items():
        if key in unmapped:
            continue
        if key not in CANONICAL_COLUMNS:
            raise InputError(f"mapping key '{key}' is not a canonical field; use one of {', '.join(CANONICAL_COLUMNS)}.",
                             source=source, field=str(key))
        if column not in present:
            shown = ", ".join(repr(c) for c in columns[:20])
            raise InputError(
                f"mapping {key}={column} names a column that is not in the file; columns are "
                f"{shown}{' ...' if len(columns) > 20 else ''}.",
                source=source,
                field=str(key),
            )
        user[key] = column
    used = list(user.values())
    for column in set(used):
        if used.count(column) > 1:
            keys = [k for k, v in user.items() if v == column]
            raise InputError(f"mapping sends column '{column}' to several fields ({', '.join(keys)}); map each column once.",
                             source=source)
    return user, unmapped


def infer_mapping(
    columns: Iterable[object], mapping: Mapping[str, str] | None = None, *, source: str | None = None
) -> MappingGuess:
    """Guess which source columns hold the canonical fields.

    Parameters
    ----------
    columns : iterable of str
        Column names of the source table, in file order.
    mapping : dict of str to str, optional
        User overrides ``{canonical_name: source_column}``; always win. A column of ``"none"`` un-maps
        the field (unless the file has a column named so): it is never guessed.
    source : str, optional
        File name used in error messages.

    Returns
    -------
    MappingGuess
        The chosen mapping, ambiguous structural fields with their candidates, missing
        required fields and the table layout (attempts, wide or counts).

    Raises
    ------
    InputError
        If ``mapping`` names an unknown canonical field or a column not in ``columns``.

    Notes
    -----
    Matching folds case, spaces, dashes and dots. An exact canonical name wins; otherwise
    the first alias tier with a match decides, and two matches in that tier make a
    structural field ambiguous. A soft score (``score``, ``reward``) becomes the outcome only
    when no binary outcome column exists.

    Examples
    --------
    >>> g = infer_mapping(["Model", "problem", "seed", "passed", "score"])
    >>> g.mapping == {"model": "Model", "question_id": "problem", "trial": "seed",
    ...               "is_correct": "passed", "score": "score"}
    True
    >>> infer_mapping(["model", "problem", "idx", "correct"]).ambiguous
    {'question_id': ('problem', 'idx')}
    """
    cols = [str(c) for c in columns]
    user, unmapped = _check_user_mapping(cols, mapping or {}, source)
    chosen = dict(user)
    used = set(user.values())
    by_norm: dict[str, list[str]] = {}
    by_leaf: dict[str, list[str]] = {}  # last component of dotted (flattened JSON) names
    for c in cols:
        by_norm.setdefault(normalize_name(c), []).append(c)
        if "." in c:
            by_leaf.setdefault(normalize_name(c.rsplit(".", 1)[1]), []).append(c)
    ambiguous: dict[str, tuple[str, ...]] = {}
    signal_ambiguous: dict[str, tuple[str, ...]] = {}

    def candidates(names: Iterable[str], index: dict[str, list[str]] = by_norm) -> list[str]:
        found: list[str] = []
        for n in names:
            found.extend(c for c in index.get(n, []) if c not in used and c not in found)
        return found

    # Exact canonical names first, so an alias never steals a column named canonically.
    for name in CANONICAL_COLUMNS:
        if name in chosen or name in unmapped:
            continue
        exact = candidates([normalize_name(name)])
        if len(exact) == 1:
            chosen[name] = exact[0]
            used.add(exact[0])
    for name in CANONICAL_COLUMNS:
        if name in chosen or name in unmapped:
            continue
        tiers = [(t, by_norm) for t in _ALIASES.get(name, ())]
        tiers += [(t, by_leaf) for t in ((normalize_name(name),),) + _ALIASES.get(name, ())]
        for tier, index in tiers:
            found = candidates(tier, index)
            if not found:
                continue
            if len(found) == 1:
                chosen[name] = found[0]
                used.add(found[0])
            elif name in _STRUCTURAL:
                ambiguous[name] = tuple(found)
            else:
                signal_ambiguous[name] = tuple(found)
            break
    soft_only = "is_correct" not in chosen and "is_correct" not in ambiguous and "is_correct" not in unmapped
    if soft_only and "category" not in chosen and "score" in chosen and "score" not in user:
        chosen["is_correct"] = chosen.pop("score")  # a soft score is the only outcome
    layout, wide = _layout(cols, chosen, used, user)
    if layout == "counts":
        for k in ("is_correct", "trial"):
            if k in chosen and k not in user:
                del chosen[k]
        ambiguous.pop("is_correct", None)
        ambiguous.pop("trial", None)
    required = ["question_id"]
    if layout == "counts":
        required += ["n_trials", "n_correct"]
    elif layout == "attempts" and "category" not in chosen:
        required.append("is_correct")
    missing = tuple(r for r in required if r not in chosen and r not in ambiguous)
    return MappingGuess(
        mapping=chosen,
        ambiguous=ambiguous,
        missing=missing,
        layout=layout,
        wide_columns=wide,
        user=user,
        signal_ambiguous=signal_ambiguous,
        unmapped=unmapped,
        columns=tuple(cols),
    )


def _layout(cols: list[str], chosen: dict[str, str], used: set[str], user: dict[str, str]):
    if "n_trials" in chosen and "n_correct" in chosen:
        return "counts", {}
    if "is_correct" in user or "category" in chosen:
        return "attempts", {}
    # Wide: two or more unused columns named <prefix><number> with one shared prefix.
    groups: dict[str, dict[str, int]] = {}
    for c in cols:
        if c in used:
            continue
        m = _WIDE.match(c.strip())
        if m:
            groups.setdefault((m.group(1) or "").lower(), {})[c] = int(m.group(2))
    best = max(groups.values(), key=len, default={})
    binary_outcome = "is_correct" in chosen and normalize_name(chosen["is_correct"]) not in {"score", "reward"}
    if len(best) >= 2 and not binary_outcome and "trial" not in chosen:
        if "is_correct" in chosen:  # a soft score next to trial columns is a signal
            chosen.setdefault("score", chosen.pop("is_correct"))
        return "wide", best
    return "attempts", {}
