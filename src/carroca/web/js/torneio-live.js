// @ts-check
// An event's page kept up to date by its channel (docs/protocol.md, `watch`): the changes the
// server pushes applied to the page last shown, and the watcher's own part of it (`me`,
// `my_match`) worked out again as the server does. Pure functions, no DOM.

/**
 * @typedef {{match: string | null, players?: string[], outcome: any}} LiveGame
 * @typedef {{table: number, games: LiveGame[]}} LiveTie
 * @typedef {{round: number, byes: string[], tables: LiveTie[], at?: number}} LiveRound
 * @typedef {{entrant: string, rank: number}} LiveStanding
 * @typedef {{id: string, name: string, players?: string[], waiting_partner?: boolean}} LiveEntrant
 * @typedef {{entrant: string, name: string, partner_invite?: string | null}} Me
 * @typedef {{status: string, standings: LiveStanding[], rounds: LiveRound[],
 *   entrants: LiveEntrant[], registrations: LiveEntrant[], me: Me | null,
 *   my_match: string | null}} LivePage the parts of an event's page a change touches
 * @typedef {{version: number, set: Record<string, unknown>, standings: LiveStanding[],
 *   rounds: LiveRound[]}} Change an `event_change` frame's data
 */

/**
 * A change applied to the page it follows (its version the change's minus one): the fields it
 * sets, its standings' lines by entrant (the list kept in rank order), and per round its byes
 * and changed tables by number (a new round whole). Returns a new page; `page` is not touched.
 * @template {LivePage} P
 * @param {P} page @param {Change} change @param {string | null} myName
 * @returns {P}
 */
export function applyChange(page, change, myName) {
  /** @type {P} */
  const out = { ...page, ...change.set };
  if (change.standings.length) {
    const lines = new Map(out.standings.map((s) => [s.entrant, s]));
    for (const s of change.standings) lines.set(s.entrant, s);
    out.standings = [...lines.values()].sort((a, b) => a.rank - b.rank);
  }
  if (change.rounds.length) {
    const rounds = out.rounds.slice();
    for (const rnd of change.rounds) {
      const at = rounds.findIndex((r) => r.round === rnd.round);
      if (at < 0) {
        rounds.push(rnd);
        continue;
      }
      const tables = rounds[at].tables.slice();
      for (const t of rnd.tables) {
        const i = tables.findIndex((x) => x.table === t.table);
        if (i < 0) tables.push(t);
        else tables[i] = t;
      }
      rounds[at] = { ...rounds[at], ...rnd, tables };
    }
    out.rounds = rounds;
  }
  return ownPart(out, page.me, myName);
}

/**
 * The watcher's own part of a page the channel brought (which carries nobody's): `me` follows
 * the entry it had (a solo player of a 2v2 event plays in the dupla formed at the start; a
 * dupla's invitation is dropped once its partner came), `my_match` is the game of theirs with
 * no outcome yet.
 * @template {LivePage} P
 * @param {P} page @param {Me | null} me @param {string | null} myName
 * @returns {P}
 */
export function ownPart(page, me, myName) {
  let mine = me;
  if (mine && myName) {
    const formed = page.entrants.find((e) => e.players?.includes(myName));
    if (formed) mine = { entrant: formed.id, name: formed.name };
    else if (mine.partner_invite && !page.registrations.find((r) => r.id === mine?.entrant)?.waiting_partner) {
      mine = { entrant: mine.entrant, name: mine.name };
    }
  }
  let playing = null;
  if (myName) {
    for (const rnd of page.rounds) {
      for (const t of rnd.tables) {
        for (const g of t.games) if (g.outcome == null && g.players?.includes(myName)) playing = g.match;
      }
    }
  }
  return { ...page, me: mine, my_match: playing };
}

/**
 * What a page at `version` does with a change numbered `next`: apply it, skip it (already in
 * what the page shows), or ask for the whole page again (one was missed, or the event changed
 * nodes).
 * @param {number | null} version @param {number} next
 * @returns {"apply" | "skip" | "resync"}
 */
export function changeFits(version, next) {
  if (version === null) return "resync";
  if (next === version + 1) return "apply";
  return next <= version ? "skip" : "resync";
}
