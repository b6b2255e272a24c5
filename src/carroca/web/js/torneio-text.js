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

/**
 * The part of an event's page that says where a player stands (`verdict`).
 * @typedef {{game: number, match: string | null, sides: string[], outcome: any}} VerdictGame
 * @typedef {{table: number, sides: string[], winner: string | null, games: VerdictGame[]}} VerdictTie
 * @typedef {{format: string, status: string, total_rounds?: number | null,
 *   rounds: {round: number, tables: VerdictTie[]}[], me: {entrant: string} | null,
 *   my_match: string | null, podium?: {entrant: string}[] | null,
 *   standings: {entrant: string, rank: number}[], entrants: {id: string, players: string[]}[]}} VerdictEvent
 * @typedef {object} Verdict what a player's game came to, and what comes next for them
 * @property {string} title "Você venceu por W.O.", "Você perdeu por W.O.", "Você venceu", …
 * @property {string} why a W.O.'s reason ("Seu adversário não veio."), or ""
 * @property {string} next what comes next ("A final começa quando a outra semifinal terminar.")
 * @property {"won" | "lost" | "out" | "champion" | "over" | "none"} kind
 * @property {boolean} wo decided by a no-show (W.O.)
 * @property {string | null} nextMatch the player's next table, when it is ready
 */

/** "Final" -> "na final", "Quartas" -> "nas quartas de final". @param {string} name */
const inRound = (name) => (name === "Quartas" ? "nas quartas de final" : `na ${name.toLowerCase()}`);

/** "Final" -> "A final começa", "Quartas" -> "As quartas de final começam". @param {string} name */
const roundStarts = (name) => (name === "Quartas" ? "As quartas de final começam" : `A ${name.toLowerCase()} começa`);

/**
 * What the player's game at `match` came to (or, without `match`, their latest decided game),
 * and what comes next for them: said on the table a no-show closed (a W.O.), at the end of a
 * match, and on the event's page. Null while there is nothing to say (not one of their games,
 * or its result not in yet).
 * @param {VerdictEvent} d the event as /api/tournaments/ID answers
 * @param {string | null} match
 * @returns {Verdict | null}
 */
export function verdict(d, match) {
  const me = d.me ? d.me.entrant : null;
  if (!me) return null;
  /** @type {{round: number, tie: VerdictTie, game: VerdictGame} | null} */
  let found = null;
  for (const rnd of d.rounds) {
    for (const tie of rnd.tables) {
      if (!tie.sides.includes(me)) continue;
      for (const game of tie.games) {
        if (match ? game.match === match : game.outcome) found = { round: rnd.round, tie, game };
      }
    }
  }
  if (!found || !found.game.outcome) return null;
  const { round, tie, game } = found;
  const outcome = game.outcome;
  const wo = outcome.kind === "forfeit";
  const won = outcome.winner !== null && outcome.winner !== undefined && game.sides[outcome.winner] === me;
  const dupla = (d.entrants.find((e) => e.id === me)?.players.length ?? 1) > 1;
  const title = wo ? (won ? "Você venceu por W.O." : "Você perdeu por W.O.") : won ? "Você venceu" : "Você perdeu";
  const why = !wo ? "" : won ? (dupla ? "A dupla adversária não veio." : "Seu adversário não veio.") : "Você não chegou à mesa a tempo.";
  const nextMatch = d.my_match && d.my_match !== match ? d.my_match : null;
  const total = d.total_rounds || d.rounds.length;
  /** @type {Verdict["kind"]} */
  let kind = won ? "won" : "lost";
  let next;
  if (d.status === "finished") {
    const champion = d.podium?.[0]?.entrant === me;
    const rank = d.standings.find((s) => s.entrant === me)?.rank;
    if (champion) {
      kind = "champion";
      next = "Você é o campeão do torneio!";
    } else if (d.format === "knockout" && tie.winner && tie.winner !== me) {
      kind = "out";
      next = `Você foi eliminado ${inRound(roundName(total, round))}. O torneio terminou.`;
    } else {
      kind = "over";
      next = rank ? `O torneio terminou: você ficou em ${rank}º lugar.` : "O torneio terminou.";
    }
  } else if (nextMatch) {
    next = "Sua próxima partida já começou.";
  } else if (d.format === "knockout") {
    if (tie.winner && tie.winner !== me) {
      kind = "out";
      next = `Você foi eliminado ${inRound(roundName(total, round))}.`;
    } else if (!tie.winner) {
      next = "O próximo jogo do confronto começa em instantes.";
    } else {
      const here = d.rounds.find((r) => r.round === round);
      const others = here ? here.tables.filter((t) => t !== tie && !t.winner).length : 0;
      const starts = roundStarts(roundName(total, round + 1));
      if (!others) next = `${starts} em instantes.`;
      else if (others === 1 && roundName(total, round) === "Semifinal") next = `${starts} quando a outra semifinal terminar.`;
      else if (others === 1) next = `${starts} quando o outro confronto da rodada terminar.`;
      else next = `${starts} quando os outros ${others} confrontos da rodada terminarem.`;
    }
  } else if (d.format === "swiss") {
    next = round >= total ? "Era a última rodada: o resultado sai quando as outras mesas terminarem." : "A próxima rodada começa quando as outras mesas terminarem.";
  } else {
    next = "A próxima partida começa assim que outro jogador ficar livre.";
  }
  return { title, why, next, kind, wo, nextMatch };
}
