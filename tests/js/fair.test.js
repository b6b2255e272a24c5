// @ts-check
// The verifiable shuffle in JavaScript (js/fair.js) against carroca.fair: the same seeds give the
// same commitment and the same deal, with Web Crypto and with the module's own SHA-256.
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { test } from "node:test";

import {
  TEST_VECTOR,
  bytesToHex,
  commitmentOf,
  hexToBytes,
  hmacSha256js,
  isSeed,
  selfCheck,
  sha256js,
  shuffle,
  verifyRecord,
} from "../../src/carroca/web/js/fair.js";
import { CASES } from "./cases.js";

test("record.md's test vector passes the self-check", async () => {
  const check = await selfCheck();
  assert.ok(check.ok, JSON.stringify(check.checks));
  assert.equal(check.checks.length, 2 + 2 * TEST_VECTOR.deals.length);
});

test("the same seeds deal the same tiles as carroca.fair", async () => {
  for (const c of CASES.shuffles) {
    assert.equal(await commitmentOf(c.serverSeed), c.commitment);
    assert.deepEqual(await shuffle(c.serverSeed, c.clientSeed, c.dealIndex), c.deal);
    assert.deepEqual(await shuffle(c.serverSeed, c.clientSeed, c.dealIndex, { js: true }), c.deal);
  }
});

test("the JavaScript SHA-256 and HMAC agree with node's, across block boundaries", () => {
  for (const size of [0, 1, 55, 56, 63, 64, 65, 119, 200]) {
    const data = Uint8Array.from({ length: size }, (_, i) => (i * 37 + 11) & 0xff);
    assert.equal(bytesToHex(sha256js(data)), createHash("sha256").update(data).digest("hex"), `${size}`);
    const key = data.slice(0, Math.min(size, 80));
    assert.equal(
      bytesToHex(hmacSha256js(key, data)),
      createHmac("sha256", key).update(data).digest("hex"),
      `${size}`,
    );
  }
  assert.deepEqual([...hexToBytes("00ff10")], [0, 255, 16]);
  assert.ok(isSeed("ab".repeat(32)) && !isSeed("AB".repeat(32)) && !isSeed("ab"));
});

test("every reference record's deals check out; a changed seed or deal does not", async () => {
  for (const { record } of CASES.matches.filter((c) => c.shuffled)) {
    const v = await verifyRecord(record, { expectedCommitment: record.fairness.commitment });
    assert.ok(v.ok, record.ruleset);
    assert.equal(v.deals.length, record.hands.length);
  }
  const { record } = CASES.matches[0];
  const wrongSeed = structuredClone(record);
  wrongSeed.fairness.server_seed = "0".repeat(64);
  const bad = await verifyRecord(wrongSeed);
  assert.ok(!bad.ok && !bad.commitment?.ok);
  const swapped = structuredClone(record);
  const [a, b] = [swapped.hands[0].dealt[0][0], swapped.hands[0].dealt[1][0]];
  swapped.hands[0].dealt[0][0] = b;
  swapped.hands[0].dealt[1][0] = a;
  const deal = (await verifyRecord(swapped)).deals[0];
  assert.ok(!deal.ok);
  assert.deepEqual(deal.seats[0].missing, [a]);
  assert.deepEqual(deal.seats[0].extra, [b]);
  const unsealed = await verifyRecord({ ...record, fairness: {} });
  assert.match(unsealed.error ?? "", /semente do servidor/);
});
