// Places a floor's locations and rooms on its plan (/floors/{id}/plan):
// a location is selected in the list beside the plan, then dragged
// (mouse, pen or touch), moved with the arrow keys (Shift for larger
// steps) or, not placed yet, placed in the middle with Enter; a room is
// drawn as a rectangle (drag) or a polygon (a click a corner). Ctrl+Z and
// the Undo button undo. Every change is written into the form's hidden
// field, which saves them all. Words come from the page's data-say-*.
(function () {
  "use strict";
  var editor = document.getElementById("plan-editor");
  if (!editor) return;
  var svg = document.getElementById("plan-svg");
  var field = document.getElementById("plan-placements");
  var said = document.getElementById("plan-said");
  var markers = svg.querySelector(".plan-markers");
  var roomsLayer = svg.querySelector(".plan-rooms");
  var NS = "http://www.w3.org/2000/svg";
  var W = +editor.dataset.width, H = +editor.dataset.height, R = +editor.dataset.marker;
  var step = Math.max(1, Math.round(Math.max(W, H) / 200));
  var state = JSON.parse(field.value);
  var history = [], MAX_UNDO = 50;
  var selected = null; // the selected button
  var drawing = null;  // a room being drawn: {id, points, start}

  function say(key, vars) {
    var text = editor.dataset["say" + key] || "";
    Object.keys(vars || {}).forEach(function (k) { text = text.split("{" + k + "}").join(vars[k]); });
    said.textContent = text + " " + editor.dataset.sayUnsaved;
  }
  function clamp(v, max) { return Math.max(0, Math.min(max, Math.round(v))); }
  function remember() {
    history.push(JSON.stringify(state));
    if (history.length > MAX_UNDO) history.shift();
  }
  function itemOf(kind, id) { return editor.querySelector(".plan-item[data-" + kind + '="' + CSS.escape(id) + '"]'); }

  function drawLocation(id) {
    var g = markers.querySelector('[data-location="' + CSS.escape(id) + '"]');
    var at = state.locations[id];
    if (!at) { if (g) g.remove(); return; }
    if (!g) {
      g = document.createElementNS(NS, "g");
      g.setAttribute("class", "plan-marker");
      g.dataset.location = id;
      var c = document.createElementNS(NS, "circle");
      c.setAttribute("r", R);
      g.appendChild(c);
      markers.appendChild(g);
    }
    g.setAttribute("transform", "translate(" + at[0] + " " + at[1] + ")");
    g.classList.toggle("is-selected", !!selected && selected.dataset.location === id);
    var item = itemOf("location", id);
    var list = document.getElementById(at ? "plan-placed" : "plan-unplaced");
    if (item && item.closest("ul") !== list) list.appendChild(item.parentNode);
  }
  function drawRoom(id) {
    var p = roomsLayer.querySelector('[data-room="' + CSS.escape(id) + '"]');
    var shape = state.rooms[id];
    if (!shape) { if (p) p.remove(); return; }
    if (!p) {
      p = document.createElementNS(NS, "polygon");
      p.setAttribute("class", "plan-room");
      p.dataset.room = id;
      roomsLayer.appendChild(p);
    }
    p.setAttribute("points", shape.map(function (q) { return q[0] + "," + q[1]; }).join(" "));
  }
  function redraw() {
    markers.querySelectorAll("[data-location]").forEach(function (g) {
      if (!state.locations[g.dataset.location]) g.remove();
    });
    editor.querySelectorAll(".plan-item[data-location]").forEach(function (b) {
      var id = b.dataset.location;
      if (state.locations[id]) drawLocation(id);
      else document.getElementById("plan-unplaced").appendChild(b.parentNode);
    });
    roomsLayer.querySelectorAll("[data-room]").forEach(function (p) { drawRoom(p.dataset.room); });
    Object.keys(state.rooms).forEach(drawRoom);
    field.value = JSON.stringify(state);
  }
  function saved() { field.value = JSON.stringify(state); }

  function select(button) {
    if (selected) selected.setAttribute("aria-pressed", "false");
    selected = button;
    drawing = null;
    if (button) button.setAttribute("aria-pressed", "true");
    markers.querySelectorAll(".plan-marker").forEach(function (g) {
      g.classList.toggle("is-selected", !!button && g.dataset.location === button.dataset.location);
    });
  }
  function moveTo(id, x, y, key) {
    state.locations[id] = [clamp(x, W), clamp(y, H)];
    drawLocation(id);
    saved();
    say(key, { name: itemOf("location", id).dataset.name, x: state.locations[id][0], y: state.locations[id][1] });
  }
  function undo() {
    if (!history.length) { say("Nothing"); return; }
    state = JSON.parse(history.pop());
    drawing = null;
    redraw();
    say("Undone");
  }
  function planPoint(ev) {
    var m = svg.getScreenCTM().inverse();
    var p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
    return [clamp(p.x, W), clamp(p.y, H)];
  }
  function shapeKind() {
    var checked = editor.querySelector('input[name="plan-shape"]:checked');
    return checked ? checked.value : "rect";
  }

  editor.addEventListener("click", function (ev) {
    var b = ev.target.closest(".plan-item");
    if (b) select(b);
  });
  document.getElementById("plan-undo").addEventListener("click", undo);
  document.addEventListener("keydown", function (ev) {
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && ev.key.toLowerCase() === "z") {
      ev.preventDefault();
      undo();
      return;
    }
    var b = ev.target.closest && ev.target.closest(".plan-item");
    if (drawing && ev.key === "Enter" && drawing.points.length >= 3) {
      ev.preventDefault();
      finishPolygon();
      return;
    }
    if (ev.key === "Escape" && drawing) { drawing = null; redraw(); return; }
    if (!b || !b.dataset.location) return;
    var id = b.dataset.location, at = state.locations[id];
    if (ev.key === "Enter" && !at) {
      ev.preventDefault();
      select(b);
      remember();
      moveTo(id, W / 2, H / 2, "Placed");
      b.focus();
      return;
    }
    var d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (!d || !at) return;
    ev.preventDefault();
    if (selected !== b) select(b);
    var n = ev.shiftKey ? step * 10 : step;
    remember();
    moveTo(id, at[0] + d[0] * n, at[1] + d[1] * n, "Moved");
  });

  // Dragging a marker moves it; with a location selected, a tap on the
  // plan places it there; with a room selected, the plan draws its shape.
  var drag = null;
  svg.addEventListener("pointerdown", function (ev) {
    var g = ev.target.closest(".plan-marker");
    if (g) {
      select(itemOf("location", g.dataset.location));
      remember();
      drag = { id: g.dataset.location, moved: false };
    } else if (selected && selected.dataset.location) {
      remember();
      var p = planPoint(ev);
      moveTo(selected.dataset.location, p[0], p[1], "Placed");
      drag = { id: selected.dataset.location, moved: true };
    } else if (selected && selected.dataset.room) {
      startShape(planPoint(ev));
      if (shapeKind() === "rect") drag = { room: selected.dataset.room };
    } else {
      return;
    }
    ev.preventDefault();
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener("pointermove", function (ev) {
    if (!drag) return;
    var p = planPoint(ev);
    if (drag.room) {
      var a = drawing.start;
      state.rooms[drag.room] = [a, [p[0], a[1]], p, [a[0], p[1]]];
      drawRoom(drag.room);
      return;
    }
    drag.moved = true;
    state.locations[drag.id] = p;
    drawLocation(drag.id);
  });
  svg.addEventListener("pointerup", function () {
    if (!drag) return;
    if (drag.room) {
      var shape = state.rooms[drag.room];
      if (shape && Math.abs(shape[2][0] - shape[0][0]) > 1 && Math.abs(shape[2][1] - shape[0][1]) > 1) {
        saved();
        say("Drawn", { name: selected.dataset.name });
      } else {
        undo();
      }
      drawing = null;
    } else if (drag.moved) {
      moveTo(drag.id, state.locations[drag.id][0], state.locations[drag.id][1], "Moved");
    } else {
      history.pop();
    }
    drag = null;
  });

  function startShape(p) {
    var id = selected.dataset.room;
    if (shapeKind() === "rect") {
      remember();
      drawing = { id: id, start: p };
      return;
    }
    if (!drawing || drawing.id !== id) {
      remember();
      drawing = { id: id, points: [] };
    }
    var first = drawing.points[0];
    if (first && drawing.points.length >= 3 && Math.hypot(first[0] - p[0], first[1] - p[1]) <= R * 2) {
      finishPolygon();
      return;
    }
    if (drawing.points.length >= +editor.dataset.maxCorners) return;
    drawing.points.push(p);
    state.rooms[id] = drawing.points.slice();
    drawRoom(id);
    say("Corner", { n: drawing.points.length, name: selected.dataset.name });
  }
  function finishPolygon() {
    state.rooms[drawing.id] = drawing.points.slice();
    drawRoom(drawing.id);
    saved();
    say("Drawn", { name: itemOf("room", drawing.id).dataset.name });
    drawing = null;
  }
})();
