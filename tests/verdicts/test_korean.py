import pytest

from hypothesis import given
from hypothesis import strategies as st

from verdicts.korean import is_polite_sentence, joins_caveats, josa, polite_sentences


@pytest.mark.parametrize("word,pair,expected", [
    ("등대", "은/는", "등대는"), ("선창", "은/는", "선창은"), ("항구", "으로/로", "항구로"), ("선술집", "으로/로", "선술집으로"),
    ("길", "으로/로", "길로"), ("BR-13", "이/가", "BR-13이"), ("BR-12", "이/가", "BR-12가"), ("BR-14(신뢰도 3 이상)", "을/를", "BR-14(신뢰도 3 이상)를"),
    ("SC-10", "으로/로", "SC-10으로"), ("SC-7", "으로/로", "SC-7로"), ("room", "을/를", "room을"), ("key", "을/를", "key를"),
])
def test_josa(word, pair, expected):
    assert josa(word, pair) == expected


@pytest.mark.parametrize("text,ok", [
    ("독자가 들어올 길이 없습니다.", True),
    ("들어올 길이 없습니다", False),
    ("길이 없습니다. 그리고 끝납니다.", False),
    ("There is no path.", False),
    ("길이 없다.", False),
    ("", False),
    (None, False),
    ("신뢰도 3 이상(3.5는 아님)인 독자는 나오지 않습니다.", True),
])
def test_polite_sentence(text, ok):
    assert is_polite_sentence(text) is ok


def test_two_caveats_glued_into_one_sentence_are_seen():
    """One sentence, yet two claims: what the cards said before a hedge held one caveat."""
    glued = "플래그가 없어 따지지 않았고, 길은 열려 있습니다."
    assert is_polite_sentence(glued) and joins_caveats(glued)
    assert not joins_caveats("플래그가 없어 따지지 않았습니다.") and not joins_caveats("길은 열려 있고 엔딩에 닿습니다.")
    # the user's own text is a word, whatever it holds
    assert not joins_caveats("“오고, 가고”에서 나가는 분기가 없습니다.")
    assert not joins_caveats("오고, 가고에서 나가는 분기가 없습니다.", quoted=["오고, 가고"])
    assert joins_caveats("오고, 가고에서 나가는 분기가 없습니다.")


_PIECES = ["다", "요", "니", "세", "지", "까", "가", "a", "3", ".", "?", "!", " ", "\n", "\t", "\u3000", "\xa0", "\x0b", "\r"]


@given(st.lists(st.one_of(st.none(), st.integers(), st.lists(st.sampled_from(_PIECES), max_size=8).map("".join),
                          st.tuples(st.lists(st.sampled_from(_PIECES), max_size=8).map("".join),
                                    st.sampled_from(["니다.", "세요.", "지요.", "까요.", "다.", "요?"])).map("".join)),
                max_size=6))
def test_polite_sentences_agrees_with_one_at_a_time(texts):
    try:
        expected = [is_polite_sentence(t) for t in texts]
    except AttributeError:  # a non-text fails the same way in both
        with pytest.raises(AttributeError):
            polite_sentences(texts)
        return
    assert polite_sentences(texts) == expected


@pytest.mark.parametrize("word", ["면적 5m²", "٣", "x³"])
def test_characters_python_calls_digits_are_not_read_as_numbers(word):
    # ``"²".isdigit()`` is true, but it is no number to read in Sino-Korean: the particle
    # is chosen as for any other character, without failing
    assert josa(word, "이/가") in (word + "이", word + "가")
