// The actions a phone keeps while it has no signal ("I'm on it", "Done"),
// in IndexedDB, and their sending: loaded by "My work" (mywork.js) and by
// the service worker (/sw.js), which both send what is waiting. Each
// action carries the idempotency key made on the phone when the person
// acted: sent twice (by the page and the worker at once, or again after
// an answer lost on the way), it is done once. An action the server
// refuses is kept with the server's reason until the person has read it;
// one that gets no answer (no signal, a server error) waits for the next
// try. See docs/my-work.md.
(function (scope) {
  "use strict";

  var DB = "washboard", STORE = "actions";

  function open() {
    return new Promise(function (resolve, reject) {
      var req = indexedDB.open(DB, 1);
      req.onupgradeneeded = function () {
        req.result.createObjectStore(STORE, { keyPath: "key" });
      };
      req.onsuccess = function () { resolve(req.result); };
      req.onerror = function () { reject(req.error); };
    });
  }

  // run runs fn on the store in one transaction, and resolves with what
  // its last request gave.
  function run(mode, fn) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var t = db.transaction(STORE, mode);
        var req = fn(t.objectStore(STORE));
        t.oncomplete = function () { db.close(); resolve(req && req.result); };
        t.onerror = t.onabort = function () { db.close(); reject(t.error); };
      });
    });
  }

  // newKey is an idempotency key of the action's own, made on the phone.
  function newKey() {
    var b = new Uint8Array(16);
    scope.crypto.getRandomValues(b);
    return "phone-" + Array.prototype.map.call(b, function (x) { return ("0" + x.toString(16)).slice(-2); }).join("");
  }

  // The fields of an action: key, path (where its form posts), kind
  // ("claim" or "done"), outcome and reason (of "done"), seen (the claim
  // the page showed, of "claim"), csrf (the page's form token) or token
  // (a push's action token), what (the item in words), at (when the
  // person acted, ms), words ({notSent} as the page said it), state
  // ("waiting" or "refused"), reason of a refusal.
  function add(action) {
    action.key = action.key || newKey();
    action.state = "waiting";
    return run("readwrite", function (s) { return s.put(action); });
  }

  function all() {
    return run("readonly", function (s) { return s.getAll(); }).then(function (list) {
      return (list || []).sort(function (a, b) { return a.at - b.at; });
    });
  }

  function remove(key) {
    return run("readwrite", function (s) { return s.delete(key); });
  }

  function refuse(action, reason) {
    action.state = "refused";
    action.refusal = reason;
    return run("readwrite", function (s) { return s.put(action); });
  }

  // send posts one action: "sent", "refused" (kept with the reason) or
  // "waiting" (no answer, or the server could not take it now).
  function send(action) {
    var body = new URLSearchParams();
    body.set("key", action.key);
    if (action.outcome) body.set("outcome", action.outcome);
    if (action.reason) body.set("reason", action.reason);
    if (action.seen) body.set("seen", action.seen);
    var headers = { Accept: "application/json", "Content-Type": "application/x-www-form-urlencoded" };
    if (action.token) headers["Washboard-Push-Action"] = action.token;
    else headers["X-CSRF-Token"] = action.csrf || "";
    return fetch(action.path, { method: "POST", credentials: "same-origin", redirect: "manual", headers: headers, body: body.toString() })
      .then(function (res) {
        if (res.ok) return remove(action.key).then(function () { return "sent"; });
        if (res.status >= 500 || res.status === 429 || res.status === 408) return "waiting";
        return res.json().catch(function () { return {}; }).then(function (answer) {
          var why = answer.error || (action.words && action.words.expired) || String(res.status);
          return refuse(action, why).then(function () { return "refused"; });
        });
      }, function () { return "waiting"; });
  }

  var flushing = null;

  // flush sends every waiting action in the order they were taken, and
  // stops at the first that gets no answer: the signal is gone again.
  // It resolves with the count of each outcome.
  function flush() {
    if (flushing) return flushing;
    var counts = { sent: 0, refused: 0, waiting: 0 };
    flushing = all().then(function (list) {
      var waiting = list.filter(function (a) { return a.state === "waiting"; });
      var i = 0;
      function next() {
        if (i >= waiting.length) return counts;
        return send(waiting[i++]).then(function (outcome) {
          counts[outcome]++;
          if (outcome === "waiting") {
            counts.waiting += waiting.length - i;
            return counts;
          }
          return next();
        });
      }
      return next();
    }).finally(function () { flushing = null; });
    return flushing;
  }

  scope.WashboardQueue = { add: add, all: all, remove: remove, flush: flush };
})(self);
