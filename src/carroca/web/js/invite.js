// @ts-check
// An invitation to send: the link in a field, "Copiar", WhatsApp and (where the phone offers it)
// "Compartilhar", and a line that says the copy worked. The friends' table's waiting room, a
// private event's invitation and a dupla's partner invitation all send theirs with it.

import { copyText, h } from "./dom.js";

/** How long "Convite copiado!" stays under the buttons. */
export const SAID_MS = 4000;

/**
 * The invitation's field and buttons, then the line that says the copy worked (said there, by
 * the buttons themselves: no notice left over whatever the page shows next).
 * @param {{link: string, message: string, title: string, label?: string, id?: string}} invite
 *   `message` goes before the link on WhatsApp; `title` names the phone's share sheet; `id`
 *   prefixes the ids of the field and of the copy's line (several invitations on one page)
 * @returns {HTMLElement[]}
 */
export function inviteBox({ link, message, title, label = "Link do convite", id = "invite" }) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const said = h("p", { class: "invite-copied", id: `${id}-copied`, role: "status", "data-testid": `${id === "invite" ? "" : `${id}-`}copied` });
  const box = h(
    "div",
    { class: "invite" },
    h("input", {
      readonly: true,
      value: link,
      id: `${id}-link`,
      "aria-label": label,
      "data-testid": `${id}-link`,
      onfocus: (/** @type {FocusEvent} */ ev) => /** @type {HTMLInputElement} */ (ev.target).select(),
    }),
    h(
      "button",
      {
        class: "btn btn-primary",
        type: "button",
        onclick: async () => {
          said.textContent = (await copyText(link)) ? "Convite copiado!" : "Copie o link do campo.";
          clearTimeout(timer);
          timer = setTimeout(() => {
            if (said.isConnected) said.textContent = "";
          }, SAID_MS);
        },
      },
      "Copiar",
    ),
    h(
      "a",
      {
        class: "btn btn-secondary",
        href: `https://wa.me/?text=${encodeURIComponent(`${message} ${link}`)}`,
        target: "_blank",
        rel: "noopener",
      },
      "WhatsApp",
    ),
    navigator.share
      ? h(
          "button",
          {
            class: "btn btn-secondary",
            type: "button",
            onclick: () => navigator.share({ title, url: link }).catch(() => {}),
          },
          "Compartilhar",
        )
      : null,
  );
  return [box, said];
}
