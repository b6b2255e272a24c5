// @ts-check
// The HTTP API of the server, as small async functions. Errors carry the server's pt-BR message.

import { showAnnouncement } from "./announce.js";

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status (0: no answer)
   * @param {string} code the server's error code
   * @param {string} message in pt-BR, for the player
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * The JSON answer of a request (null for an empty one); a refusal throws an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, init);
  } catch {
    throw new ApiError(0, "network", "Sem conexão com o servidor. Tente de novo.");
  }
  const text = await resp.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!resp.ok) {
    const err = data && data.error;
    throw new ApiError(
      resp.status,
      err ? err.code : "http_" + resp.status,
      err ? err.message : `O servidor respondeu com erro ${resp.status}.`,
    );
  }
  return data;
}

/** @param {string} path */
export const get = (path) => request("GET", path);
/**
 * @param {string} path
 * @param {unknown} [body]
 */
export const post = (path, body = {}) => request("POST", path, body);
/** @param {string} path */
export const del = (path) => request("DELETE", path);

/** The signed-in player {player, tables, queued}, or null when nobody is signed in (GET /api/me:
 * a 401 when signed out, which the browser logs). */
export async function me() {
  try {
    return await get("/api/me");
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null;
    throw e;
  }
}

/** The same as me(), from GET /api/session: 200 {"player": null} when signed out, so that a
 * page visited signed out logs no error. */
export async function session() {
  const data = await get("/api/session");
  if (data && data.announcement) showAnnouncement(data.announcement);
  return data && data.player ? data : null;
}

// A guest's key (returned once, at sign-up) signs the same guest in again after "Sair": kept in
// this browser, by nickname, for the last few guests who played here, until the guest chooses
// "Esquecer este aparelho" (the server then refuses the key too: docs/server.md, "Accounts").
const GUEST_KEYS = "carroca:guest-keys";
const KEPT_KEYS = 5;
const nameKey = (/** @type {string} */ name) => String(name).normalize("NFKC").trim().toLowerCase();

/** @returns {Record<string, string>} */
function guestKeys() {
  try {
    const kept = JSON.parse(localStorage.getItem(GUEST_KEYS) || "{}");
    return kept && typeof kept === "object" ? kept : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, string>} keys */
function saveGuestKeys(keys) {
  try {
    localStorage.setItem(GUEST_KEYS, JSON.stringify(keys));
  } catch {
    /* private mode: the nickname is kept for this visit only */
  }
}

/** The key this browser keeps for the guest `name`, or null. */
export const guestKeyFor = (/** @type {string} */ name) => guestKeys()[nameKey(name)] || null;

/** @param {string} name */
export function forgetGuestKey(name) {
  const keys = guestKeys();
  delete keys[nameKey(name)];
  saveGuestKeys(keys);
}

/**
 * @param {string} name
 * @param {string} key
 */
function keepGuestKey(name, key) {
  const keys = guestKeys();
  delete keys[nameKey(name)];
  keys[nameKey(name)] = key; // the newest last; the oldest go first
  const names = Object.keys(keys);
  for (const old of names.slice(0, Math.max(0, names.length - KEPT_KEYS))) delete keys[old];
  saveGuestKeys(keys);
}

/**
 * Play as a guest: a new nickname, or one this browser signed up before (with its key).
 * @param {string} name
 */
export async function guest(name) {
  const key = guestKeyFor(name);
  let r;
  try {
    r = await post("/api/guest", key ? { name, key } : { name });
  } catch (e) {
    if (e instanceof ApiError && e.code === "bad_guest_key") forgetGuestKey(name); // forgotten elsewhere: it is no use
    throw e;
  }
  if (r && r.guest_key) keepGuestKey(r.player.name, r.guest_key);
  return r;
}

export const login = (/** @type {string} */ name, /** @type {string} */ password) => post("/api/login", { name, password });
/**
 * @param {string} name
 * @param {string} password
 */
export async function register(name, password) {
  const r = await post("/api/register", { name, password });
  forgetGuestKey(name); // an account signs in with its password from now on
  return r;
}
/** Sign out; `forgetDevice` (a guest): the server ends the guest's key and this browser drops
 * it, so whoever uses this device next starts fresh.
 * @param {{forgetDevice?: boolean, name?: string | null}} [options] */
export async function logout({ forgetDevice = false, name = null } = {}) {
  const r = await post("/api/logout", forgetDevice ? { forget_device: true } : {});
  if (forgetDevice && name) forgetGuestKey(name);
  return r;
}

export const rulesets = () => get("/api/rulesets");
export const bots = () => get("/api/bots");
export const matches = () => get("/api/matches");
export const match = (/** @type {string} */ id) => get(`/api/matches/${encodeURIComponent(id)}`);
export const record = (/** @type {string} */ id) => get(`/api/matches/${encodeURIComponent(id)}/record`);
/** A friends' match's host shows it to everyone (`true`) or keeps it to its players. */
export const setPublic = (/** @type {string} */ id, /** @type {boolean} */ isPublic) =>
  post(`/api/matches/${encodeURIComponent(id)}/public`, { public: isPublic });
export const player = (/** @type {string} */ name) => get(`/api/players/${encodeURIComponent(name)}`);
export const leaderboard = (/** @type {string} */ family) => get(`/api/leaderboard/${encodeURIComponent(family)}`);

/** @type {(body: Record<string, unknown>, seed: string | null | undefined) => Record<string, unknown>} */
const seeded = (body, seed) => (seed ? { ...body, client_seed: seed } : body);

/** @param {string} ruleset @param {string} botLevel @param {string | null} [seed]
 * @param {string | null} [match] @param {number | null} [turnSeconds] */
export const casual = (ruleset, botLevel, seed, match, turnSeconds) =>
  post("/api/casual", seeded({ ruleset, bot_level: botLevel, ...(match ? { match } : {}), ...(turnSeconds ? { turn_seconds: turnSeconds } : {}) }, seed));
/** @param {string} ruleset @param {Record<string, unknown>} options @param {string[]} seats
 * @param {number} turnSeconds @param {string | null} [seed] */
export const friendsTable = (ruleset, options, seats, turnSeconds, seed) =>
  post("/api/tables", seeded({ ruleset, options, seats, turn_seconds: turnSeconds }, seed));
/** @param {string} invite @param {string | null} [seed] */
export const joinInvite = (invite, seed) => post("/api/tables/join", seeded({ invite }, seed));
/** @param {string} ruleset @param {string | null} [seed] */
export const ranked = (ruleset, seed) => post("/api/ranked", seeded({ ruleset }, seed));
export const leaveRanked = () => del("/api/ranked");

/**
 * Remember the seed this browser gave for a match (the fairness page shows it).
 * @param {string} matchId
 * @param {string} seed
 */
export function rememberSeed(matchId, seed) {
  try {
    localStorage.setItem(`carroca:seed:${matchId}`, seed);
  } catch {
    /* private mode: nothing to remember */
  }
}

/**
 * The seed this browser gave for a match, or null.
 * @param {string} matchId
 * @returns {string | null}
 */
export function seedFor(matchId) {
  try {
    return localStorage.getItem(`carroca:seed:${matchId}`);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------- tournaments

/**
 * A page of each list of public events, or of one list from the cursor of the page before (`more`).
 * @param {{ list?: string, after?: string | null, limit?: number }} page
 */
export const tournaments = (page = {}) => {
  const query = new URLSearchParams();
  if (page.list) query.set("list", page.list);
  if (page.after) query.set("after", page.after);
  if (page.limit) query.set("limit", String(page.limit));
  const text = query.toString();
  return get(`/api/tournaments${text ? `?${text}` : ""}`);
};
// A private event's page needs its invitation (`code`) from who is neither its creator nor an entrant.
export const tournament = (/** @type {string} */ id, /** @type {string | null} */ code = null) => get(`/api/tournaments/${encodeURIComponent(id)}${code ? `?code=${encodeURIComponent(code)}` : ""}`);
/** @param {Record<string, unknown>} body */
export const createTournament = (body) => post("/api/tournaments", body);
/** @param {string} id @param {Record<string, unknown>} [body] */
export const registerTournament = (id, body = {}) => post(`/api/tournaments/${encodeURIComponent(id)}/register`, body);
/** @param {string} id */
export const withdrawTournament = (id) => post(`/api/tournaments/${encodeURIComponent(id)}/withdraw`);
/** @param {string} id */
export const startTournament = (id) => post(`/api/tournaments/${encodeURIComponent(id)}/start`);
