// @ts-check
// The operator's message for everyone (the "announcement" frame, `carroca admin announce`): a
// banner under the site's header, read once by screen readers (role "status"), which a player
// may close (closed for the rest of the visit: it does not come back on every page).

import { h } from "./dom.js";

const CLOSED_KEY = "carroca.announcement.closed";

/** @param {import("./frames.js").Frames["announcement"]} data */
export function showAnnouncement(data) {
  let box = document.getElementById("announcement");
  if (!data.text || data.id === null) {
    box?.remove();
    return;
  }
  const id = String(data.id);
  if (box?.dataset.id === id) return;
  box?.remove();
  let closed = null;
  try {
    closed = sessionStorage.getItem(CLOSED_KEY);
  } catch {
    // storage refused (a private window): the banner shows on every page, nothing worse
  }
  if (closed === id) return;
  const close = h("button", { type: "button", class: "announcement-close", "aria-label": "Fechar o aviso" }, "×");
  box = h("div", { id: "announcement", class: "announcement", role: "status", "data-id": id },
    h("strong", {}, "Aviso: "), h("span", { class: "announcement-text" }, data.text), close);
  close.addEventListener("click", () => {
    try {
      sessionStorage.setItem(CLOSED_KEY, id);
    } catch {
      // as above
    }
    document.getElementById("announcement")?.remove();
  });
  const header = document.querySelector(".site-header");
  if (header) header.after(box);
  else document.body.prepend(box);
}
