// live.js keeps regions that refresh on server-sent events from missing a
// change. While a region's request is in flight, and until its
// replacement is in place and listening, htmx loses the events meant for
// it: they are queued on, or sent to, the element the swap removes. Here
// every event's arrival is noted from the stream itself, and a region that
// settles after an event it listens to arrived during its refresh asks
// again.
(function () {
  "use strict";
  if (!window.htmx || !window.htmx.createEventSource) return;
  var lastAt = {};    // event type → when it last arrived
  var startedAt = {}; // region id → when its last request began
  var sources = [];
  var heard = {};

  function typesOf(el) {
    var out = [];
    (el.getAttribute("hx-trigger") || "").split(",").forEach(function (t) {
      var m = /^\s*sse:([A-Za-z0-9_-]+)/.exec(t);
      if (m) out.push(m[1]);
    });
    return out;
  }

  function listen(type) {
    if (heard[type]) return;
    heard[type] = true;
    sources.forEach(function (s) { hear(s, type); });
  }

  function hear(source, type) {
    source.addEventListener(type, function () { lastAt[type] = performance.now(); });
  }

  function listenAll() {
    document.querySelectorAll("[hx-trigger*='sse:']").forEach(function (el) { typesOf(el).forEach(listen); });
  }

  var create = window.htmx.createEventSource;
  window.htmx.createEventSource = function (url) {
    var s = create(url);
    sources.push(s);
    Object.keys(heard).forEach(function (type) { hear(s, type); });
    s.addEventListener("error", function () {
      if (s.readyState === 2) sources = sources.filter(function (x) { return x !== s; });
    });
    listenAll();
    return s;
  };

  document.addEventListener("htmx:beforeRequest", function (e) {
    var el = e.detail.elt;
    if (el && el.id && typesOf(el).length) startedAt[el.id] = performance.now();
  });

  document.addEventListener("htmx:afterSettle", function (e) {
    var el = e.target;
    if (!el || !el.id || !(el.id in startedAt)) return;
    var began = startedAt[el.id];
    delete startedAt[el.id];
    var fresh = document.getElementById(el.id);
    if (!fresh) return;
    var types = typesOf(fresh);
    types.forEach(listen);
    for (var i = 0; i < types.length; i++) {
      if (lastAt[types[i]] > began) {
        window.htmx.trigger(fresh, "sse:" + types[i]);
        return;
      }
    }
  });
})();
