// @ts-check
// The end of the match: who won (their faces crowned, confetti for the winners), the final
// score, the play that decided it, the rating's change, the last hand face up, and where to go
// next (end-links.js) — or, for a match already over when the page opened, its final score.

import * as api from "../api.js";
import { avatarSVG } from "../avatar.js";
import { dec, fill, h, need, signed } from "../dom.js";
import * as W from "../words.js";
import { addFriends } from "./end-friends.js";
import { endLinks, privacyControl, renderPrivacy, renderRematchOffer } from "./end-links.js";
import { clearBanner } from "./notices.js";
import { showFatal } from "./overlay.js";
import { scoreBoard } from "./scores.js";
import { ctx, current, nameOf, sideOf } from "./state.js";
import { closeSummary, decisive, handPoints, revealedHands } from "./summary.js";
import { calledEarly, renderVerdict, tourneyFromApi } from "./tourney.js";

/** The end dialog, once, when the state says the match is over. */
export function renderEnd() {
  const st = current();
  const v = st.view;
  if (st.status !== "finished" || !v || !v.result || ctx.shownEnd) return;
  ctx.shownEnd = true;
  closeSummary();
  clearBanner();
  const n = st.players.length;
  const result = v.result;
  const labels = W.teamLabels(st);
  const mine = st.seat !== null ? W.teamOf(st.seat, n) : null;
  const won = mine !== null && result.winner === mine;
  let title;
  if (mine === null) title = `Vitória de ${labels[result.winner]}`;
  else if (won) title = n === 4 ? "Vocês venceram!" : "Você venceu!";
  else title = n === 4 ? "Vitória deles" : `Vitória de ${labels[result.winner]}`;
  // The winners are celebrated (for who won, or watched them win); with reduced motion the
  // celebration keeps still.
  const celebrate = won || mine === null;
  /** @type {(HTMLElement | null)[]} */
  const body = [
    celebrate ? celebration() : null,
    h("p", { class: "end-kicker" }, W.rulesetName(st.ruleset)),
    h("h2", { id: "end-title", class: won ? "win" : "", tabindex: -1, autofocus: true }, title),
    winners(result.winner),
    scoreBoard(result.score, { class: "end-score", "data-testid": "final-score" }),
  ];
  // The play that decided the match: the last hand's batida, closed game or abandonment.
  if (v.last_hand) body.push(decisive(v.last_hand, "p"));
  if (result.pneu) body.push(h("p", { class: "end-pneu" }, `Pneu! ${W.zeroText(labels[1 - result.winner])}.`));
  if (result.reason === "abandon" && v.last_hand?.end.kind !== "abandon") {
    body.push(h("p", { class: "muted" }, "A partida terminou por abandono."));
  }
  if (st.rating && st.rating.before !== null && st.rating.after !== null) {
    const change = st.rating.after - st.rating.before;
    body.push(
      h(
        "p",
        { class: "end-rating", "data-testid": "rating-change" },
        "Ranking: ",
        h("strong", {}, dec(st.rating.before)),
        " → ",
        h("strong", {}, dec(st.rating.after)),
        h("span", { class: change >= 0 ? "up" : "down" }, ` (${signed(change)})`),
      ),
    );
  } else if (st.mode !== "ranked") {
    body.push(h("p", { class: "muted" }, "Partida sem ranking: só as ranqueadas mudam a sua pontuação."));
  }
  if (v.last_hand) {
    body.push(
      h(
        "details",
        { class: "end-last" },
        h("summary", {}, "Última mão: as pedras e os pontos"),
        revealedHands(v.last_hand),
        handPoints(v.last_hand),
      ),
    );
  }
  body.push(h("div", { class: "rematch-offer", id: "rematch-offer", "aria-live": "polite", hidden: true }));
  if (st.mode === "friends") body.push(h("div", { id: "end-privacy" }));
  body.push(addFriends(st));
  body.push(endLinks());
  fill(need("#end-body"), ...body);
  renderRematchOffer();
  renderPrivacy();
  renderVerdict();
  const dialog = need("#end-dialog", HTMLDialogElement);
  // A moment for the last tile to land on the table, then the end.
  setTimeout(() => {
    if (dialog.open) return;
    dialog.showModal();
    if (won) ctx.sound?.play("vitoria");
  }, 900);
}

/**
 * The winning side: a face and a name for each winner ("Você" among them).
 * @param {number} team
 */
function winners(team) {
  const st = current();
  const n = st.players.length;
  const seats = n === 4 ? [team, team + 2] : [team];
  return h(
    "div",
    { class: `end-winners ${sideOf(team)}`, "data-testid": "end-winners" },
    h("span", { class: "sr-only" }, seats.length > 1 ? "Venceram: " : "Venceu: "),
    ...seats.map((seat) => {
      const face = seat === st.seat ? ctx.me?.name ?? "" : nameOf(seat);
      return h(
        "span",
        { class: "winner" },
        h(
          "span",
          { class: "winner-face", "aria-hidden": "true" },
          h("span", { class: "avatar" }, avatarSVG(face)),
          crownSVG(),
        ),
        h("span", { class: "winner-name" }, nameOf(seat)),
      );
    }),
  );
}

function crownSVG() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 16");
  svg.setAttribute("class", "winner-crown");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M2 14 L1 3 L7 8 L12 1 L17 8 L23 3 L22 14 Z");
  svg.append(path);
  return svg;
}

/** Confetti over the end dialog, falling for a few seconds; none with reduced motion (the
 * dialog keeps a still glow). */
function celebration() {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const colours = ["#f5bb45", "#4fe0b5", "#ff9a7a", "#ffd47a", "#f2f2f2", "#5a8dee"];
  const pieces = still
    ? []
    : Array.from({ length: 36 }, (_, i) => {
        const piece = h("i", { class: "confetti-piece" });
        piece.style.setProperty("--x", `${(i * 37) % 100}%`);
        piece.style.setProperty("--delay", `${((i * 13) % 12) / 10}s`);
        piece.style.setProperty("--turn", `${(i % 2 ? 1 : -1) * (180 + ((i * 47) % 360))}deg`);
        piece.style.setProperty("--colour", colours[i % colours.length]);
        return piece;
      });
  return h("div", { class: "celebration", "aria-hidden": "true", "data-testid": "celebration" }, ...pieces);
}

/** The table is not open here (it is over): the match's final score, from the API. */
export async function showFinishedFromApi() {
  calledEarly(); // no match in play here: a call to the player's next table takes them there
  /** @type {import("./end-links.js").MatchInfo} */
  let info;
  try {
    info = await api.match(ctx.matchId);
  } catch {
    showFatal("Partida não encontrada ou já encerrada.");
    return;
  }
  if (tourneyFromApi(info)) return; // an event's table closed by a no-show: its W.O.
  if (info.status !== "finished") {
    showFatal("Esta partida não está aberta neste servidor agora.");
    return;
  }
  need("#app").dataset.status = "finished";
  need("#app").dataset.ruleset = info.ruleset;
  const names = info.players.map((p, i) => displayName(p, i));
  const score = info.score || [0, 0];
  const labels = info.players.length === 4 ? [`${names[0]} e ${names[2]}`, `${names[1]} e ${names[3]}`] : names;
  fill(
    need("#end-body"),
    h("h2", { id: "end-title" }, "Partida encerrada"),
    h("p", { class: "end-sub" }, W.rulesetName(info.ruleset)),
    scoreBoard(score, { class: "end-score", "data-testid": "final-score" }, labels, 0),
    privacyControl(info),
    endLinks(),
  );
  need("#end-dialog", HTMLDialogElement).showModal();
}

/**
 * A seat's name as the match's page shows it (a bot by its seat).
 * @param {string | null} name
 * @param {number} seat
 * @returns {string}
 */
function displayName(name, seat) {
  const level = W.botLevelOf(name);
  return level ? W.seatName({ bot: true }, seat) : name || "Lugar vago";
}
