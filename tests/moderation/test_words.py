"""The offensive-word filter: whole words only, accent-, case- and leetspeak-folded; innocent
Portuguese words that hold a listed one are left alone; offensive nicknames are refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from carroca.server.players.words import WordList, fold, word_list

WORDS = word_list()


@pytest.mark.parametrize("text", [
    "que merda de jogada", "MERDA", "mêrda", "m3rd4", "merdaaaa", "porra!", "P0RR4",
    "seu idiota", "vai, seu 1d10t4.", "cuzão", "CUZAO", "vsf", "f0d4-se",
])
def test_offensive_words_are_found(text: str) -> None:
    assert WORDS.hits(text), text


@pytest.mark.parametrize("text", [
    "computador", "capicua e capicú", "rola a pedra", "pau a pau no placar", "disputa boa",
    "reputação", "escrotal? não", "a garagem é minha", "passe!", "trancado, que azar",
    "idiotice", "merdeiro não existe mas é outra palavra", "100 pontos", "cuidado",
])
def test_innocent_words_are_left_alone(text: str) -> None:
    assert WORDS.hits(text) == [], text


def test_masking_keeps_the_first_letter_and_the_rest_of_the_line() -> None:
    shown, hits = WORDS.mask("boa, seu idiota! que merda")
    assert shown == "boa, seu i*****! que m****" and hits == 2
    assert WORDS.mask("boa partida, parceiro") == ("boa partida, parceiro", 0)


def test_folding_reads_accents_case_leetspeak_and_repeats() -> None:
    assert fold("P0RRÁÁÁ") == fold("porra") == "pora"


@pytest.mark.parametrize("name", ["PutaQuePariu", "Caralho123", "o_merda", "Vai-Porra",
                                  "F0D4", "Viado"])
def test_offensive_names_are_refused(name: str) -> None:
    assert WORDS.offensive_name(name)


@pytest.mark.parametrize("name", ["Computador", "Disputa", "Capicua", "Ana Putanga",
                                  "Rolando", "Pauleta", "Merdeiros"])
def test_innocent_names_pass(name: str) -> None:
    assert not WORDS.offensive_name(name)


def test_an_operators_list_replaces_the_built_in_one(tmp_path: Path) -> None:
    own = tmp_path / "lista.txt"
    own.write_text("# comentário\nbatata\n", encoding="utf-8")
    words = WordList.load(own)
    assert words.hits("que batata") and not words.hits("que merda")
