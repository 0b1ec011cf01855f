"""Answers unchanged: every question of the recorded corpus (tests/corpus.py)
asked again, each answer compared with the recorded text byte for byte."""

from __future__ import annotations

import functools

import pytest

from tests import corpus

CHUNKS = 8


@functools.cache
def recorded() -> list[dict]:
    return corpus.load()


def test_the_corpus_asks_what_it_says():
    """The recorded questions are today's questions (a changed generator of
    cases would compare nothing), and every kind of question is there."""
    questions = [{k: v for k, v in entry.items() if k != "answer"} for entry in recorded()]
    assert questions == list(corpus.questions())
    assert {q["op"] for q in questions} == {*corpus.OPERATIONS, "cli"}
    assert len(questions) > 3000


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_answer_is_the_recorded_one(chunk):
    entries = recorded()[chunk::CHUNKS]
    for entry in entries:
        question = {k: v for k, v in entry.items() if k != "answer"}
        assert corpus.answer(question) == entry["answer"], f"the answer changed for {question}"
