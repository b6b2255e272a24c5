// @ts-check
// The table's WebSocket: reconnects with backoff on a dropped connection and says hello again.
// The back-off is skipped when the network comes back (the browser's "online" event) or the page
// is shown again (a phone woken up, a tab brought back): then it reconnects at once.
//
// Frames are {"type", "data"}. After every (re)connection the server sends "hello"; the page then
// sends "join" again and the server answers with the full state of the table.

const CLOSE_UNAUTHENTICATED = 4401;
const PING_MS = 20000;
const SILENCE_MS = 45000;
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000];

/** @typedef {"connecting" | "online" | "reconnecting" | "offline"} Status */

/** @typedef {import("./frames.js").Frames} Frames */

/**
 * A frame's type and data, as one pair a type of the map `M` (type -> data): a union of
 * tuples, so that a handler's `data` narrows with its `type`.
 * @template {object} M
 * @typedef {{[K in keyof M & string]: [type: K, data: M[K]]}[keyof M & string]} FrameArgs
 */

/**
 * What a page does with the frames of the map `M` (`(type, data) => …`).
 * @template {object} M
 * @typedef {(...frame: FrameArgs<M>) => void} FrameHandler
 */

/** Each client message's data by its type (wire.d.ts). */
/** @typedef {{[C in import("./wire").ClientMessage as C["type"]]: C["data"]}} ClientData */

/**
 * What a page does with its socket (the frames' data as wire.d.ts types it).
 * @typedef {object} Handlers
 * @property {(hello: Frames["hello"]) => void} [onHello] connected and greeted (send "join" here)
 * @property {FrameHandler<Omit<Frames, "hello" | "pong">>} [onFrame] every other frame but "pong"
 * @property {(status: Status) => void} [onStatus]
 * @property {() => void} [onUnauthorized] the session is gone (sign in again)
 */

export class Socket {
  /** @param {Handlers} handlers */
  constructor(handlers) {
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    this.lastFrame = 0;
    /** @type {Status} */
    this.status = "connecting";
    /** @type {string | null} */
    this.node = null; // the server node to ask the front for (`/ws?node=`), when known
    this._wake = () => this.wake();
    this._shown = () => {
      if (document.visibilityState === "visible") this.wake();
    };
    window.addEventListener("online", this._wake);
    document.addEventListener("visibilitychange", this._shown);
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const node = this.node ? `?node=${encodeURIComponent(this.node)}` : "";
    return `${scheme}://${location.host}/ws${node}`;
  }

  /**
   * Connect again at once, asking the front for `node` (the server that runs the table, so that
   * moves and frames need not cross between servers). The old connection closes quietly; the
   * new one says hello and the page joins again.
   * @param {string} node
   */
  moveTo(node) {
    if (this.stopped) return;
    this.node = node;
    const old = this.ws;
    this.ws = null; // its close is not a dropped connection
    this._stopPing();
    if (old) old.close(1000, "moving");
    clearTimeout(this.timer);
    this.attempt = 0;
    this.connect();
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this._status(this.attempt === 0 ? "connecting" : "reconnecting");
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      this.lastFrame = Date.now();
      /** @type {{type: string, data: unknown}} */
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (frame.type === "hello") {
        this.attempt = 0;
        this._status("online");
        this._startPing();
        this.handlers.onHello?.(/** @type {Frames["hello"]} */ (frame.data));
      } else if (frame.type !== "pong") {
        // The server's frames are its models' (wire.d.ts): not checked again here.
        const args = /** @type {FrameArgs<Omit<Frames, "hello" | "pong">>} */ ([frame.type, frame.data]);
        this.handlers.onFrame?.(...args);
      }
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this._stopPing();
      this.ws = null;
      if (ev.code === CLOSE_UNAUTHENTICATED) {
        this.stopped = true;
        this._status("offline");
        this.handlers.onUnauthorized?.();
        return;
      }
      if (!this.stopped) this._retry();
    };
    ws.onerror = () => {
      /* onclose follows and schedules the retry */
    };
  }

  /**
   * The network is back or the page is shown again: a connection waiting for its back-off is
   * made now, and an open one is checked with a ping (a dead one is then noticed sooner).
   */
  wake() {
    if (this.stopped) return;
    if (this.ws) {
      if (this.ws.readyState === WebSocket.OPEN) this.send("ping", {});
      return; // open, or still connecting
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.connect();
  }

  _retry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this._status("reconnecting");
    const delay = base * (0.8 + Math.random() * 0.4);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** @param {Status} status */
  _status(status) {
    if (status === this.status) return;
    this.status = status;
    this.handlers.onStatus?.(status);
  }

  _startPing() {
    this._stopPing();
    this.lastFrame = Date.now();
    this.pinger = setInterval(() => {
      if (Date.now() - this.lastFrame > SILENCE_MS) {
        this.drop(); // a silent connection is a dead one
        return;
      }
      this.send("ping", {});
    }, PING_MS);
  }

  _stopPing() {
    clearInterval(this.pinger);
    this.pinger = undefined;
  }

  get online() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN && this.status === "online";
  }

  /**
   * Send a message; returns false when the connection is not open.
   * @template {keyof ClientData} T
   * @param {T} type
   * @param {ClientData[T]} data
   * @returns {boolean}
   */
  send(type, data) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ type, data }));
    return true;
  }

  /** Close the connection as a network failure would (the socket reconnects by itself). */
  drop() {
    if (this.ws) this.ws.close(4000, "drop");
  }

  /** Close for good (leaving the page). */
  close() {
    this.stopped = true;
    window.removeEventListener("online", this._wake);
    document.removeEventListener("visibilitychange", this._shown);
    clearTimeout(this.timer);
    this._stopPing();
    if (this.ws) this.ws.close(1000, "bye");
    this.ws = null;
  }
}
