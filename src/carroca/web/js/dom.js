// @ts-check
// Small DOM helpers shared by every page (no framework, no build step).

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Attributes for h() and s(): strings, numbers and booleans; `dataset` an object of data-*
 * values; `on…` an event listener; `text` the text content.
 * @typedef {Record<string, any>} Attrs
 */

/**
 * What h(), s() and fill() accept as children: nodes, text, numbers, and arrays of them (nested
 * arrays are flattened; null, undefined and false are skipped).
 * @typedef {Node | string | number | boolean | null | undefined | readonly any[]} Child
 */

/**
 * Create an element: h("button", {class: "x", onclick: fn, dataset: {tile: "3-5"}}, "text", child).
 * Attributes set to null, undefined or false are skipped; true sets an empty attribute.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Same as h() for SVG elements.
 * @template {keyof SVGElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElementTagNameMap[K]}
 */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * @param {HTMLElement | SVGElement} el
 * @param {Attrs | null | undefined} attrs
 */
function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) {
        if (v !== null && v !== undefined) el.dataset[k] = String(v);
      }
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      el.textContent = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replace every child of `el`.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * The first element that matches `sel`, or null.
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement | null}
 */
export const $ = (sel, root = document) => /** @type {HTMLElement | null} */ (root.querySelector(sel));
/**
 * Every element that matches `sel`.
 * @param {string} sel
 * @param {ParentNode} [root]
 * @returns {HTMLElement[]}
 */
export const $$ = (sel, root = document) => /** @type {HTMLElement[]} */ ([...root.querySelectorAll(sel)]);

/**
 * The element `sel` that the page always has, of the kind `type` (an HTMLElement unless told):
 * a missing one is a bug of the page, thrown at once with its selector.
 * @template {Element} [T=HTMLElement]
 * @param {string} sel
 * @param {{new (...args: any[]): T, prototype: T}} [type]
 * @param {ParentNode} [root]
 * @returns {T}
 */
export function need(sel, type, root = document) {
  const el = root.querySelector(sel);
  if (!(el instanceof (type ?? HTMLElement))) throw new Error(`the page has no ${sel}`);
  return /** @type {T} */ (el);
}

/**
 * Sets the text of `el`; a new text plays its `bump` animation again (a score that changed).
 * @param {HTMLElement} el
 * @param {string} text
 */
export function bumpText(el, text) {
  if (el.textContent === text) return;
  el.textContent = text;
  el.classList.remove("bump");
  void el.offsetWidth; // a reflow, so that the animation starts over
  el.classList.add("bump");
}

const NUMBER = new Intl.NumberFormat("pt-BR");
const DECIMAL = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** 1234 -> "1.234" */
export const num = (/** @type {number} */ n) => NUMBER.format(n);
/** 12.345 -> "12,3" */
export const dec = (/** @type {number} */ n) => DECIMAL.format(n);
/** +1,8 / −0,4 with a real minus sign. */
export const signed = (/** @type {number} */ n) => (n >= 0 ? "+" : "−") + DECIMAL.format(Math.abs(n));

/** The query string's parameter `name`, or null. */
export const param = (/** @type {string} */ name) => new URLSearchParams(location.search).get(name);

/**
 * A return address from the query string made safe to navigate to: `target` resolved against
 * this page's origin, as an absolute URL (a path like "//host" alone would leave the site), or
 * null unless it stays on this origin (refuses "//host", "/\\host", "/\t/host", "/.//host",
 * "https://host", "javascript:..." and the like).
 * @param {string | null | undefined} target
 * @returns {string | null}
 */
export function sameOriginPath(target) {
  if (!target) return null;
  let url;
  try {
    url = new URL(target, location.origin);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || url.pathname.startsWith("//")) return null;
  return url.href;
}

/** A random seed for the verifiable shuffle: 16 URL-safe characters from the browser's CSPRNG. */
export function randomSeed() {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => alphabet[b & 63]).join("");
}

/**
 * A short-lived toast at the bottom of the screen.
 * @param {string} message
 * @param {"info" | "error" | "ok"} [kind]
 * @param {number} [ms]
 */
export function toast(message, kind = "info", ms = 3500) {
  let host = document.getElementById("toasts");
  if (!host) {
    host = h("div", { id: "toasts", class: "toasts", role: "status", "aria-live": "polite" });
    document.body.append(host);
  }
  const item = h("div", { class: `toast toast-${kind}` }, message);
  host.append(item);
  setTimeout(() => {
    item.classList.add("toast-out");
    setTimeout(() => item.remove(), 300);
  }, ms);
}

/**
 * Copy text to the clipboard; resolves to true when it worked.
 * @param {string} text
 * @returns {Promise<boolean>}
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = h("textarea", { "aria-hidden": "true" });
    // Styled through CSSOM: the Content-Security-Policy refuses style="" attributes.
    Object.assign(area.style, { position: "fixed", opacity: "0" });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}
