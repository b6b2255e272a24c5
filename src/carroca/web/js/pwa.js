// @ts-check
// Registers the service worker (/sw.js): the rules, the tutorial and the lobby's shell then work
// offline, and the site can be installed on a phone's home screen (see manifest.webmanifest).
// Registration waits for the page to load, so that it never competes with the page itself.

function register() {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    /* no service worker (private mode, an old browser): the site works online as before */
  });
}

if ("serviceWorker" in navigator && window.isSecureContext) {
  if (document.readyState === "complete") register();
  else addEventListener("load", register, { once: true });
}
