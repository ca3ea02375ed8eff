// "My work" (/my) on a phone without signal. It registers the service
// worker (/sw.js), which keeps this page for when there is no signal;
// says how old the list is when it comes from that copy; keeps "I'm on
// it" and "Done" taken without signal on the phone (queue.js), each with
// a key of its own, lists them as waiting, and sends them when the signal
// returns; and lists the ones the server refused, with its reason, until
// the person has read them. Its words are the page's (#my-words). Without
// this script the forms post as plain HTML.
(function () {
  "use strict";

  var words = {};
  var queue = window.WashboardQueue;

  function fill(text, name, value) {
    return String(text).split("{" + name + "}").join(value);
  }

  // describe is an action in words: "I'm on it: Stall 2 (Product out)".
  function describe(a) {
    return a.kind === "done" ? fill(fill(words.done, "outcome", a.outcomeLabel || ""), "what", a.what) : fill(words.claim, "what", a.what);
  }

  function el(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  // show lists what waits and what was refused.
  function show() {
    var box = document.getElementById("my-pending");
    if (!box || !queue) return Promise.resolve();
    return queue.all().then(function (list) {
      var waiting = list.filter(function (a) { return a.state === "waiting"; });
      var refused = list.filter(function (a) { return a.state === "refused"; });
      box.textContent = "";
      if (waiting.length) {
        box.appendChild(el("h2", fill(words.waiting, "count", String(waiting.length))));
        var ul = el("ul");
        waiting.forEach(function (a) { ul.appendChild(el("li", describe(a))); });
        box.appendChild(ul);
      }
      if (refused.length) {
        box.appendChild(el("h2", words.refusedHeading));
        var rl = el("ul", undefined, { "class": "my-refused" });
        refused.forEach(function (a) {
          var li = el("li", undefined, { "class": "message message-error" });
          li.appendChild(el("p", describe(a)));
          li.appendChild(el("p", fill(words.notSent, "reason", a.refusal)));
          var ok = el("button", words.dismiss, { type: "button" });
          ok.addEventListener("click", function () { queue.remove(a.key).then(show); });
          li.appendChild(ok);
          rl.appendChild(li);
        });
        box.appendChild(rl);
      }
    });
  }

  // keep keeps the action of a form taken without signal.
  function keep(form, submitter) {
    var item = form.closest(".work-item");
    var what = item ? [item.querySelector(".work-what"), item.querySelector(".work-where")].filter(Boolean).map(function (e) { return e.textContent.trim(); }).join(", ") : "";
    var done = form.classList.contains("work-done-form");
    var action = {
      path: form.getAttribute("action"), what: what, at: Date.now(),
      csrf: form.elements.csrf_token ? form.elements.csrf_token.value : "",
      words: { expired: words.expired }
    };
    if (done) {
      action.kind = "done";
      action.outcome = submitter ? submitter.value : "";
      action.outcomeLabel = submitter ? submitter.textContent.trim() : "";
      action.reason = form.elements.reason ? form.elements.reason.value : "";
    } else {
      action.seen = form.getAttribute("data-seen") || "0";
    }
    return queue.add(action).then(function () {
      if (item) item.classList.add("work-waiting");
      return show();
    }).then(later);
  }

  // later asks the worker to send what waits when the signal returns.
  function later() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.sync) return reg.sync.register("washboard-actions");
    }).catch(function () {});
  }

  // send sends what waits: through the worker when one runs the page, so
  // that one sender sends each action (it answers with a message, below),
  // else from here; when something went, the page is drawn again from the
  // server, as it is now.
  function send() {
    if (!queue || !navigator.onLine) return;
    var worker = "serviceWorker" in navigator && navigator.serviceWorker.controller;
    if (worker) {
      worker.postMessage("send-waiting");
      return;
    }
    queue.flush().then(sent);
  }

  function sent(counts) {
    if (counts.sent && !counts.waiting && navigator.onLine) window.location.reload();
    else show();
  }

  var lastSubmitter = new WeakMap();

  function start() {
    var data = document.getElementById("my-words");
    if (data) words = JSON.parse(data.textContent);
    if ("serviceWorker" in navigator) {
      // After the page has loaded: installing fetches the app shell, which
      // must not compete with the page's own first load.
      var register = function () { navigator.serviceWorker.register("/sw.js").catch(function () {}); };
      if (document.readyState === "complete") register();
      else window.addEventListener("load", register);
      navigator.serviceWorker.addEventListener("message", function (event) {
        if (event.data && event.data.sent) sent(event.data.sent);
      });
    }
    var notice = document.getElementById("my-offline");
    if (notice && document.body.hasAttribute("data-offline-copy")) {
      notice.textContent = notice.getAttribute("data-words");
    }
    if (!queue) return;
    var list = document.querySelector(".my-work");
    if (!list) return;
    list.addEventListener("click", function (event) {
      var b = event.target.closest("button[type=submit]");
      if (b && b.form) lastSubmitter.set(b.form, b);
    }, true);
    // Without signal, a form is kept rather than sent (before htmx sees it).
    document.addEventListener("submit", function (event) {
      var form = event.target;
      if (navigator.onLine || !form.closest(".work-item")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      keep(form, event.submitter || lastSubmitter.get(form));
    }, true);
    // With signal that fails on the way, htmx gets no answer: kept too.
    document.addEventListener("htmx:sendError", function (event) {
      var form = event.detail.elt;
      if (form && form.tagName === "FORM" && form.closest(".work-item")) keep(form, lastSubmitter.get(form));
    });
    window.addEventListener("online", send);
    // What waits is read once the page has loaded: the list comes first.
    var afterLoad = function () { show().then(send); };
    if (document.readyState === "complete") afterLoad();
    else window.addEventListener("load", afterLoad);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
