// @ts-check
// What an event's page (torneio.js) says about the event: how long it lasts, what each round of
// a bracket is called, which tiebreak the standings show, and which tables are in play. Pure
// functions of the server's answer (/api/tournaments/ID), no DOM.

/**
 * @typedef {{entrant: string, name: string, rank: number, points: number, wins: number,
 *   losses: number, buchholz?: number, reached?: number, difference?: number,
 *   withdrawn?: boolean}} Standing one row of the standings
 * @typedef {{match: string | null, outcome: any}} TieGame
 * @typedef {{table: number, sides: string[], names: string[], winner: string | null,
 *   games: TieGame[]}} Tie two sides paired in a round
 * @typedef {{round: number, tables: Tie[], byes: string[]}} Round
 * @typedef {{format: string, total_rounds?: number | null, rounds_planned?: number | null,
 *   best_of?: number, duration?: number | null}} EventLength
 */

/**
 * How long an event lasts, by its format: rounds (swiss), games per tie (knockout), minutes (arena).
 * @param {EventLength} d
 */
export function lengthText(d) {
  const planned = d.total_rounds || d.rounds_planned;
  if (d.format === "swiss") return planned ? `${planned} rodadas` : "rodadas até sobrar um só no topo";
  if (d.format === "knockout") return (d.best_of ?? 1) > 1 ? `melhor de ${d.best_of}` : "jogo único";
  return `${Math.round((d.duration || 0) / 60)} minutos`;
}

/**
 * A bracket's round r (1-based) of `total`, named from the end: Final, Semifinal, Quartas.
 * @param {number} total @param {number} r
 */
export function roundName(total, r) {
  const left = total - r;
  return left === 0 ? "Final" : left === 1 ? "Semifinal" : left === 2 ? "Quartas" : `Rodada ${r}`;
}

/**
 * How many empty ties a bracket draws for round r before it is paired: the ties that round will
 * have, half as many as the round before, one for the final.
 * @param {number} total @param {number} r
 */
export const tiesAhead = (total, r) => 2 ** (total - r);

/**
 * The standings' last column, which orders equal points: Buchholz (the opponents' points) in a
 * swiss, the round reached in a knockout, the points' difference in an arena.
 * @param {string} format
 * @returns {{label: string, value: (s: Standing) => number | undefined}}
 */
export function tiebreak(format) {
  if (format === "swiss") return { label: "Buchholz", value: (s) => s.buchholz };
  if (format === "knockout") return { label: "Rodada", value: (s) => s.reached };
  return { label: "Saldo", value: (s) => s.difference };
}

/**
 * The tables to watch: the last round's, or in an arena every tie still being played.
 * @param {{format: string, rounds: Round[]}} d
 * @returns {{round: Round | null, ties: Tie[]}}
 */
export function tablesInPlay(d) {
  if (d.format === "arena") {
    const ties = d.rounds.flatMap((r) => r.tables).filter((t) => !t.winner && t.games.some((g) => !g.outcome));
    return { round: null, ties };
  }
  const round = d.rounds[d.rounds.length - 1];
  return round ? { round, ties: round.tables } : { round: null, ties: [] };
}
