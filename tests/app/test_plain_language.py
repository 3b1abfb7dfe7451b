"""AppTest: what a reader sees without opening a "Method" expander cites no paper section (issue 40).

Captions, help tooltips and metric labels on every results and data page read for a non-statistician;
paper sections, figures, appendices and arXiv numbers live in the expanders ("Method", "What this
view assumes") and docs/metrics.md.
"""

from __future__ import annotations

import re

import pytest
from streamlit.testing.v1.element_tree import Block, Expander

from tests.app.conftest import no_exception
from tests.app.page_matrix import PAGES

CITATION = re.compile(r"\b(section \d|Appendix [A-Z]|Figure \d|Table \d|arXiv|Miller 2024|Eq\. ?\d)", re.IGNORECASE)


def _visible_texts(node) -> list[str]:
    """Caption, markdown and help texts outside expanders (tabs count as visible)."""
    if isinstance(node, Expander):
        return []
    out = []
    if isinstance(node, Block):
        for child in node.children.values():
            out += _visible_texts(child)
        return out
    if getattr(node, "type", "") in ("caption", "markdown", "info", "warning") or node.__class__.__name__ in ("Caption", "Info"):
        out.append(str(getattr(node, "value", "")))
    proto = getattr(node, "proto", None)
    help_text = getattr(proto, "help", "") if proto is not None else ""
    if help_text:
        out.append(help_text)
    return out


def test_the_citation_pattern_finds_citations():
    assert CITATION.search("normal approximation, section 2.5") and CITATION.search("(paper Appendix J)")
    assert not CITATION.search("the mean of per-question accuracy; 95% credible interval")


@pytest.mark.parametrize("page", PAGES)
def test_no_paper_citation_outside_the_method_expanders(sim_app, page):
    sim_app.switch_page(page).run()
    no_exception(sim_app)
    texts = _visible_texts(sim_app.main) + _visible_texts(sim_app.sidebar)
    assert texts, "the walk found no text: the element tree changed"
    cited = [t[:160] for t in texts if CITATION.search(t)]
    assert not cited, cited


def test_prior_and_scope_help_come_from_the_core(app, capsys):
    """The sidebar's and the CLI's help texts about priors and scopes are the core's PRIOR_HELP / SCOPE_HELP."""
    import re

    from scorio_core.cli import main
    from scorio_core.uncertainty import PRIOR_HELP, PRIORS, SCOPE_HELP, SCOPES

    prior_help = app.sidebar.selectbox(key="prior").proto.help
    scope_help = app.sidebar.radio(key="scope").proto.help
    for key in PRIORS:
        assert PRIOR_HELP[key] in prior_help, key
    for key in SCOPES:
        assert SCOPE_HELP[key] in scope_help, key
    with pytest.raises(SystemExit):
        main(["leaderboard", "--help"])
    text = re.sub(r"-\s+", "-", re.sub(r"\s+", " ", capsys.readouterr().out))  # argparse wraps at hyphens
    for key in PRIORS:
        assert f"{key}: {PRIOR_HELP[key]}" in text, key
    for key in SCOPES:
        assert f"{key}: {SCOPE_HELP[key]}" in text, key
