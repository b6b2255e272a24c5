// @ts-check
// The table's socket (js/socket.js) over a stand-in WebSocket, run by `node --test`: "hello"
// greets the page, "pong" is swallowed, every other frame reaches the page as (type, data), and
// messages go out as {type, data}. The `@ts-expect-error` lines are checked by
// `make typecheck-js`: they fail it when a handler's data stops narrowing with its type, or
// when `send` takes a message the server does not know.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";

import { Socket } from "../../src/carroca/web/js/socket.js";

/** A WebSocket that records what is sent and lets the test deliver frames. */
class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  /** @type {FakeWebSocket[]} */
  static made = [];

  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.readyState = FakeWebSocket.CONNECTING;
    /** @type {unknown[]} */
    this.sent = [];
    /** @type {((ev: {data: string}) => void) | null} */
    this.onmessage = null;
    /** @type {((ev: {code: number}) => void) | null} */
    this.onclose = null;
    /** @type {(() => void) | null} */
    this.onerror = null;
    FakeWebSocket.made.push(this);
  }

  /** @param {string} text */
  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.readyState = 3;
  }

  /** The server sends a frame (`text` as it comes on the wire). @param {string} text */
  deliver(text) {
    this.readyState = FakeWebSocket.OPEN;
    this.onmessage?.({ data: text });
  }
}

const quiet = { addEventListener() {}, removeEventListener() {} };

beforeEach(() => {
  FakeWebSocket.made = [];
  Object.assign(globalThis, {
    WebSocket: FakeWebSocket,
    window: quiet,
    document: { ...quiet, visibilityState: "visible" },
    location: { protocol: "https:", host: "carroca.example" },
  });
});

/** @type {Socket[]} */
const opened = [];
afterEach(() => {
  for (const socket of opened.splice(0)) socket.close(); // its ping timer, too
});

/** The socket's one WebSocket. */
function wire() {
  assert.equal(FakeWebSocket.made.length, 1);
  return FakeWebSocket.made[0];
}

const HELLO = { player: { id: 7, name: "ana", kind: "guest" }, protocol: 1, node: "n2" };

test("hello greets the page, pong is swallowed, the rest reach it as (type, data)", () => {
  /** @type {unknown[]} */
  const seen = [];
  /** @type {string[]} */
  const statuses = [];
  const socket = new Socket({
    onHello: (hello) => seen.push(["hello", hello.node, hello.player.id]),
    onFrame: (type, data) => seen.push([type, data]),
    onStatus: (status) => statuses.push(status),
  });
  opened.push(socket);
  socket.connect();
  const ws = wire();
  assert.equal(ws.url, "wss://carroca.example/ws");
  ws.deliver(JSON.stringify({ type: "hello", data: HELLO }));
  ws.deliver(JSON.stringify({ type: "pong", data: {} }));
  ws.deliver("not json");
  ws.deliver(JSON.stringify({ type: "ack", data: { id: 3, version: 41 } }));
  ws.deliver(JSON.stringify({ type: "muted", data: { seats: [0, 3] } }));
  assert.deepEqual(seen, [
    ["hello", "n2", 7],
    ["ack", { id: 3, version: 41 }],
    ["muted", { seats: [0, 3] }],
  ]);
  assert.deepEqual(statuses, ["online"]);
  assert.ok(socket.online);
});

test("a handler's data is the one of its frame's type", () => {
  /** @type {unknown[]} */
  const seen = [];
  const socket = new Socket({
    onFrame: (type, data) => {
      if (type === "ack") {
        seen.push(data.version);
        // @ts-expect-error an ack has no seats
        seen.push(data.seats);
      } else if (type === "tournament" && data.match) {
        seen.push(data.match);
      } else if (type === "state") {
        seen.push(data.view?.phase, data.view?.last_hand?.end.kind, data.view?.ends.left);
        // @ts-expect-error a hand ends in one of four ways, "empate" is none of them
        seen.push(data.view?.last_hand?.end.kind === "empate");
        // @ts-expect-error the ends are left, right, up and down
        seen.push(data.view?.ends.top);
      }
      // @ts-expect-error "hello" goes to onHello, never here
      if (type === "hello") seen.push(type);
    },
  });
  opened.push(socket);
  socket.connect();
  const ws = wire();
  ws.deliver(JSON.stringify({ type: "ack", data: { id: 3, version: 41 } }));
  ws.deliver(JSON.stringify({ type: "tournament", data: { event: "e1", name: "Copa", status: "running", match: "m1" } }));
  assert.deepEqual(seen, [41, undefined, "m1"]);
});

test("a state's view reads with the generated shapes, down to the last hand and the result", () => {
  /** @type {unknown[]} */
  const seen = [];
  const socket = new Socket({
    onFrame: (type, data) => {
      if (type === "state") seen.push(data.view?.last_hand?.end.kind ?? null, data.view?.result?.pneu ?? null);
    },
  });
  opened.push(socket);
  socket.connect();
  const view = { phase: "play", last_hand: { end: { kind: "batida" } }, result: null };
  wire().deliver(JSON.stringify({ type: "state", data: { id: "m1", view } }));
  assert.deepEqual(seen, ["batida", null]);
});

test("messages go out as {type, data}, and only on an open connection", () => {
  const socket = new Socket({});
  opened.push(socket);
  assert.equal(socket.send("chat", { text: "oi" }), false);
  socket.connect();
  const ws = wire();
  assert.equal(socket.send("chat", { text: "oi" }), false); // still connecting
  ws.deliver(JSON.stringify({ type: "hello", data: HELLO }));
  assert.ok(socket.send("move", { id: 1, action: "6-6" }));
  assert.ok(socket.send("join", { match: "m1", client_seed: null }));
  // @ts-expect-error a move names its action
  socket.send("move", { id: 2 });
  // @ts-expect-error no such message
  socket.send("resign", {});
  assert.deepEqual(ws.sent, [
    { type: "move", data: { id: 1, action: "6-6" } },
    { type: "join", data: { match: "m1", client_seed: null } },
    { type: "move", data: { id: 2 } },
    { type: "resign", data: {} },
  ]);
});
