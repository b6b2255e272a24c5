// @ts-check
// What an event's page (torneio.js) says about the event: how long it lasts, what each round of
// a bracket is called, the standings' tiebreaks and what decided a tie, and which tables are in
// play. Pure functions of the server's answer (/api/tournaments/ID), no DOM.

/**
 * @typedef {{entrant: string, name: string, rank: number, points: number, wins: number,
 *   losses: number, buchholz?: number, reached?: number, difference?: number,
 *   withdrawn?: boolean, decided?: string}} Standing one row of the standings (`decided`: what
 *   put it below the line above, level on every number shown)
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
  if (d.format === "swiss") return planned ? `${planned} ${planned === 1 ? "rodada" : "rodadas"}` : "rodadas até sobrar um só no topo";
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
 * @typedef {{label: string, short: string, value: (s: Standing) => number | undefined,
 *   signed?: boolean}} Column a number of the standings' tiebreaks
 * @typedef {{columns: Column[], legend: string}} Tiebreaks
 */

/** @type {Record<string, Column>} */
const COLUMNS = {
  buchholz: { label: "Buchholz", short: "Buch.", value: (s) => s.buchholz },
  difference: { label: "Saldo de pontos", short: "Saldo", value: (s) => s.difference, signed: true },
  reached: { label: "Rodada alcançada", short: "Rodada", value: (s) => s.reached },
};

/**
 * What orders equal points in each format (docs/tournaments.md, "Standings and tiebreaks"):
 * the numbers shown as columns after the points, and the legend of the whole order, the last
 * criteria (not numbers) included.
 * @param {string} format
 * @returns {Tiebreaks}
 */
export function tiebreaks(format) {
  if (format === "swiss") {
    return { columns: [COLUMNS.buchholz, COLUMNS.difference], legend: "Desempate: Buchholz, saldo de pontos, confronto direto, rating e sorteio." };
  }
  if (format === "knockout") {
    return { columns: [COLUMNS.reached], legend: "Ordem: o campeão, depois a última rodada alcançada; empate: rating e sorteio." };
  }
  return { columns: [COLUMNS.difference], legend: "Desempate: vitórias, saldo de pontos, rating e sorteio." };
}

/** A signed number as the standings show it: "+30", "−10", "0". @param {number} n */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/**
 * Why a line stands below the one above while both are level on every number shown (the
 * server's `decided`): "confronto direto", … ; "" when the numbers tell it.
 * @param {string | undefined} decided
 * @param {string} above the name on the line above
 */
export function decidedText(decided, above) {
  if (decided === "direct") return `atrás de ${above} no confronto direto`;
  if (decided === "final") return `perdeu a final para ${above}`;
  if (decided === "rating") return `atrás de ${above} pelo rating`;
  if (decided === "lot") return `atrás de ${above} no sorteio`;
  return "";
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
