// Washboard's service worker, served at /sw.js with the scope / (the
// server fills in VERSION and SHELL). It
//   - keeps the app shell (stylesheet, scripts, icons, the offline page)
//     in a cache named after the release, so that a new release replaces it;
//   - answers "My work" (/my) from the network, keeping the last copy,
//     and from that copy when there is no signal, marked so that the page
//     says how old it is; other pages without signal get the offline page;
//   - sends the actions kept while offline (queue.js) when the signal
//     returns (Background Sync where the browser has it, and whenever a
//     page asks);
//   - shows Washboard's pushes, opens the location when one is tapped, and
//     says "I'm on it" from the push's action button, with the push's own
//     single-use action token, kept for later when there is no signal.
// Nothing is fetched from anywhere but this server.
"use strict";

var VERSION = "{{VERSION}}";
var SHELL = ["{{SHELL}}"];
importScripts("{{QUEUE}}");

var SHELL_CACHE = "washboard-shell-" + VERSION;
var PAGE_CACHE = "washboard-pages";
var OFFLINE = "/offline";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL_CACHE).then(function (cache) {
    return cache.addAll(SHELL.concat([OFFLINE]));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) {
      return n.indexOf("washboard-shell-") === 0 && n !== SHELL_CACHE;
    }).map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

// fromCopy is the kept copy of "My work", marked as a copy: its page
// script then says "Offline: this list is from …".
function fromCopy(res) {
  return res.text().then(function (html) {
    // The kept headers that still hold for the page as it is now: not
    // how it was sent (its encoding, length, chunks).
    var headers = new Headers();
    ["Content-Type", "Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options",
      "Cross-Origin-Opener-Policy", "Permissions-Policy"].forEach(function (name) {
      if (res.headers.has(name)) headers.set(name, res.headers.get(name));
    });
    return new Response(html.replace("<body", "<body data-offline-copy"), { status: 200, headers: headers });
  });
}

function myWork(request) {
  return fetch(request).then(function (res) {
    if (res.ok && res.type === "basic") {
      var copy = res.clone();
      caches.open(PAGE_CACHE).then(function (cache) { return cache.put("/my", copy); });
    }
    return res;
  }, function () {
    return caches.open(PAGE_CACHE).then(function (cache) { return cache.match("/my"); }).then(function (kept) {
      return kept ? fromCopy(kept) : caches.match(OFFLINE);
    });
  });
}

self.addEventListener("fetch", function (event) {
  var req = event.request;
  var url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.method === "POST" && url.pathname === "/signout") {
    // The list is the person's: it goes with their session.
    event.waitUntil(caches.delete(PAGE_CACHE));
    return;
  }
  if (req.method !== "GET") return;
  if (req.mode === "navigate" && url.pathname === "/my") {
    event.respondWith(myWork(req));
  } else if (req.mode === "navigate") {
    event.respondWith(fetch(req).catch(function () { return caches.match(OFFLINE); }));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(caches.match(req).then(function (hit) { return hit || fetch(req); }));
  }
});

self.addEventListener("sync", function (event) {
  if (event.tag === "washboard-actions") event.waitUntil(sendWaiting());
});

self.addEventListener("message", function (event) {
  if (event.data === "send-waiting") event.waitUntil(sendWaiting());
});

// sendWaiting sends what waits, and tells the open pages how it went.
function sendWaiting() {
  return self.WashboardQueue.flush().then(function (counts) {
    return self.clients.matchAll({ type: "window" }).then(function (pages) {
      pages.forEach(function (p) { p.postMessage({ sent: counts }); });
      if (counts.waiting && self.registration.sync) return self.registration.sync.register("washboard-actions").catch(function () {});
    });
  });
}

self.addEventListener("push", function (event) {
  var m = {};
  try {
    m = event.data ? event.data.json() : {};
  } catch (e) {
    m = { body: event.data ? event.data.text() : "" };
  }
  var options = { body: m.body || "", tag: m.tag || undefined, data: m };
  if (m.action && m.action.token) options.actions = [{ action: "claim", title: m.action.title }];
  event.waitUntil(self.registration.showNotification(m.title || "Washboard", options));
});

// claim says "I'm on it" for the push's alert, or keeps it to send when
// the signal returns; a refusal is shown as a notification of its own.
function claim(m) {
  var a = m.action;
  var action = { key: a.key, path: a.path, kind: "claim", token: a.token, what: m.body, at: Date.now(), words: { notSent: a.notSent } };
  return self.WashboardQueue.add(action).then(function () {
    return self.WashboardQueue.flush();
  }).then(function (counts) {
    if (counts.waiting && self.registration.sync) return self.registration.sync.register("washboard-actions").catch(function () {});
    if (!counts.refused) return;
    return self.WashboardQueue.all().then(function (list) {
      var mine = list.filter(function (x) { return x.key === action.key; })[0];
      if (mine) return self.registration.showNotification(m.title || "Washboard", { body: a.notSent.replace("{reason}", mine.refusal), tag: (m.tag || "") + "-refused", data: { url: m.url } });
    });
  });
}

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var m = event.notification.data || {};
  if (event.action === "claim" && m.action) {
    event.waitUntil(claim(m));
    return;
  }
  var target = new URL(m.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin); // only this dashboard's pages
  event.waitUntil(self.clients.openWindow(target.href));
});
