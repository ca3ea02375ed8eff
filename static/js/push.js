// Subscribes this browser to pushes, from the person's page (/me): asks
// for permission to notify, registers Washboard's service worker (/sw.js,
// which shows the pushes), subscribes with the server's key, and posts
// the subscription in the page's form. Its words are the form's
// (data-words-*), in the page's language. Without this script, or in a
// browser without pushes, the form stays hidden and the page says what
// pushes need.
(function () {
  "use strict";

  function supported() {
    return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  }

  function fromB64url(s) {
    var b64 = s.replace(/-/g, "+").replace(/_/g, "/");
    while (b64.length % 4) b64 += "=";
    var raw = atob(b64);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }

  // deviceName guesses a name for the device: "Firefox on Android".
  function deviceName(words) {
    var ua = navigator.userAgent;
    var browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : words("browser");
    var system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS/.test(ua) ? "macOS" : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
    return system ? words("device").replace("{browser}", browser).replace("{system}", system) : browser;
  }

  // active waits for the registration's worker to be active: only an
  // active worker's registration subscribes.
  function active(reg, failed) {
    if (reg.active) return Promise.resolve(reg);
    var worker = reg.installing || reg.waiting;
    return new Promise(function (resolve, reject) {
      worker.addEventListener("statechange", function () {
        if (worker.state === "activated") resolve(reg);
        if (worker.state === "redundant") reject(new Error(failed));
      });
    });
  }

  function run(form) {
    var status = form.querySelector("[data-push-status]");
    var button = form.querySelector("button[type=submit]");
    var name = form.querySelector("input[name=device]");
    function words(what) {
      return form.getAttribute("data-words-" + what) || "";
    }
    if (!name.value) name.value = deviceName(words);
    function say(words, failed) {
      status.textContent = words;
      status.classList.toggle("field-error", !!failed);
    }
    form.addEventListener("submit", function (event) {
      if (form.elements.endpoint.value) return; // subscribed: the form posts it
      event.preventDefault();
      button.disabled = true;
      say(words("asking"), false);
      Notification.requestPermission()
        .then(function (permission) {
          if (permission !== "granted") {
            throw new Error(words("denied"));
          }
          return navigator.serviceWorker.register(form.getAttribute("data-worker")).then(function (reg) {
            return active(reg, words("worker"));
          });
        })
        .then(function (reg) {
          return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromB64url(form.getAttribute("data-key")) });
        })
        .then(function (sub) {
          var json = sub.toJSON();
          form.elements.endpoint.value = json.endpoint;
          form.elements.p256dh.value = (json.keys && json.keys.p256dh) || "";
          form.elements.auth.value = (json.keys && json.keys.auth) || "";
          say(words("saving"), false);
          form.submit();
        })
        .catch(function (err) {
          say((err && err.message) || words("refused"), true);
          button.disabled = false;
        });
    });
  }

  function start() {
    if (!supported()) return;
    document.querySelectorAll("[data-push-unsupported]").forEach(function (el) {
      el.hidden = true;
    });
    document.querySelectorAll("form[data-push-offer]").forEach(function (form) {
      form.hidden = false;
      run(form);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
