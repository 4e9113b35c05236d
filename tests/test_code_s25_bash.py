"""Code chunking of Bash: a quoted string or a here-document over several lines (the body of
git's ``test_expect_success '...' '...'``, ``cat <<EOF``) is cut between its lines, not
before it between two tokens: a chunk starts at a line's start where every line fits."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariants import check_invariants

import chunkwise
from chunkwise.parsers.code import grammar_available
from chunkwise.sizers import CharSizer

pytestmark = pytest.mark.skipif(not grammar_available("bash"), reason="no Bash grammar")

# from git's contrib/subtree/t/t7900-subtree.sh
TESTS = """test_expect_success 'shows short help text for -h' '
\ttest_expect_code 129 git subtree -h >out 2>err &&
\ttest_must_be_empty err &&
\tgrep -e "^ *or: git subtree pull" out &&
\tgrep -e --annotate out
'

test_expect_success 'no merge from non-existent subtree' '
\tsubtree_test_create_repo "$test_count" &&
\tsubtree_test_create_repo "$test_count/sub proj" &&
\ttest_create_commit "$test_count" main1 &&
\ttest_create_commit "$test_count/sub proj" sub1 &&
\t(
\t\tcd "$test_count" &&
\t\tgit fetch ./"sub proj" HEAD &&
\t\ttest_must_fail git subtree merge --prefix="sub dir" FETCH_HEAD
\t)
'
"""


def chunk(src, size, overlap=0):
    chunks = chunkwise.chunk(src, strategy="code", language="bash", chunk_size=size, chunk_overlap=overlap)
    check_invariants(src, chunks, size, CharSizer(), trimmed=False, overlap_allowed=overlap > 0)
    return chunks


def line_starts(src, chunks):
    return [not src[src.rfind("\n", 0, c.start_index) + 1 : c.start_index].strip() for c in chunks]


@pytest.mark.parametrize("size,overlap", [(150, 0), (150, 37), (120, 0), (200, 50)])
def test_test_bodies_are_cut_between_their_lines(size, overlap):
    chunks = chunk(TESTS, size, overlap)
    assert all(line_starts(TESTS, chunks)), [c.text[:30] for c in chunks]
    # the first test's title stays with the first lines of its body
    assert chunks[0].text.startswith("test_expect_success 'shows short help text for -h' '\n\ttest_expect_code")


def test_here_document_is_cut_between_its_lines():
    body = "".join(f'  "key{i}": "value number {i}",\n' for i in range(12))
    src = 'mkdir -p conf &&\ncat >conf/settings.json <<EOF || die "cannot write"\n{\n' + body + "}\nEOF\necho done\n"
    chunks = chunk(src, 150)
    assert all(line_starts(src, chunks)), [c.text[:30] for c in chunks]
    assert "cat >conf/settings.json <<EOF" in chunks[0].text


@settings(max_examples=60, deadline=None)
@given(
    bodies=st.lists(
        st.lists(st.from_regex(r"[a-z_]{2,12}( [a-z$]{1,10}){0,4}", fullmatch=True), min_size=1, max_size=12),
        min_size=1, max_size=4,
    ),
    quote=st.sampled_from(["'", '"']),
    size=st.integers(80, 400),
    overlap=st.booleans(),
)
def test_chunks_start_at_line_starts(bodies, quote, size, overlap):
    src = "".join(
        f"test_expect_success {quote}case {k}{quote} {quote}\n" + "".join(f"\t{line} &&\n" for line in body)
        + f"\ttrue\n{quote}\n\n"
        for k, body in enumerate(bodies)
    )
    chunks = chunk(src, size, size // 4 if overlap else 0)
    assert all(line_starts(src, chunks)), [c.text[:30] for c in chunks]
