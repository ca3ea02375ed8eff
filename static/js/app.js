// Washboard's own script. Pages work without it (every link and form is
// plain HTML); it adds the CSRF header to htmx requests, keeps relative
// times current, and shows the error of a failed htmx request in place.
// No framework, no inline script: the Content-Security-Policy allows
// scripts from /static only.
(function () {
  "use strict";

  // (a) Every htmx request carries the CSRF token of the page.
  document.addEventListener("htmx:configRequest", function (event) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta && meta.content) {
      event.detail.headers["X-CSRF-Token"] = meta.content;
    }
  });

  // (b) Relative times. <time data-relative datetime="..." data-now="...">
  // holds a time the server rendered as "5 min ago" at data-now, by its own
  // clock. The text is recomputed from that clock plus the time elapsed
  // since the element arrived, so a browser whose clock is off still reads
  // the same as the server.
  var arrived = new WeakMap();

  // The words come from the page (<meta name="relative-words">, the
  // catalogs' messages in the page's language), with their plural forms
  // chosen by the language's rules, as the server says them (views.Ago).
  var words = null;
  function relativeWords() {
    if (words) return words;
    var meta = document.querySelector('meta[name="relative-words"]');
    try {
      words = JSON.parse((meta && meta.content) || "{}");
    } catch (e) {
      words = {};
    }
    return words;
  }

  function count(forms, n, lang) {
    if (!forms) return null;
    var form = "other";
    try {
      form = new Intl.PluralRules(lang).select(n);
    } catch (e) { /* an unknown language: "other" */ }
    var text = forms[form] || forms.other || "";
    return text.replace("{count}", n.toLocaleString(lang));
  }

  function ago(ms) {
    var w = relativeWords();
    var minutes = Math.floor(ms / 60000);
    if (minutes < 1) return w.now || null;
    if (minutes < 60) return count(w.min, minutes, w.lang);
    var hours = Math.floor(minutes / 60);
    if (hours < 24) return count(w.h, hours, w.lang);
    return count(w.day, Math.floor(hours / 24), w.lang);
  }

  function updateRelativeTimes() {
    var now = Date.now();
    document.querySelectorAll("time[data-relative]").forEach(function (el) {
      var at = Date.parse(el.getAttribute("datetime"));
      if (isNaN(at)) return;
      if (!arrived.has(el)) arrived.set(el, now);
      var serverNow = Date.parse(el.getAttribute("data-now") || "");
      var current = isNaN(serverNow) ? now : serverNow + (now - arrived.get(el));
      var text = ago(current - at);
      if (text && el.textContent !== text) el.textContent = text;
    });
  }

  document.addEventListener("DOMContentLoaded", updateRelativeTimes);
  document.addEventListener("htmx:afterSettle", updateRelativeTimes);
  window.setInterval(updateRelativeTimes, 30000);

  // (c) A failed htmx request (a live refresh, a poll) must not replace the
  // content it was refreshing: its error fragment goes to the #htmx-error
  // slot of the layout instead, and the next successful request clears it.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var slot = document.getElementById("htmx-error");
    if (!slot) return;
    if (event.detail.xhr.status >= 400) {
      event.detail.shouldSwap = true;
      event.detail.target = slot;
      event.detail.swapOverride = "innerHTML";
      event.detail.selectOverride = "unset"; // the whole fragment, not the hx-select of a live region
    } else if (slot.firstChild) {
      slot.replaceChildren();
    }
  });

  // (d) A page left for another closes its event stream at once. Browsers
  // allow only six connections to a server over HTTP/1.1; a stream kept
  // open by a page in the back-forward cache would hold one of them. A page
  // brought back from that cache reloads, to reopen its stream and show
  // current data.
  window.addEventListener("pagehide", function () {
    document.querySelectorAll("[sse-connect]").forEach(function (el) {
      var data = el["htmx-internal-data"];
      if (data && data.sseEventSource) data.sseEventSource.close();
    });
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });

  // (e) Printing. A [data-print] button prints the page. A report's
  // data-running line (its period and print time) goes into the page
  // margin of every printed page through the --running custom property,
  // which the print stylesheet's @page rules show; the CSP forbids setting
  // it in an inline style.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) window.print();
  });
  function running() {
    var el = document.querySelector("[data-running]");
    if (!el) return;
    var quoted = function (s) { return '"' + s.replace(/[\\"]/g, "\\$&").replace(/[\r\n]+/g, " ") + '"'; };
    var style = document.documentElement.style;
    style.setProperty("--running", quoted(el.getAttribute("data-running")));
    // The words of the page numbers, in the page's language: "Seite 2 von 5".
    if (el.hasAttribute("data-page")) style.setProperty("--page", quoted(el.getAttribute("data-page") + " "));
    if (el.hasAttribute("data-page-of")) style.setProperty("--page-of", quoted(" " + el.getAttribute("data-page-of") + " "));
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", running);
  } else {
    running();
  }
  // The numbers behind a [data-print-open] disclosure are printed: it is
  // opened for printing, and closed again after if it was closed.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details[data-print-open]:not([open])").forEach(function (d) {
      d.setAttribute("data-opened-for-print", "");
      d.open = true;
    });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("details[data-opened-for-print]").forEach(function (d) {
      d.removeAttribute("data-opened-for-print");
      d.open = false;
    });
  });
})();
