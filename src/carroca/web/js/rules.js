// @ts-check
// The rules page (regras.html): one part at a time — regras.html#duplas-pontos shows that
// ruleset's rules, #glossario the glossary, #g-galo a glossary term — and real dominoes drawn in
// the examples. Without scripts every part is simply shown, one after the other.

import { $$, h, need } from "./dom.js";
import { tileSVG } from "./tiles.js";
import * as W from "./words.js";

const pages = $$(".rules-page");
const links = $$(".rules-nav a");
const baseTitle = "Regras do dominó · Carroça";

/** data-tiles="6-6 3|6": "a-b" stands upright, "a|b" lies down showing a on the left. */
function drawExamples() {
  for (const host of $$("[data-tiles]")) {
    const specs = (host.dataset.tiles ?? "").split(/\s+/).filter(Boolean);
    const names = [];
    for (const spec of specs) {
      const flat = spec.includes("|");
      const [a, b] = spec.split(/[|-]/).map(Number);
      const tile = `${Math.min(a, b)}-${Math.max(a, b)}`;
      names.push(W.tileName(tile));
      host.append(tileSVG(tile, { horizontal: flat, flip: flat && a > b, className: flat ? "flat" : "" }));
    }
    host.setAttribute("role", "img");
    host.setAttribute("aria-label", names.join(", "));
  }
}

/** Keep tile names such as "6-6" on one line (text nodes only; code is left alone). */
function keepTilesWhole() {
  const walker = document.createTreeWalker(need("#main"), NodeFilter.SHOW_TEXT);
  /** @type {Text[]} */
  const nodes = [];
  while (walker.nextNode()) {
    const node = /** @type {Text} */ (walker.currentNode);
    if (/\d-\d/.test(node.data) && !node.parentElement?.closest("code, .tiles")) nodes.push(node);
  }
  for (const node of nodes) {
    const parts = node.data.split(/(\d-\d)/);
    node.replaceWith(
      ...parts.map((part) => (/^\d-\d$/.test(part) ? h("span", { class: "nowrap" }, part) : part)),
    );
  }
}

/** @param {string} hash */
function pageFor(hash) {
  const id = decodeURIComponent(hash.replace(/^#/, ""));
  if (!id) return { page: need("#inicio"), target: null };
  const target = document.getElementById(id);
  if (!target) return { page: need("#inicio"), target: null };
  const page = target.closest(".rules-page");
  return { page: page || need("#inicio"), target: page && target !== page ? target : null };
}

/** @param {boolean} scroll */
function show(scroll) {
  const { page, target } = pageFor(location.hash);
  for (const p of pages) p.hidden = p !== page;
  for (const a of links) {
    if (a.getAttribute("href") === `#${page.id}`) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const current = links.find((a) => a.getAttribute("href") === `#${page.id}`);
  if (current) current.scrollIntoView({ block: "nearest", inline: "center" });
  const title = page.querySelector("h2");
  document.title = page.id === "inicio" ? baseTitle : `${title?.textContent} · Regras · Carroça`;
  document.body.dataset.page = page.id;
  if (!scroll) return;
  if (target) target.scrollIntoView({ block: "start" });
  else window.scrollTo(0, 0);
}

function addFooters() {
  for (const page of pages) {
    if (page.id === "inicio") continue;
    page.append(
      h(
        "nav",
        { class: "page-links", "aria-label": "Mais regras" },
        h("a", { class: "btn btn-ghost btn-small", href: "#inicio" }, "← Todas as modalidades"),
        page.dataset.ruleset
          ? h("a", { class: "btn btn-ghost btn-small", href: "#glossario" }, "Glossário")
          : null,
      ),
    );
  }
}

drawExamples();
keepTilesWhole();
addFooters();
show(false);
window.addEventListener("hashchange", () => show(true));
