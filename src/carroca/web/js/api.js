// The HTTP API of the server, as small async functions. Errors carry the server's pt-BR message.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
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

export const get = (path) => request("GET", path);
export const post = (path, body = {}) => request("POST", path, body);
export const del = (path) => request("DELETE", path);

/** The signed-in player {player, tables, queued}, or null when nobody is signed in. */
export async function me() {
  try {
    return await get("/api/me");
  } catch (e) {
    if (e.status === 401) return null;
    throw e;
  }
}

export const guest = (name) => post("/api/guest", { name });
export const login = (name, password) => post("/api/login", { name, password });
export const register = (name, password) => post("/api/register", { name, password });
export const logout = () => post("/api/logout");

export const rulesets = () => get("/api/rulesets");
export const bots = () => get("/api/bots");
export const matches = () => get("/api/matches");
export const match = (id) => get(`/api/matches/${encodeURIComponent(id)}`);
export const record = (id) => get(`/api/matches/${encodeURIComponent(id)}/record`);
export const player = (name) => get(`/api/players/${encodeURIComponent(name)}`);
export const leaderboard = (family) => get(`/api/leaderboard/${encodeURIComponent(family)}`);

const seeded = (body, seed) => (seed ? { ...body, client_seed: seed } : body);

export const casual = (ruleset, botLevel, seed, match) =>
  post("/api/casual", seeded({ ruleset, bot_level: botLevel, ...(match ? { match } : {}) }, seed));
export const friendsTable = (ruleset, options, seats, turnSeconds, seed) =>
  post("/api/tables", seeded({ ruleset, options, seats, turn_seconds: turnSeconds }, seed));
export const joinInvite = (invite, seed) => post("/api/tables/join", seeded({ invite }, seed));
export const ranked = (ruleset, seed) => post("/api/ranked", seeded({ ruleset }, seed));
export const leaveRanked = () => del("/api/ranked");

/** Remember the seed this browser gave for a match (the fairness page shows it). */
export function rememberSeed(matchId, seed) {
  try {
    localStorage.setItem(`carroca:seed:${matchId}`, seed);
  } catch {
    /* private mode: nothing to remember */
  }
}

export function seedFor(matchId) {
  try {
    return localStorage.getItem(`carroca:seed:${matchId}`);
  } catch {
    return null;
  }
}
