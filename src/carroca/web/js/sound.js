// @ts-check
// The table's sounds, synthesised with the Web Audio API (no sound files): a tile laid down, a
// pass (two knocks on the table), a draw from the boneyard, the batida, "your turn" and a victory.
//
// Browsers start audio only after the player touches the page, so the audio graph is made on
// the first pointer or key press. The switch is remembered in localStorage ("carroca:som").

const KEY = "carroca:som";

function remembered() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

/** @typedef {"play" | "pass" | "draw" | "batida" | "turn" | "vitoria"} Name */

export class Sound {
  constructor() {
    this.on = remembered();
    /** @type {AudioContext | null} */
    this.ctx = null;
    /** @type {GainNode | null} */
    this.master = null;
    /** @type {AudioBuffer | null} */
    this.noise = null;
    /** @type {Name[]} */
    this.played = []; // names of the sounds played (read by the tests), the last 50
    const unlock = () => this.unlock();
    window.addEventListener("pointerdown", unlock, { passive: true });
    window.addEventListener("keydown", unlock);
  }

  /** Make (or wake) the audio graph; only works during a user gesture the first time. */
  unlock() {
    if (!this.on) return;
    try {
      if (!this.ctx) {
        /** @type {typeof AudioContext | undefined} */
        const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
        if (!Ctx) return;
        this.ctx = new Ctx();
        this.master = this.ctx.createGain();
        this.master.gain.value = 0.55;
        this.master.connect(this.ctx.destination);
      }
      if (this.ctx.state === "suspended") this.ctx.resume().catch(() => {});
    } catch {
      this.ctx = null;
    }
  }

  /** @param {boolean} on */
  setOn(on) {
    this.on = Boolean(on);
    try {
      localStorage.setItem(KEY, this.on ? "on" : "off");
    } catch {
      /* private mode: the switch lasts for this page */
    }
    if (this.on) this.unlock();
    else if (this.ctx && this.ctx.state === "running") this.ctx.suspend().catch(() => {});
  }

  /**
   * Play one of: "play", "pass", "draw", "batida", "turn", "vitoria". Returns whether it
   * played.
   * @param {Name} name
   * @returns {boolean}
   */
  play(name) {
    if (!this.on) return false;
    this.played.push(name);
    if (this.played.length > 50) this.played.shift();
    const ctx = this.ctx;
    if (!ctx || ctx.state !== "running") return true; // not unlocked yet: silent, not an error
    try {
      const t = ctx.currentTime + 0.01;
      VOICES[name]?.(this, t);
    } catch {
      /* a sound is never worth an error */
    }
    return true;
  }

  // ---------------------------------------------------------------- building blocks

  /**
   * @param {AudioContext} ctx
   * @returns {AudioBuffer}
   */
  _noise(ctx) {
    if (!this.noise) {
      const buffer = ctx.createBuffer(1, Math.floor(ctx.sampleRate * 0.6), ctx.sampleRate);
      const data = buffer.getChannelData(0);
      for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
      this.noise = buffer;
    }
    return this.noise;
  }

  /**
   * A burst of filtered noise: the click of ivory on wood, a shuffle.
   * @param {number} t when, on the audio clock
   * @param {{freq?: number, q?: number, length?: number, gain?: number, type?: BiquadFilterType}} [options]
   */
  burst(t, { freq = 2400, q = 1.2, length = 0.06, gain = 0.8, type = "bandpass" } = {}) {
    const ctx = this.ctx;
    const master = this.master;
    if (!ctx || !master) return;
    const src = ctx.createBufferSource();
    src.buffer = this._noise(ctx);
    const filter = ctx.createBiquadFilter();
    filter.type = type;
    filter.frequency.value = freq;
    filter.Q.value = q;
    const env = ctx.createGain();
    env.gain.setValueAtTime(gain, t);
    env.gain.exponentialRampToValueAtTime(0.001, t + length);
    src.connect(filter).connect(env).connect(master);
    src.start(t);
    src.stop(t + length + 0.02);
  }

  /**
   * A short tone that fades: knocks, thuds and chimes.
   * @param {number} t when, on the audio clock
   * @param {{freq?: number, to?: number | null, length?: number, gain?: number, type?: OscillatorType}} [options]
   */
  tone(t, { freq = 440, to = null, length = 0.15, gain = 0.4, type = "sine" } = {}) {
    const ctx = this.ctx;
    const master = this.master;
    if (!ctx || !master) return;
    const osc = ctx.createOscillator();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, t);
    if (to) osc.frequency.exponentialRampToValueAtTime(to, t + length);
    const env = ctx.createGain();
    env.gain.setValueAtTime(0.0001, t);
    env.gain.exponentialRampToValueAtTime(gain, t + 0.008);
    env.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(env).connect(master);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }
}

/** @type {Record<Name, (snd: Sound, t: number) => void>} */
const VOICES = {
  play(snd, t) {
    snd.burst(t, { freq: 2600, q: 2, length: 0.05, gain: 0.9 });
    snd.tone(t, { freq: 210, to: 120, length: 0.08, gain: 0.5, type: "triangle" });
  },
  pass(snd, t) {
    for (const at of [t, t + 0.14]) {
      snd.tone(at, { freq: 150, to: 90, length: 0.1, gain: 0.6 });
      snd.burst(at, { freq: 700, q: 0.8, length: 0.04, gain: 0.35 });
    }
  },
  draw(snd, t) {
    snd.burst(t, { freq: 1800, q: 0.7, length: 0.18, gain: 0.35 });
    snd.burst(t + 0.12, { freq: 2600, q: 1.5, length: 0.05, gain: 0.6 });
  },
  batida(snd, t) {
    snd.burst(t, { freq: 1200, q: 0.6, length: 0.12, gain: 1 });
    snd.tone(t, { freq: 110, to: 60, length: 0.3, gain: 0.8, type: "triangle" });
    snd.tone(t + 0.18, { freq: 659, length: 0.35, gain: 0.22 });
    snd.tone(t + 0.3, { freq: 880, length: 0.5, gain: 0.22 });
  },
  vitoria(snd, t) {
    // a rising arpeggio, then the chord: the match is won
    [523, 659, 784, 1047].forEach((freq, i) => snd.tone(t + i * 0.11, { freq, length: 0.3, gain: 0.2 }));
    for (const freq of [523, 659, 784]) snd.tone(t + 0.5, { freq, length: 0.8, gain: 0.12 });
  },
  turn(snd, t) {
    snd.tone(t, { freq: 784, length: 0.18, gain: 0.18 });
    snd.tone(t + 0.12, { freq: 1175, length: 0.3, gain: 0.16 });
  },
};
