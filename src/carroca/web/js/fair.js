// @ts-check
// The verifiable shuffle of docs/record.md, recomputed in the browser: the commitment is the
// SHA-256 of the revealed seed's 32 bytes, and deal d is a Fisher–Yates shuffle (rejection
// sampling, no modulo bias) driven by HMAC-SHA256(key = seed bytes, msg = "client_seed:d:k")
// read as big-endian 32-bit integers. Web Crypto (crypto.subtle) does the hashing; where it is
// missing (a page served without HTTPS) a small SHA-256 written here does the same work.

import { TILES } from "./engine.js";

const encoder = new TextEncoder();

/** The test vector of record.md, checked by `selfCheck` before anything else is trusted. */
export const TEST_VECTOR = {
  serverSeed: "00".repeat(32),
  clientSeed: "test",
  commitment: "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
  deals: [
    "2-3 0-4 0-2 2-6 0-1 1-5 0-0 2-5 1-3 4-6 2-4 1-6 2-2 3-3 5-5 5-6 0-3 3-4 6-6 1-1 0-6 " +
      "3-6 3-5 0-5 1-4 4-5 1-2 4-4",
    "3-6 2-2 4-5 6-6 1-1 1-2 2-6 1-5 3-3 0-4 3-5 1-6 0-6 1-3 4-6 0-3 2-3 2-4 0-5 0-0 5-5 " +
      "4-4 2-5 3-4 1-4 0-1 5-6 0-2",
  ].map((s) => s.split(" ")),
};

/** @param {unknown} seed @returns {seed is string} */
export function isSeed(seed) {
  return typeof seed === "string" && /^[0-9a-f]{64}$/.test(seed);
}

/** @param {string} hex @returns {Uint8Array<ArrayBuffer>} */
export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** @param {ArrayBuffer | Uint8Array} bytes */
export function bytesToHex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// ------------------------------------------------------------------ SHA-256 and HMAC

const subtle = globalThis.crypto && globalThis.crypto.subtle;

/** Which implementation hashes: "webcrypto" or "js". */
export const hashing = () => (subtle ? "webcrypto" : "js");

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/**
 * SHA-256 in plain JavaScript (FIPS 180-4), for browsers without Web Crypto.
 * @param {Uint8Array | ArrayBuffer} data
 */
export function sha256js(data) {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const bits = bytes.length * 8;
  const total = (((bytes.length + 9 + 63) >> 6) << 6);
  const m = new Uint8Array(total);
  m.set(bytes);
  m[bytes.length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(total - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(total - 4, bits >>> 0);
  const H = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const W = new Uint32Array(64);
  /** @param {number} x @param {number} n */
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(W[i - 15], 7) ^ rotr(W[i - 15], 18) ^ (W[i - 15] >>> 3);
      const s1 = rotr(W[i - 2], 17) ^ rotr(W[i - 2], 19) ^ (W[i - 2] >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + S1 + ch + K[i] + W[i]) >>> 0;
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (S0 + maj) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    H[0] += a;
    H[1] += b;
    H[2] += c;
    H[3] += d;
    H[4] += e;
    H[5] += f;
    H[6] += g;
    H[7] += h;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  H.forEach((v, i) => outView.setUint32(4 * i, v));
  return out;
}

/**
 * HMAC-SHA256 (RFC 2104) over sha256js, for browsers without Web Crypto.
 * @param {Uint8Array} key @param {Uint8Array} message
 */
export function hmacSha256js(key, message) {
  const k = key.length > 64 ? sha256js(key) : key;
  const block = new Uint8Array(64);
  block.set(k);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = block[i] ^ 0x36;
    outer[i] = block[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256js(inner), 64);
  return sha256js(outer);
}

/** @param {Uint8Array<ArrayBuffer>} bytes */
export async function sha256(bytes) {
  if (subtle) return new Uint8Array(await subtle.digest("SHA-256", bytes));
  return sha256js(bytes);
}

/**
 * A signer for one key: (message bytes) => Promise of the 32-byte MAC.
 * @param {Uint8Array<ArrayBuffer>} keyBytes @param {boolean} useJs
 * @returns {Promise<(msg: Uint8Array<ArrayBuffer>) => Promise<Uint8Array>>}
 */
async function hmacSigner(keyBytes, useJs) {
  if (subtle && !useJs) {
    const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
    ]);
    return async (msg) => new Uint8Array(await subtle.sign("HMAC", key, msg));
  }
  return async (msg) => hmacSha256js(keyBytes, msg);
}

// ------------------------------------------------------------------ the shuffle

/** sha256 of the seed's 32 bytes, as 64 lowercase hex digits. @param {string} serverSeed */
export async function commitmentOf(serverSeed) {
  return bytesToHex(await sha256(hexToBytes(serverSeed)));
}

/**
 * The 28 tiles of deal `dealIndex` in shuffled order ("a-b" names). Seat s gets positions
 * 7s … 7s+6; in 1v1 the last 14 are the boneyard, in draw order.
 * options.js: use the JavaScript hashing even where Web Crypto exists (for the self-check).
 * @param {string} serverSeed @param {string} clientSeed @param {number} dealIndex
 * @param {{js?: boolean}} [options]
 * @returns {Promise<string[]>}
 */
export async function shuffle(serverSeed, clientSeed, dealIndex, { js = false } = {}) {
  if (!isSeed(serverSeed)) throw new Error("A semente do servidor precisa ter 64 dígitos hexadecimais.");
  const sign = await hmacSigner(hexToBytes(serverSeed), js);
  /** @type {DataView | null} */
  let block = null;
  let k = 0;
  let pos = 32;
  const nextWord = async () => {
    if (pos >= 32) {
      block = new DataView((await sign(encoder.encode(`${clientSeed}:${dealIndex}:${k}`))).buffer);
      k += 1;
      pos = 0;
    }
    const word = /** @type {DataView} */ (block).getUint32(pos);
    pos += 4;
    return word;
  };
  const order = [...TILES];
  for (let i = 27; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let x = await nextWord();
    while (x >= limit) x = await nextWord();
    const j = x % n;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * Check the algorithm against record.md's test vector, with Web Crypto and with the JavaScript
 * hashing. Resolves to {ok, checks: [{name, ok}]}.
 */
export async function selfCheck() {
  const v = TEST_VECTOR;
  const checks = [];
  checks.push({
    name: "compromisso (SHA-256)",
    ok: (await commitmentOf(v.serverSeed)) === v.commitment,
  });
  checks.push({
    name: "SHA-256 em JavaScript",
    ok: bytesToHex(sha256js(hexToBytes(v.serverSeed))) === v.commitment,
  });
  for (let d = 0; d < v.deals.length; d++) {
    const got = await shuffle(v.serverSeed, v.clientSeed, d);
    checks.push({ name: `distribuição ${d}`, ok: got.join(" ") === v.deals[d].join(" ") });
    const gotJs = await shuffle(v.serverSeed, v.clientSeed, d, { js: true });
    checks.push({ name: `distribuição ${d} (JavaScript)`, ok: gotJs.join(" ") === v.deals[d].join(" ") });
  }
  return { ok: checks.every((c) => c.ok), checks };
}

/**
 * @typedef {{seat: number, expected: string[], found: string[], missing: string[],
 *   extra: string[], ok: boolean}} SeatCheck
 * @typedef {{expected: string[], found: string[], ok: boolean, firstDiff: number}} BoneyardCheck
 * @typedef {{hand: number, dealIndex: any, ok: boolean, seats: SeatCheck[],
 *   boneyard: BoneyardCheck | null, error: string | null}} DealCheck
 * @typedef {{commitment: {expected: string, found: string, ok: boolean} | null,
 *   published: {expected: string, ok: boolean} | null, deals: DealCheck[], ok: boolean,
 *   error: string | null}} Verification
 */

/**
 * Check a whole record: the commitment against the revealed seed, then every deal against the
 * record's dealt hands (any order within a hand) and boneyard (in order).
 * Returns {commitment: {expected, found, ok}, deals: [{hand, dealIndex, ok, seats, boneyard}],
 * ok, error}. `expectedCommitment`: the one published before the match, when known.
 * @param {any} record
 * @param {{expectedCommitment?: string | null}} [options]
 * @returns {Promise<Verification>}
 */
export async function verifyRecord(record, { expectedCommitment = null } = {}) {
  const f = record.fairness || {};
  /** @type {Verification} */
  const out = { commitment: null, published: null, deals: [], ok: false, error: null };
  if (!isSeed(f.server_seed)) {
    out.error = "O registro não traz a semente do servidor revelada (64 dígitos hexadecimais).";
    return out;
  }
  if (typeof f.client_seed !== "string") {
    out.error = "O registro não traz a semente dos jogadores.";
    return out;
  }
  const computed = await commitmentOf(f.server_seed);
  const commitment = { expected: f.commitment, found: computed, ok: computed === f.commitment };
  out.commitment = commitment;
  if (expectedCommitment) {
    out.published = { expected: expectedCommitment, ok: expectedCommitment === f.commitment };
  }
  const n = (record.players || []).length;
  const hands = Array.isArray(record.hands) ? record.hands : [];
  for (let h = 0; h < hands.length; h++) {
    const hand = hands[h];
    const d = hand.deal_index;
    /** @type {DealCheck} */
    const deal = { hand: h, dealIndex: d, ok: false, seats: [], boneyard: null, error: null };
    if (!Number.isInteger(d) || d !== h) {
      deal.error = `A distribuição desta mão deveria ser a de número ${h}; o registro diz ${d}.`;
      out.deals.push(deal);
      continue;
    }
    const order = await shuffle(f.server_seed, f.client_seed, d);
    const dealt = Array.isArray(hand.dealt) ? hand.dealt : [];
    for (let s = 0; s < n; s++) {
      const want = order.slice(7 * s, 7 * s + 7);
      /** @type {string[]} */
      const got = Array.isArray(dealt[s]) ? dealt[s] : [];
      const wantSet = new Set(want);
      const gotSet = new Set(got);
      deal.seats.push({
        seat: s,
        expected: want,
        found: got,
        missing: want.filter((t) => !gotSet.has(t)),
        extra: got.filter((t) => !wantSet.has(t)),
        ok: got.length === 7 && want.every((t) => gotSet.has(t)) && gotSet.size === 7,
      });
    }
    const bones = order.slice(7 * n);
    const found = Array.isArray(hand.boneyard) ? hand.boneyard : [];
    const expected = n === 4 ? [] : bones;
    const firstDiff = expected.findIndex((t, i) => found[i] !== t);
    const boneyard = {
      expected,
      found,
      ok: found.length === expected.length && firstDiff < 0,
      firstDiff: firstDiff >= 0 ? firstDiff : found.length !== expected.length ? expected.length : -1,
    };
    deal.boneyard = boneyard;
    deal.ok = deal.seats.every((s) => s.ok) && boneyard.ok;
    out.deals.push(deal);
  }
  out.ok =
    commitment.ok &&
    (!out.published || out.published.ok) &&
    out.deals.length > 0 &&
    out.deals.every((d) => d.ok);
  return out;
}
