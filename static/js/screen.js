// Washboard's wall screen script. The screen is a TV in kiosk mode that
// runs for weeks with nobody at the keyboard, so this script keeps a fixed
// set of state: one timer (a one-second tick that drives everything), event
// listeners attached once, no growing arrays, and element references looked
// up again when needed instead of kept across swaps.
//
//   (a) the clock in the header, in the browser's local time (the TV is in
//       the building), by the server's clock when that is not the real one
//       (the demo's);
//   (b) paging: what needs action is listed; what only needs attention is
//       listed too when everything fits, and otherwise summed up as a line
//       per room; what still does not fit is shown one page at a time,
//       every screen-page-seconds, with "2 / 3" in #screen-pages, the
//       items that need action staying on every page when they fit on
//       one; other pages' units are hidden with .screen-off, never removed;
//       the box shows once it has been fitted (.screen-fitted), before it
//       is painted, so that nothing on it moves after it shows;
//   (c) night dimming: .dimmed on <html> between dim-from and dim-to;
//   (d) burn-in: every ten minutes the root container moves by 0 to 4 px
//       (--shift-x, --shift-y; the stylesheet makes the move slow);
//       a screen that opens takes its first place and, at night, its
//       dimming at once (.screen-still on <html> while it does), so that
//       nothing fades or slides as it opens;
//   (e) connection health: the server sends a "heartbeat" event every 15 s,
//       with data {"version", "asOf", "stale", "rejected", "stopped"}, and
//       "changed" when the data changed (htmx refreshes #screen-live on it).
//       Without a heartbeat for 35 s, or 5 s after a stream error without
//       a heartbeat since, #screen-banner says "Connection lost since 14:02
//       — showing data as of 13:58" (in the screen's language: the page
//       renders its words into #screen-words): a server that restarts (one replica
//       of several going away in a rolling restart) closes the stream, and
//       a reconnection to another that quick shows no banner at all. The
//       SSE extension reconnects by itself; this script reconnects only a
//       stream nobody else will (open but silent, stuck connecting, or
//       closed for longer than the extension's longest retry), with
//       exponential backoff up to 60 s. The first heartbeat after a loss
//       clears the banner and refreshes #screen-live once, without a reload;
//   (f) a heartbeat with another version than the page's reloads the page,
//       once per version (sessionStorage), after checking that the server
//       answers;
//   (g) an "unlinked" event, or a heartbeat with "stopped" (the title and
//       message of why the screen shows no more data: unlinked, or in need
//       of a new link), closes the stream and replaces the content with
//       that message.
//
// No framework, no inline script: the Content-Security-Policy allows
// scripts from /static only. The CSP allows changing styles through the
// CSSOM, which the burn-in shift uses.
(function () {
  "use strict";

  var HEARTBEAT_TIMEOUT = 35000; // two heartbeat periods and a little
  var RECONNECT_GRACE = 5000; // a stream error shows after this long without a heartbeat
  var CONNECTING_LIMIT = 60000; // a stream connecting for longer is stuck
  var CLOSED_GRACE = 70000; // the SSE extension retries a closed stream within 64 s
  var BACKOFF_FIRST = 5000;
  var BACKOFF_MAX = 60000;
  var SHIFT_EVERY = 600; // seconds
  var SHIFT_MAX = 4; // px
  var RELATIVE_EVERY = 30; // seconds
  var RELOAD_KEY = "washboard-screen-reloaded-for";

  // ---------- Helpers ----------

  function meta(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    return el ? el.getAttribute("content") || "" : "";
  }

  function live() {
    return document.getElementById("screen-live");
  }

  // setting reads a setting from #screen-live (the server renders the
  // current ones with every refresh), or from the page's meta element.
  function setting(attr, metaName) {
    var el = live();
    if (el && el.hasAttribute(attr)) return el.getAttribute(attr) || "";
    return meta(metaName);
  }

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function hhmm(date) {
    return pad(date.getHours()) + ":" + pad(date.getMinutes());
  }

  // minutesOf reads "22:00" as minutes after midnight, -1 when empty or
  // malformed.
  function minutesOf(s) {
    var m = /^(\d{1,2}):(\d{2})/.exec(s || "");
    if (!m) return -1;
    var h = +m[1];
    var min = +m[2];
    if (h > 23 || min > 59) return -1;
    return h * 60 + min;
  }

  // words are the page's words in the screen's language, rendered from
  // the catalogs into <script id="screen-words" type="application/json">:
  // templates whose {placeholders} this script fills.
  var words = (function () {
    var el = document.getElementById("screen-words");
    try {
      return (el && JSON.parse(el.textContent)) || {};
    } catch (err) {
      return {};
    }
  })();

  function say(key, values) {
    var text = typeof words[key] === "string" ? words[key] : "";
    for (var name in values) {
      if (Object.prototype.hasOwnProperty.call(values, name)) text = text.split("{" + name + "}").join(String(values[name]));
    }
    return text;
  }

  function seconds(s) {
    var t = Date.parse(s || "");
    return isNaN(t) ? NaN : Math.floor(t / 1000);
  }

  // ---------- (a) Clock and relative times ----------

  // The screen keeps the server's time when the server's clock is not the
  // real one (the demo's runs an hour a minute, and its data with it): the
  // meta element screen-clock holds the server's time when the page was
  // made, every heartbeat's "now" sets it again, and screen-clock-speed
  // says how fast it runs. Otherwise the TV's own clock shows.
  var clockBase = NaN;
  var clockAt = 0;
  var clockSpeed = 1;

  function initClock() {
    var base = Date.parse(meta("screen-clock"));
    if (isNaN(base)) return;
    clockBase = base;
    clockAt = Date.now();
    var speed = parseFloat(meta("screen-clock-speed"));
    clockSpeed = speed > 0 ? speed : 1;
  }

  function setClock(iso) {
    var t = Date.parse(iso || "");
    if (isNaN(t) || isNaN(clockBase)) return;
    clockBase = t;
    clockAt = Date.now();
  }

  // screenTime is the screen's time at a moment of the TV's clock.
  function screenTime(real) {
    return isNaN(clockBase) ? real : clockBase + (real - clockAt) * clockSpeed;
  }

  function screenDate() {
    return new Date(screenTime(Date.now()));
  }

  function updateClock(now) {
    var el = document.getElementById("screen-clock");
    if (!el) return;
    var text = hhmm(now);
    if (el.textContent !== text) {
      el.textContent = text;
      el.setAttribute("datetime", now.toISOString());
    }
  }

  // <time data-relative datetime="..." data-now="..."> holds a time the
  // server rendered as "5 min ago" at data-now, by its own clock (with
  // data-relative="since", "since 5 min ago"): the text follows that
  // clock plus the time elapsed since the element arrived, in the words
  // of the server's (screenAgo in views/screen_words.go).
  var arrived = new WeakMap();

  function ago(ms, since) {
    var pre = since ? "since" : "ago";
    var minutes = Math.floor(ms / 60000);
    if (minutes < 1) return say(pre + "Now");
    if (minutes < 60) return say(pre + "Minutes", { minutes: minutes });
    var hours = Math.floor(minutes / 60);
    if (hours < 24) return say(pre + "Hours", { hours: hours });
    var days = Math.floor(hours / 24);
    return days === 1 ? say(pre + "Day") : say(pre + "Days", { days: days });
  }

  function updateRelativeTimes() {
    var now = Date.now();
    var els = document.querySelectorAll("time[data-relative]");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var at = Date.parse(el.getAttribute("datetime"));
      if (isNaN(at)) continue;
      if (!arrived.has(el)) arrived.set(el, now);
      var serverNow = Date.parse(el.getAttribute("data-now") || "");
      var current = isNaN(serverNow) ? screenTime(now) : serverNow + (now - arrived.get(el)) * clockSpeed;
      var text = ago(current - at, el.getAttribute("data-relative") === "since");
      if (!text) continue;
      if (el.textContent !== text) el.textContent = text;
    }
  }

  // ---------- (b) Paging ----------

  // What needs action is listed item by item. What only needs attention
  // (low product, low battery) is listed too when everything fits one
  // page; otherwise it is summarised as a line per room (.screen-summarised
  // on the box). When even that does not fit, the items that need action
  // stay on every page (when they fit on one with room to spare) and the
  // rest pages beneath them; when they do not fit on their own, everything
  // pages in order, what needs action first.
  var units = []; // what is shown or hidden, in document order: items, or summary lines
  var pinned = 0; // units[0..pinned) show on every page
  var summarised = false;
  var pageStarts = [0]; // index in units of the first unit of each page after the pinned ones
  var pageIndex = 0;
  var pageShown = 0; // seconds the current page has been shown
  var needsMeasure = true;

  function groupsBox() {
    var el = live();
    return el ? el.querySelector(".screen-groups") : null;
  }

  function setSummarised(box, on) {
    summarised = on;
    box.classList.toggle("screen-summarised", on);
    var sel = on ? ".screen-part-action .screen-item, .screen-attention-summary" : ".screen-item";
    units = Array.prototype.slice.call(box.querySelectorAll(sel));
  }

  // groupUnits are the units of one room's group.
  function groupUnits(group) {
    var attention = group.parentNode && group.parentNode.classList.contains("screen-part-attention");
    return group.getElementsByClassName(summarised && attention ? "screen-attention-summary" : "screen-item");
  }

  // showUnits shows the pinned units and units[from..to), and hides the
  // others; a group shows when one of its units does, marked continued
  // when its first ones are on an earlier page, and a part when one of its
  // groups does.
  function showUnits(box, from, to) {
    var i;
    for (i = 0; i < units.length; i++) {
      units[i].classList.toggle("screen-off", !(i < pinned || (i >= from && i < to)));
    }
    var groups = box.getElementsByClassName("screen-group");
    for (var g = 0; g < groups.length; g++) {
      var us = groupUnits(groups[g]);
      var visible = 0;
      var continued = false;
      for (var j = 0; j < us.length; j++) {
        if (!us[j].classList.contains("screen-off")) {
          if (visible === 0 && j > 0) continued = true;
          visible++;
        }
      }
      groups[g].classList.toggle("screen-off", visible === 0);
      groups[g].classList.toggle("screen-continued", continued);
    }
    var parts = box.getElementsByClassName("screen-part");
    for (var p = 0; p < parts.length; p++) {
      parts[p].classList.toggle("screen-off", parts[p].querySelector(".screen-group:not(.screen-off)") === null);
    }
  }

  // fits reports whether a unit lies within the box: not below it, and not
  // in a column beyond its right edge.
  function fits(box, el) {
    var b = box.getBoundingClientRect();
    var r = el.getBoundingClientRect();
    return r.bottom <= b.bottom + 0.5 && r.right <= b.right + 0.5;
  }

  // allFit shows every unit and reports whether they fit one page.
  function allFit(box) {
    pinned = 0;
    showUnits(box, 0, units.length);
    return units.length === 0 || fits(box, units[units.length - 1]);
  }

  // measure decides what is listed, what stays and what pages, and splits
  // the rest into pages that fit: for each page it shows all the remaining
  // units and finds the first one that overflows. One layout per try;
  // nothing is painted in between.
  function measure() {
    needsMeasure = false;
    var box = groupsBox();
    if (!box) {
      // Floor plans instead of the list: one plan a page, the page kept
      // across refreshes while there are as many.
      var el = live();
      units = el ? Array.prototype.slice.call(el.querySelectorAll(".screen-plan")) : [];
      pinned = 0;
      pageStarts = units.length ? units.map(function (_, i) { return i; }) : [0];
      if (pageIndex >= pageStarts.length) pageIndex = 0;
      showPage(null);
      return;
    }
    setSummarised(box, false);
    if (!allFit(box)) {
      setSummarised(box, true);
      allFit(box);
    }
    var n = units.length;
    var actions = box.querySelectorAll(".screen-part-action .screen-item").length;
    var starts = [0];
    if (n > 0 && !fits(box, units[n - 1])) {
      // The action items stay when they and the next unit fit together.
      pinned = 0;
      if (actions > 0 && actions < n) {
        pinned = actions;
        showUnits(box, actions, actions + 1);
        if (!fits(box, units[actions - 1]) || !fits(box, units[actions])) pinned = 0;
      }
      var start = pinned;
      starts = [start];
      while (start < n) {
        showUnits(box, start, n);
        var i = start + 1; // at least one unit on a page, however tall
        while (i < n && fits(box, units[i])) i++;
        if (i >= n) break;
        starts.push(i);
        start = i;
      }
    }
    pageStarts = starts;
    if (pageIndex >= starts.length) pageIndex = starts.length - 1;
    showPage(box);
    box.classList.add("screen-fitted");
  }

  function showPage(box) {
    box = box || groupsBox();
    if (box) {
      var to = pageIndex + 1 < pageStarts.length ? pageStarts[pageIndex + 1] : units.length;
      showUnits(box, pageStarts[pageIndex], to);
    } else {
      for (var i = 0; i < units.length; i++) units[i].classList.toggle("screen-off", i !== pageIndex);
    }
    showIndicator();
  }

  function showIndicator() {
    var el = document.getElementById("screen-pages");
    if (!el) return;
    var text = pageStarts.length > 1 ? pageIndex + 1 + " / " + pageStarts.length : "";
    if (el.textContent !== text) el.textContent = text;
  }

  function pageSeconds() {
    var s = parseInt(setting("data-page-seconds", "screen-page-seconds"), 10);
    return isNaN(s) || s < 1 ? 15 : s;
  }

  function advancePage() {
    pageShown++;
    if (pageShown < pageSeconds()) return;
    pageShown = 0;
    if (pageStarts.length < 2) return;
    pageIndex = (pageIndex + 1) % pageStarts.length;
    showPage(null);
  }

  // ---------- (c) Night dimming ----------

  function applyDimming(now) {
    var from = minutesOf(setting("data-dim-from", "screen-dim-from"));
    var to = minutesOf(setting("data-dim-to", "screen-dim-to"));
    var on = false;
    if (from >= 0 && to >= 0 && from !== to) {
      var m = now.getHours() * 60 + now.getMinutes();
      on = from < to ? m >= from && m < to : m >= from || m < to;
    }
    document.documentElement.classList.toggle("dimmed", on);
  }

  // ---------- (d) Burn-in ----------

  function shift() {
    var root = document.getElementById("screen-root");
    if (!root) return;
    root.style.setProperty("--shift-x", Math.floor(Math.random() * (SHIFT_MAX + 1)) + "px");
    root.style.setProperty("--shift-y", Math.floor(Math.random() * (SHIFT_MAX + 1)) + "px");
  }

  // ---------- (e) Connection health ----------

  var lastBeat = Date.now(); // the page itself is fresh from the server
  var lostSince = 0; // 0 while connected
  var troubleSince = 0; // the first error since the last heartbeat, 0 without one
  var beatAsOf = ""; // asOf of the last heartbeat
  var source = null; // the EventSource our listeners are on
  var sourceGen = 0; // counts the sources seen
  var beatGen = 0; // the source of the last heartbeat
  var sourceState = -1; // the last readyState seen of source
  var stateSince = Date.now();
  var forceDelay = BACKOFF_FIRST;
  var nextForceAt = 0;
  var forced = 0; // our own reconnections, for the body attribute
  var unlinked = false;
  var reloading = false;

  function streaming() {
    return !unlinked && !!document.body && document.body.hasAttribute("sse-connect");
  }

  function currentSource() {
    var data = document.body && document.body["htmx-internal-data"];
    return (data && data.sseEventSource) || null;
  }

  // adopt moves our listeners to the extension's current EventSource.
  function adopt() {
    var s = currentSource();
    if (s === source) return;
    if (source) {
      source.removeEventListener("heartbeat", onHeartbeat);
      source.removeEventListener("unlinked", onUnlinked);
    }
    source = s;
    sourceGen++;
    sourceState = s ? s.readyState : -1;
    stateSince = Date.now();
    if (s) {
      s.addEventListener("heartbeat", onHeartbeat);
      s.addEventListener("unlinked", onUnlinked);
    }
  }

  function dataAsOf() {
    var el = live();
    var asOf = el ? el.getAttribute("data-as-of") || "" : "";
    return asOf || beatAsOf;
  }

  function lostText() {
    var asOf = Date.parse(dataAsOf());
    var since = hhmm(new Date(screenTime(lostSince)));
    return isNaN(asOf) ? say("lostNoData", { since: since }) : say("lostAsOf", { since: since, asof: hhmm(new Date(asOf)) });
  }

  // renderBanner shows or clears the connection line of #screen-banner. The
  // line is a child of its own: the server's warnings stay as they are.
  function renderBanner() {
    var banner = document.getElementById("screen-banner");
    if (!banner) return;
    var line = banner.querySelector(".screen-warning-lost");
    if (!lostSince) {
      if (line) {
        banner.removeChild(line);
        needsMeasure = true;
      }
      return;
    }
    if (!line) {
      line = document.createElement("p");
      line.className = "screen-warning screen-warning-lost";
      var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("class", "icon");
      svg.setAttribute("aria-hidden", "true");
      svg.setAttribute("focusable", "false");
      var use = document.createElementNS("http://www.w3.org/2000/svg", "use");
      use.setAttribute("href", (banner.dataset.icons || "/static/icons/icons.svg") + "#attention");
      svg.appendChild(use);
      line.appendChild(svg);
      line.appendChild(document.createElement("span"));
      banner.insertBefore(line, banner.firstChild);
      needsMeasure = true;
    }
    var text = lostText();
    var span = line.lastChild;
    if (span.textContent !== text) span.textContent = text;
  }

  function markLost(at) {
    if (!streaming() || lostSince) return;
    lostSince = at;
    renderBanner();
  }

  // noteTrouble records an error of the stream or of a refresh; it becomes
  // a lost connection if no heartbeat follows within RECONNECT_GRACE.
  function noteTrouble(at) {
    if (!troubleSince) troubleSince = at;
  }

  // refresh asks htmx for #screen-live again, as a "changed" event does.
  function refresh() {
    var el = live();
    if (el && window.htmx && el.hasAttribute("hx-get")) window.htmx.trigger(el, "sse:changed");
  }

  // differs says whether the content shows other data than the heartbeat
  // describes: a newer sync, or a warning to add or remove.
  function differs(d) {
    var el = live();
    if (!el || !el.hasAttribute("hx-get")) return false;
    var mine = seconds(el.getAttribute("data-as-of"));
    var theirs = seconds(d.asOf);
    if (!(isNaN(mine) && isNaN(theirs)) && mine !== theirs) return true;
    if ((el.getAttribute("data-stale") === "true") !== !!d.stale) return true;
    return (el.getAttribute("data-rejected") === "true") !== !!d.rejected;
  }

  function onHeartbeat(event) {
    var d = null;
    try {
      d = JSON.parse(event.data);
    } catch (err) {
      d = null;
    }
    if (!d || typeof d !== "object") return;
    lastBeat = Date.now();
    if (typeof d.now === "string") setClock(d.now);
    if (d.stopped && typeof d.stopped === "object") {
      showStopped(d.stopped.title, d.stopped.message);
      return;
    }
    if (checkVersion(d.version)) return;
    beatAsOf = typeof d.asOf === "string" ? d.asOf : "";
    var reconnected = lostSince !== 0 || (beatGen !== 0 && beatGen !== sourceGen);
    beatGen = sourceGen;
    lostSince = 0;
    troubleSince = 0;
    forceDelay = BACKOFF_FIRST;
    nextForceAt = 0;
    renderBanner();
    if (reconnected || differs(d)) refresh();
  }

  function onUnlinked() {
    showStopped();
  }

  // forceReconnect replaces a stream nobody else will: it closes it (which
  // fires no error, so the extension schedules nothing) and has htmx
  // process the body again, which opens a new one. A changed attribute
  // makes htmx initialise the body anew; the rest of the page is left as
  // it is.
  function forceReconnect(now) {
    if (!window.htmx) return;
    var s = currentSource();
    if (s) s.close();
    forced++;
    document.body.setAttribute("data-screen-reconnect", String(forced));
    window.htmx.process(document.body);
    adopt();
    nextForceAt = now + forceDelay;
    forceDelay = Math.min(forceDelay * 2, BACKOFF_MAX);
  }

  function checkConnection(now) {
    if (!streaming()) return;
    adopt();
    if (source && source.readyState !== sourceState) {
      sourceState = source.readyState;
      stateSince = now;
    }
    if (!lostSince && now - lastBeat > HEARTBEAT_TIMEOUT) markLost(lastBeat);
    if (!lostSince && troubleSince && now - troubleSince >= RECONNECT_GRACE) markLost(troubleSince);
    if (!lostSince || now < nextForceAt) return;
    var stuck;
    if (!source) {
      stuck = true;
    } else if (source.readyState === 1) {
      stuck = now - Math.max(lastBeat, stateSince) > HEARTBEAT_TIMEOUT; // open but silent
    } else if (source.readyState === 0) {
      stuck = now - stateSince > CONNECTING_LIMIT;
    } else {
      stuck = now - stateSince > CLOSED_GRACE; // the extension did not retry
    }
    if (stuck) forceReconnect(now);
  }

  // ---------- (f) Version ----------

  // checkVersion reloads the page when the server runs another version than
  // the one that rendered it: once per version, and only when the server
  // answers (a kiosk must not be left on a browser error page).
  function checkVersion(version) {
    var mine = meta("washboard-version");
    if (!version || !mine || version === mine || reloading) return false;
    var done = null;
    try {
      done = window.sessionStorage.getItem(RELOAD_KEY);
    } catch (err) {
      return false; // no storage, no guard against a loop: no reload
    }
    if (done === version || !window.fetch) return false;
    reloading = true;
    window.fetch("/screen", { credentials: "same-origin", cache: "no-store" }).then(
      function (response) {
        if (!response.ok) {
          reloading = false;
          return;
        }
        try {
          window.sessionStorage.setItem(RELOAD_KEY, version);
        } catch (err) {
          reloading = false;
          return;
        }
        window.location.reload();
      },
      function () {
        reloading = false;
      }
    );
    return true;
  }

  // ---------- (g) Unlinked ----------

  // showStopped shows why the screen shows no more data, in the server's
  // words (the page the server renders for a stopped screen has the same
  // box), or that it was unlinked.
  function showStopped(title, message) {
    if (unlinked) return;
    unlinked = true;
    if (source) {
      source.removeEventListener("heartbeat", onHeartbeat);
      source.removeEventListener("unlinked", onUnlinked);
      source = null;
    }
    var s = currentSource();
    if (s) s.close();
    document.body.removeAttribute("sse-connect");
    lostSince = 0;

    var main = document.createElement("main");
    main.id = "screen-live";
    main.className = "screen-live screen-unlinked";
    var box = document.createElement("div");
    box.className = "screen-unlinked-box";
    var h1 = document.createElement("h1");
    h1.className = "screen-unlinked-title";
    h1.textContent = typeof title === "string" && title ? title : say("unlinkedTitle");
    var p = document.createElement("p");
    p.textContent = typeof message === "string" && message ? message : say("unlinkedText");
    box.appendChild(h1);
    box.appendChild(p);
    main.appendChild(box);
    var old = live();
    if (old && old.parentNode) {
      old.parentNode.replaceChild(main, old);
    }
    var pages = document.getElementById("screen-pages");
    if (pages && pages.parentNode) pages.parentNode.removeChild(pages);
    pageStarts = [0];
    pageIndex = 0;
  }

  // ---------- The tick ----------

  var ticks = 0;
  var lastMinute = -1;

  function tick() {
    var now = Date.now();
    var date = screenDate();
    ticks++;
    updateClock(date);
    var minute = Math.floor(date.getTime() / 60000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      applyDimming(date);
      if (lostSince) renderBanner();
    }
    if (ticks % RELATIVE_EVERY === 0) updateRelativeTimes();
    if (ticks % SHIFT_EVERY === 0) shift();
    checkConnection(now);
    if (needsMeasure) measure();
    advancePage();
  }

  // ---------- Wiring, once ----------

  // After a swap of #screen-live: the new content gets the clock, the
  // connection line and its pages at once, before it is painted; paging
  // goes on from the same page number.
  document.addEventListener("htmx:afterSwap", function () {
    updateClock(screenDate());
    renderBanner();
    updateRelativeTimes();
    measure();
  });
  // Settings arrive with the content; htmx settles the new element's
  // attributes a moment after the swap.
  document.addEventListener("htmx:afterSettle", function () {
    applyDimming(screenDate());
  });
  document.addEventListener("htmx:sseOpen", function () {
    adopt();
  });
  document.addEventListener("htmx:sseError", function () {
    adopt();
    noteTrouble(Date.now());
  });
  // A refresh that could not reach the server says the same.
  document.addEventListener("htmx:sendError", function () {
    noteTrouble(Date.now());
  });
  window.addEventListener("resize", function () {
    needsMeasure = true;
  });
  // The stream closes when the page goes, so that a reload does not leave a
  // connection behind; a page brought back from the back-forward cache
  // reloads.
  window.addEventListener("pagehide", function () {
    var s = currentSource();
    if (s) s.close();
  });
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });

  function start() {
    initClock();
    var date = screenDate();
    updateClock(date);
    // The first dimming and place are taken without their transitions:
    // the styles are computed once with them off, then turned back on.
    var html = document.documentElement;
    html.classList.add("screen-still");
    applyDimming(date);
    shift();
    var root = document.getElementById("screen-root");
    void getComputedStyle(document.body).filter;
    if (root) void getComputedStyle(root).transform;
    html.classList.remove("screen-still");
    updateRelativeTimes();
    adopt();
    measure();
    window.setInterval(tick, 1000);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
