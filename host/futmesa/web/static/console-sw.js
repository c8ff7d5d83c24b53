// futmesa referee console service worker: the console opens without the network.
// The console's pages and files are fetched from the host when it answers (so a new version
// arrives at once) and kept; with no network they come from the kept copy, and the console
// shows the inputs waiting in its outbox ("aguardando conexão"). The API is never kept.
"use strict";

const CACHE = "futmesa-console-v2";
const SHELL = [
  "/console", "/console/expert", "/console/keeper",
  "/static/console.css", "/static/referee.js", "/static/common.js",
  // the console's modules (static/console/: one job each, main.js starts the page)
  "/static/console/main.js", "/static/console/page.js", "/static/console/keypad.js",
  "/static/console/link.js", "/static/console/actions.js", "/static/console/ruleinputs.js",
  "/static/console/questions.js", "/static/console/log.js", "/static/console/corrections.js",
  "/static/console/review.js", "/static/console/playstop.js", "/static/console/calibrate.js",
  "/static/console/keeperpass.js",
  "/i18n/words.js",
  "/static/console.webmanifest", "/static/console-icon.svg", "/static/console-icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  const kept = url.pathname.startsWith("/console") || SHELL.includes(url.pathname);
  if (!kept || url.pathname === "/console/recover") return; // /api, /ws, the kiosk: to the host
  event.respondWith((async () => {
    try {
      const fresh = await fetch(event.request);
      if (fresh.ok) {
        const cache = await caches.open(CACHE);
        // one copy per page: /console?table=X and /console?token=… share /console's
        await cache.put(url.pathname, fresh.clone());
      }
      return fresh;
    } catch (e) {
      const old = await caches.match(url.pathname);
      if (old) return old;
      throw e;
    }
  })());
});
