// @ts-check
// Written by `python -m carroca.words` from ../words/table.json: edit that file, not this one.

/** The table's words in pt-BR (see carroca/words.py). */
export const TABLE_WORDS = {
  "on_end": {
    "left": "na esquerda",
    "right": "na direita",
    "up": "em cima",
    "down": "embaixo"
  },
  "reasons": {
    "mesa": "pontos na mesa",
    "passe": "passe",
    "galo": "galo",
    "saida-passada": "saída passada",
    "cinco-carrocas": "cinco carroças",
    "garagem": "garagem",
    "batida-carroca": "batida de carroça",
    "batida": "batida",
    "capicu": "capicú",
    "fechado": "jogo fechado",
    "trancado": "trancado",
    "mao": "mão vencida",
    "simples": "batida simples",
    "cruzada": "batida cruzada",
    "la-e-lo": "lá-e-lô",
    "pontos-mao": "pontos da mão"
  },
  "reasons_terminal": {
    "mesa": "mesa",
    "mao": "mão ganha",
    "la-e-lo": "batida lá-e-lô"
  },
  "details": {
    "batida-carroca": "batida de carroça",
    "capicu": "capicú!",
    "simples": "batida simples",
    "la-e-lo": "batida lá-e-lô",
    "cruzada": "batida cruzada"
  },
  "blocked": {
    "duplas-pontos": "Jogo fechado",
    "*": "Trancado"
  },
  "titles": {
    "capicu": "Capicú! {who} bateu",
    "batida-carroca": "{who} bateu de carroça!",
    "cruzada": "Batida cruzada! {who} bateu",
    "la-e-lo": "Lá-e-lô! {who} bateu",
    "batida": "{who} bateu!",
    "redeal": "Embaralhando de novo",
    "abandon": "{who} abandonou a partida",
    "*": "Fim da mão"
  }
};
