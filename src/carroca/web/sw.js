// @ts-check
// The service worker: the rules (regras.html), the tutorial and the lobby's shell keep working
// without a connection, and the site installs on a phone's home screen (manifest.webmanifest).
//
// Only the files listed below are handled, network first: online, every answer comes from the
// server as usual (and refreshes the copy kept here, so nothing goes stale after an update);
// offline, the copy kept at the last visit answers. The API (/api/...) and the tables' WebSocket
// (/ws) are never handled nor kept: they pass straight to the network. Change CACHE when the
// list changes; the old copies are dropped when the new worker takes over.

const CACHE = "carroca-v10";

/** This script runs as the site's service worker (registered by js/pwa.js). */
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const SHELL = [
  "/",
  "/index.html",
  "/nao-encontrada.html",
  "/manifest.webmanifest",
  "/favicon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/icon-maskable-512.png",
  "/css/base.css",
  "/css/lobby.css",
  "/js/lobby.js",
  "/js/lobby-text.js",
  "/js/account.js",
  "/js/bot-tokens.js",
  "/js/lobby-moderation.js",
  "/js/friends.js",
  "/js/badges.js",
  "/js/challenge.js",
  "/js/challenge-text.js",
  "/js/perfil-text.js",
  "/js/announce.js",
  "/js/api.js",
  "/js/dom.js",
  "/js/pwa.js",
  "/js/socket.js",
  "/js/tiles.js",
  "/js/tourneys.js",
  "/js/tourney-call.js",
  "/js/words.js",
  "/js/table-words.js",
];
const RULES = ["/regras.html", "/css/pages.css", "/js/rules.js"];
const TUTORIAL = [
  "/tutorial.html",
  "/css/mesa.css",
  "/css/tutorial.css",
  "/js/tutorial.js",
  "/js/tutorial-hand.js",
  "/js/board.js",
  "/js/engine.js",
  "/js/layout.js",
];
const KEPT = new Set([...SHELL, ...RULES, ...TUTORIAL]);

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...KEPT]))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("carroca-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/ws") return; // never kept
  if (!KEPT.has(url.pathname)) return;
  event.respondWith(networkFirst(request, url.pathname));
});

/** The server's answer (kept for later), or the kept copy when the server cannot be reached.
 * One copy per path: regras.html#glossario and tutorial.html?ritmo=0 are the same page.
 * @param {Request} request @param {string} path
 * @returns {Promise<Response>}
 */
async function networkFirst(request, path) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !response.redirected) {
      cache.put(path, response.clone()).catch(() => {}); // a full disk only means no copy
    }
    return response;
  } catch (error) {
    const kept = await cache.match(path);
    if (kept) return kept;
    throw error;
  }
}
