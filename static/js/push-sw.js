// The push worker: shows each push Washboard sends (what and where in one
// line), opens the location's page when it is tapped, and the alert's
// "I'm on it" page from the action of that name. A push sent again
// carries the same tag and replaces the one shown. It is registered from
// the person's page (push.js) with the scope of its folder, which is all
// pushes need; the app's own worker (/sw.js, scope /) is to take this
// part over.
"use strict";

self.addEventListener("push", function (event) {
  var m = {};
  try {
    m = event.data ? event.data.json() : {};
  } catch (e) {
    m = { body: event.data ? event.data.text() : "" };
  }
  var options = { body: m.body || "", tag: m.tag || undefined, data: { url: m.url || "/", claim: m.claim || "" } };
  // The action's name comes with the push, in its person's language.
  if (m.claim && m.claim_title) options.actions = [{ action: "claim", title: m.claim_title }];
  event.waitUntil(self.registration.showNotification(m.title || "Washboard", options));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var data = event.notification.data || {};
  var target = new URL(event.action === "claim" && data.claim ? data.claim : data.url || "/", self.location.origin);
  if (target.origin !== self.location.origin) target = new URL("/", self.location.origin); // only this dashboard's pages
  event.waitUntil(self.clients.openWindow(target.href));
});
