// @ts-check
// What a challenge ("Desafiar") says and sends, without the DOM: who sits where (a duplas
// challenge is you and a partner, in front of you, against two others), the seats the server
// is asked for, and the sides in words.

import * as W from "./words.js";

/** Each seat's place as the challenger sees it, by the ruleset's number of seats. */
/** @type {Record<number, string[]>} */
export const SEAT_LABELS = {
  2: ["Você", "Adversário"],
  4: ["Você", "Adversário à sua esquerda", "Parceiro, na sua frente", "Adversário à sua direita"],
};

/**
 * The seats of `POST /api/challenges` from the choices for seats 1, 2, … ("player:ID" or
 * "bot:level"), or what is wrong with them.
 * @param {string[]} picks
 * @returns {{seats: string[], error: null} | {seats: null, error: string}}
 */
export function challengeSeats(picks) {
  const people = picks.filter((p) => p.startsWith("player:"));
  if (!people.length) return { seats: null, error: "Escolha ao menos um amigo para desafiar." };
  if (new Set(people).size !== people.length) {
    return { seats: null, error: "Cada amigo senta em um lugar só: escolha outra pessoa." };
  }
  return { seats: ["me", ...picks], error: null };
}

/**
 * The sides of a table in words: "Ana contra Bia", "Ana e Caio contra Bia e Davi" (seats in
 * turn order: partners face each other); a bot ("bot:LEVEL") by its table name.
 * @param {string[]} seats the seats' names
 */
export function sidesText(seats) {
  const names = seats.map((n, i) => (W.botLevelOf(n) ? W.seatName({ bot: true }, i) : n));
  if (names.length === 4) return `${names[0]} e ${names[2]} contra ${names[1]} e ${names[3]}`;
  return names.join(" contra ");
}

/** "Bia", "Bia e Caio", "Ana, Bia e Caio". @param {string[]} names */
export function namesText(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} e ${names[names.length - 1]}`;
}
