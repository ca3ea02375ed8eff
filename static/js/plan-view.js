// Zooms a floor's plan on its page (+ and −): the plan widens within its
// frame, which scrolls to pan. The zoom and where the frame was scrolled
// to stay across the page's live updates, which keep the plan and change
// only the markers whose location changed.
(function () {
  "use strict";
  if (window.washboardPlanView) return;
  window.washboardPlanView = true;
  var levels = [1, 2, 4], level = 0, left = 0, top = 0;
  function apply() {
    var view = document.querySelector(".plan-view");
    if (!view) return;
    var map = view.querySelector(".plan-map");
    levels.forEach(function (z) { map.classList.toggle("plan-zoom-" + z, z === levels[level]); });
    view.scrollLeft = left;
    view.scrollTop = top;
    var zoom = document.querySelector("[data-plan-zoom]");
    zoom.hidden = false;
    zoom.querySelector('[data-zoom="1"]').disabled = level === levels.length - 1;
    zoom.querySelector('[data-zoom="-1"]').disabled = level === 0;
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-zoom]");
    if (!b) return;
    var view = document.querySelector(".plan-view");
    var before = levels[level];
    level = Math.max(0, Math.min(levels.length - 1, level + Number(b.dataset.zoom)));
    var k = levels[level] / before;
    // Keep the middle of what was shown in the middle.
    left = (view.scrollLeft + view.clientWidth / 2) * k - view.clientWidth / 2;
    top = (view.scrollTop + view.clientHeight / 2) * k - view.clientHeight / 2;
    apply();
  });
  document.addEventListener("scroll", function (ev) {
    if (ev.target.classList && ev.target.classList.contains("plan-view")) {
      left = ev.target.scrollLeft;
      top = ev.target.scrollTop;
    }
  }, true);
  // A live update of the page keeps the plan (hx-preserve on its map) and
  // replaces only the markers that changed, from the new page; a plan
  // whose image, rooms or set of markers changed is drawn anew.
  function spotIDs(map) {
    return Array.prototype.map.call(map.querySelectorAll(".plan-spot"), function (a) { return a.id; }).join(" ");
  }
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var map = document.querySelector(".plan-map[hx-preserve]");
    if (!map || !ev.detail.serverResponse || !ev.detail.target || ev.detail.target.id !== "live") return;
    var next = new DOMParser().parseFromString(ev.detail.serverResponse, "text/html").getElementById(map.id);
    if (!next) return; // the plan went: the swap takes it away
    var image = function (m) { var i = m.querySelector("image"); return i ? i.getAttribute("href") : ""; };
    var rooms = function (m) { var r = m.querySelector(".plan-rooms"); return r ? r.innerHTML : ""; };
    if (image(next) !== image(map) || rooms(next) !== rooms(map) || spotIDs(next) !== spotIDs(map) ||
        next.getAttribute("viewBox") !== map.getAttribute("viewBox")) {
      map.setAttribute("viewBox", next.getAttribute("viewBox"));
      map.innerHTML = next.innerHTML;
      return;
    }
    Array.prototype.forEach.call(next.querySelectorAll(".plan-spot"), function (spot) {
      var cur = document.getElementById(spot.id);
      if (cur && cur.outerHTML !== spot.outerHTML) cur.replaceWith(document.importNode(spot, true));
    });
  });
  document.addEventListener("htmx:afterSettle", apply);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply);
  else apply();
})();
