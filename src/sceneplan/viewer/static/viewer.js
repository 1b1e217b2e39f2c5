// sceneplan view: a scene graph, a planner's search, its plan and its memory, in one page.
// Plain JavaScript and SVG, no library and no network. The data is the JSON in
// #viewer-data (sceneplan/viewer/graph_data.py and episode_data.py write it).
// Only what is in view is drawn: floors start closed on large buildings, rooms
// outside the visible part of the map are skipped, and a room's assets and
// objects are drawn only while the room is open.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("viewer-data").textContent);
  const G = DATA.graph;
  const EP = DATA.episode;
  const N = G.ids.length;
  const KIND = G.kinds; // kind names by number
  const K = Object.fromEntries(KIND.map((k, i) => [k, i]));
  const MAX_ROOMS_DRAWN = 3000; // beyond this many rooms in view, draw boxes without labels
  const MAX_LIST = 300; // rows of a list before "more"
  const SMALL_BUILDING = 400; // rooms: up to this many, every floor starts open

  // -- indices ---------------------------------------------------------------------
  const childStart = new Int32Array(N + 1);
  const childList = new Int32Array(N);
  (function buildChildren() {
    for (let i = 0; i < N; i++) if (G.parent[i] >= 0) childStart[G.parent[i] + 1]++;
    for (let i = 0; i < N; i++) childStart[i + 1] += childStart[i];
    const fill = childStart.slice(0, N);
    for (let i = 0; i < N; i++) { const p = G.parent[i]; if (p >= 0) childList[fill[p]++] = i; }
  })();
  function children(i) { return childList.subarray(childStart[i], childStart[i + 1]); }
  let idMap = null;
  function idx(id) {
    if (id === null || id === undefined) return -1;
    if (!idMap) { idMap = new Map(); for (let i = 0; i < N; i++) idMap.set(G.ids[i], i); }
    const found = idMap.get(id);
    return found === undefined ? -1 : found;
  }
  // places: node -> {floor position, x, y, room?}
  const place = new Map();
  const floors = G.floors.map((f, pos) => {
    for (const [i, x, y] of f.rooms) place.set(i, { floor: pos, x, y, room: true });
    for (const [i, x, y] of f.poses) place.set(i, { floor: pos, x, y, room: false });
    return { ...f, pos, label: f.node >= 0 ? G.ids[f.node] : "(no floor)", links: [] };
  });
  for (let l = 0; l < G.links.length; l += 2) {
    const a = place.get(G.links[l]), b = place.get(G.links[l + 1]);
    if (a && b && a.floor === b.floor) floors[a.floor].links.push(G.links[l], G.links[l + 1]);
  }
  const totalRooms = floors.reduce((s, f) => s + f.rooms.length, 0);
  const floorOf = (i) => { const p = place.get(i); return p ? p.floor : -1; };
  function roomOf(i) {
    for (let n = i; n >= 0; n = G.parent[n]) if (G.kind[n] === K.room) return n;
    return -1;
  }
  function placeOf(i) { // the room or pose a node is at (the agent's, for what it holds)
    for (let n = i; n >= 0; n = G.parent[n]) if (place.has(n)) return n;
    return -1;
  }

  // -- state --------------------------------------------------------------------------
  const state = {
    openFloors: new Set(totalRooms <= SMALL_BUILDING ? floors.map((f) => f.pos) : []),
    openRooms: new Set(),
    selected: -1,
    tab: "details",
    mode: null, // the playback the map shows: "search", "plan" or "memory"
    turn: null, // search turn shown (0: before the first)
    step: null, // plan step selected
    mstep: null, // memory step selected
    view: null, // {x, y, w, h} in map units
  };
  const el = (id) => document.getElementById(id);
  const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
  const words = (list) => list.map((w) => G.words[w]);
  const chips = (list) => list.length ? list.map((w) => `<span class="chip">${esc(w)}</span>`).join("") : '<span class="muted">none</span>';
  const nodeLink = (id) => { const i = idx(id); return i < 0 ? esc(id) : `<span class="link" data-node="${i}">${esc(id)}</span>`; };

  // -- map geometry: floors stacked top to bottom ----------------------------------------
  let bands = [];
  function layoutBands() {
    const width = Math.max(10, ...floors.map((f) => f.bounds[2] - f.bounds[0]));
    const closedH = Math.max(2, width * 0.05), head = Math.max(1.2, width * 0.03), gap = head * 0.6;
    let y = 0;
    bands = floors.map((f) => {
      const open = state.openFloors.has(f.pos);
      const h = open ? f.bounds[3] - f.bounds[1] + head * 1.5 : closedH;
      const band = { f, open, x: 0, y, w: open ? Math.max(width * 0.3, f.bounds[2] - f.bounds[0]) : width, h, head,
        dx: -f.bounds[0], dy: y + head * 1.2 - f.bounds[1] };
      y += h + gap;
      return band;
    });
    return { width, height: Math.max(y - gap, 1) };
  }
  function mapXY(i) { // map coordinates of a place on an open floor, else null
    const p = place.get(i);
    if (!p) return null;
    const b = bands[p.floor];
    if (!b || !b.open) return null;
    return [p.x + b.dx, p.y + b.dy, b.f.box];
  }
  function fit(only) {
    const size = layoutBands();
    let box = { x: 0, y: 0, w: size.width, h: size.height };
    if (only && only.length) {
      const pts = only.map(mapXY).filter(Boolean);
      if (pts.length) {
        const s = pts[0][2] * 3;
        const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
        box = { x: Math.min(...xs) - s, y: Math.min(...ys) - s, w: Math.max(...xs) - Math.min(...xs) + 2 * s, h: Math.max(...ys) - Math.min(...ys) + 2 * s };
      }
    }
    const svg = el("map"), ratio = (svg.clientWidth || 800) / (svg.clientHeight || 600);
    if (box.w / box.h < ratio) { const w = box.h * ratio; box.x -= (w - box.w) / 2; box.w = w; }
    else { const h = box.w / ratio; box.y -= (h - box.h) / 2; box.h = h; }
    const pad = box.w * 0.03;
    state.view = { x: box.x - pad, y: box.y - pad, w: box.w + 2 * pad, h: box.h + 2 * pad };
  }

  // -- drawing ---------------------------------------------------------------------------
  let pending = false;
  function draw() { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; render(); }); } }
  function render() {
    layoutBands();
    const v = state.view, svg = el("map");
    svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
    const px = v.w / (svg.clientWidth || 800); // map units per screen pixel
    const out = [];
    let drawn = 0, inView = 0;
    const hi = highlights();
    currentTarget = hi.target;
    const visible = (x, y, w, h) => x + w >= v.x && x <= v.x + v.w && y + h >= v.y && y <= v.y + v.h;
    for (const b of bands) {
      if (!visible(b.x, b.y, b.w, b.h)) continue;
      const f = b.f, fs = Math.min(b.head * 0.7, px * 16);
      out.push(`<rect class="floorband${b.open ? "" : " closed"}" data-floor="${f.pos}" x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}" rx="${b.head * 0.2}" stroke-width="${px}"/>`);
      out.push(`<text class="floorlabel" x="${b.x + b.head * 0.3}" y="${b.y + b.head * 0.85}" font-size="${fs}">${esc(f.label)}` +
        `<tspan class="floorhint" font-size="${fs * 0.75}"> · ${f.rooms.length} rooms, ${f.poses.length} poses${b.open ? "" : " · click to open"}</tspan></text>`);
      if (!b.open) continue;
      const box = f.box, half = box / 2;
      const inBand = f.rooms.filter(([, x, y]) => visible(x + b.dx - half, y + b.dy - half, box, box));
      inView += inBand.length;
      const labels = inBand.length <= MAX_ROOMS_DRAWN && box / px > 28;
      for (let l = 0; l < f.links.length; l += 2) {
        const a = mapXY(f.links[l]), c = mapXY(f.links[l + 1]);
        if (a && c && (visible(a[0], a[1], 0, 0) || visible(c[0], c[1], 0, 0)))
          out.push(`<line class="topo" x1="${a[0]}" y1="${a[1]}" x2="${c[0]}" y2="${c[1]}" stroke-width="${px}"/>`);
      }
      for (const [i, x, y] of f.poses) {
        const X = x + b.dx, Y = y + b.dy;
        if (visible(X, Y, 0, 0)) out.push(`<circle class="pose" data-node="${i}" cx="${X}" cy="${Y}" r="${Math.max(box * 0.05, px * 2)}"><title>${esc(G.ids[i])}</title></circle>`);
      }
      for (const [i, x, y] of inBand) {
        if (drawn >= MAX_ROOMS_DRAWN * 2) break;
        drawn++;
        const X = x + b.dx - half, Y = y + b.dy - half, open = state.openRooms.has(i);
        const cls = `room${open ? " open" : ""}${state.selected === i ? " sel" : ""}${hi.turnNode === i ? " turn" : ""}`;
        out.push(`<g class="${cls}" data-node="${i}" data-id="${esc(G.ids[i])}"><rect class="roombox" x="${X}" y="${Y}" width="${box}" height="${box}" rx="${box * 0.06}" stroke-width="${px * (state.selected === i ? 3 : 1)}"/>`);
        if (labels) out.push(`<text class="roomlabel" x="${X + box * 0.05}" y="${Y + box * 0.16}" font-size="${Math.min(box * 0.15, (box * 1.6) / G.ids[i].length)}">${esc(G.ids[i])}</text>`);
        out.push("</g>");
        if (open && labels) out.push(drawContents(i, X, Y, box, px));
      }
    }
    out.push(drawPath(hi, px));
    el("scene").innerHTML = out.join("");
    el("mapinfo").textContent = `${G.name || "scene graph"}: ${totalRooms} rooms on ${floors.length} floor(s), ${N} nodes · ` +
      `open floors ${state.openFloors.size} · rooms in view ${inView}${drawn < inView ? ` (drawn ${drawn})` : ""} · open rooms ${state.openRooms.size}`;
  }
  let currentTarget = -1; // the node the selected step acts on, marked in its room
  function drawContents(room, X, Y, box, px) {
    const assets = Array.from(children(room)).filter((c) => G.kind[c] === K.asset);
    if (!assets.length) return "";
    const cols = Math.ceil(Math.sqrt(assets.length)), cell = (box * 0.9) / cols, out = [];
    assets.forEach((a, n) => {
      const cx = X + box * 0.05 + (n % cols) * cell, cy = Y + box * 0.17 + Math.floor(n / cols) * cell * 0.85;
      const s = cell * 0.8;
      out.push(`<rect class="asset${state.selected === a ? " sel" : ""}${currentTarget === a ? " target" : ""}" data-node="${a}" x="${cx}" y="${cy}" width="${s}" height="${s * 0.55}" stroke-width="${px * (currentTarget === a || state.selected === a ? 3 : 1)}"><title>${esc(G.ids[a])}</title></rect>`);
      if (s / px > 40) out.push(`<text class="itemlabel" x="${cx + s * 0.04}" y="${cy + s * 0.14}" font-size="${s * 0.1}">${esc(G.ids[a])}</text>`);
      const objects = [];
      const stack = Array.from(children(a));
      while (stack.length) { const o = stack.shift(); objects.push(o); stack.push(...children(o)); }
      objects.slice(0, 12).forEach((o, k) => {
        const r = s * 0.035, ox = cx + r * 2 + k * r * 3.2, oy = cy + s * 0.4;
        out.push(`<circle class="object${state.selected === o ? " sel" : ""}${currentTarget === o ? " target" : ""}" data-node="${o}" cx="${ox}" cy="${oy}" r="${r}" stroke-width="${px * 2}"><title>${esc(G.ids[o])}</title></circle>`);
      });
    });
    return out.join("");
  }
  function drawPath(hi, px) {
    const out = [];
    for (const [line, cls, width] of [[hi.path, "path", 2], [hi.last, "path last", 4]]) {
      const pts = line.map(mapXY).filter(Boolean);
      if (pts.length > 1) out.push(`<polyline class="${cls}" points="${pts.map((p) => p[0] + "," + p[1]).join(" ")}" stroke-width="${Math.max(px * width, pts[0][2] * 0.02 * width)}"/>`);
    }
    if (hi.robot >= 0) {
      const p = mapXY(hi.robot);
      if (p) out.push(`<circle class="robot" cx="${p[0]}" cy="${p[1]}" r="${Math.max(px * 6, p[2] * 0.09)}" stroke-width="${px * 2}"><title>robot at ${esc(G.ids[hi.robot])}</title></circle>`);
    }
    if (hi.fail >= 0) {
      const p = mapXY(hi.fail);
      if (p) out.push(`<circle class="failmark" cx="${p[0]}" cy="${p[1]}" r="${p[2] * 0.7}" stroke-width="${px * 3}"/>`);
    }
    return out.join("");
  }
  function highlights() { // what the selected turn / step puts on the map
    const hi = { path: [], last: [], robot: G.agent >= 0 ? placeOf(G.agent) : -1, fail: -1, turnNode: -1, target: -1 };
    if (state.mode === "search" && EP && state.turn) hi.turnNode = idx(EP.search.turns[state.turn - 1].node);
    if (state.mode === "plan" && EP && state.step !== null) {
      const steps = EP.plan.steps;
      const ids = EP.plan.start ? [EP.plan.start] : [];
      for (let s = 0; s <= state.step; s++) for (const p of steps[s].path) if (ids[ids.length - 1] !== p) ids.push(p);
      hi.path = ids.map(idx).filter((i) => i >= 0);
      const step = steps[state.step];
      let first = state.step; // the trip this step is part of: the moves up to it
      while (first > 0 && steps[first].path.length && steps[first - 1].path.length) first--;
      const leg = [];
      for (let k = first; k <= state.step; k++) for (const p of steps[k].path) if (leg[leg.length - 1] !== p) leg.push(p);
      hi.last = leg.map(idx).filter((i) => i >= 0);
      hi.robot = idx(step.at);
      hi.target = idx((step.action.match(/\(([^,)]+)/) || [])[1]);
      if (steps[state.step].result === "failed") hi.fail = hi.robot;
    }
    if (state.mode === "memory" && EP && EP.memory && state.mstep !== null) {
      const step = EP.memory.steps[state.mstep];
      hi.robot = idx(step.agent_at);
      hi.target = idx((step.action.match(/\(([^,)]+)/) || [])[1]);
    }
    return hi;
  }

  // -- pan and zoom ------------------------------------------------------------------------
  function zoom(factor, cx, cy) {
    const v = state.view;
    if (cx === undefined) { cx = v.x + v.w / 2; cy = v.y + v.h / 2; }
    state.view = { x: cx - (cx - v.x) * factor, y: cy - (cy - v.y) * factor, w: v.w * factor, h: v.h * factor };
    draw();
  }
  function toMap(evt) {
    const svg = el("map"), r = svg.getBoundingClientRect(), v = state.view;
    return [v.x + ((evt.clientX - r.left) / r.width) * v.w, v.y + ((evt.clientY - r.top) / r.height) * v.h];
  }
  function centerOn(i) {
    layoutBands();
    const p = mapXY(i);
    if (!p) return;
    const v = state.view, w = Math.min(v.w, p[2] * 12), h = (w * v.h) / v.w;
    state.view = { x: p[0] - w / 2, y: p[1] - h / 2, w, h };
  }
  (function wireMap() {
    const svg = el("map");
    let drag = null;
    svg.addEventListener("wheel", (e) => { e.preventDefault(); const [x, y] = toMap(e); zoom(e.deltaY > 0 ? 1.2 : 1 / 1.2, x, y); }, { passive: false });
    svg.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY, v: { ...state.view }, moved: false }; });
    window.addEventListener("mousemove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; svg.classList.add("dragging"); }
      if (!drag.moved) return;
      const r = svg.getBoundingClientRect();
      state.view = { ...drag.v, x: drag.v.x - (dx / r.width) * drag.v.w, y: drag.v.y - (dy / r.height) * drag.v.h };
      draw();
    });
    window.addEventListener("mouseup", () => { setTimeout(() => { drag = null; }, 0); svg.classList.remove("dragging"); });
    svg.addEventListener("click", (e) => {
      if (drag && drag.moved) return;
      const t = e.target.closest("[data-node],[data-floor]");
      if (!t) return;
      if (t.dataset.floor !== undefined) { toggleFloor(+t.dataset.floor, true); return; }
      const i = +t.dataset.node;
      if (G.kind[i] === K.room && state.selected === i) toggleRoom(i);
      select(i, false);
    });
    svg.addEventListener("dblclick", (e) => { const t = e.target.closest("[data-node]"); if (t && G.kind[+t.dataset.node] === K.room) toggleRoom(+t.dataset.node); });
    el("zoom-in").onclick = () => zoom(1 / 1.5);
    el("zoom-out").onclick = () => zoom(1.5);
    el("zoom-fit").onclick = () => { fit(); draw(); };
    el("open-all").onclick = () => { floors.forEach((f) => state.openFloors.add(f.pos)); fit(); refresh(); };
    el("close-all").onclick = () => { state.openFloors.clear(); state.openRooms.clear(); fit(); refresh(); };
    window.addEventListener("resize", () => draw());
  })();

  function toggleFloor(pos, focus) {
    if (state.openFloors.has(pos)) state.openFloors.delete(pos); else state.openFloors.add(pos);
    if (focus && state.openFloors.has(pos)) { // show the floor, or its start when it is long
      layoutBands();
      const b = bands[pos], r = state.view.w / state.view.h;
      const w = Math.max(b.h * r, Math.min(b.w, b.f.box * 30)) * 1.05;
      state.view = { x: b.x - w * 0.02, y: b.y - b.head * 0.2, w, h: w / r };
    }
    refresh();
  }
  function toggleRoom(i) {
    if (state.openRooms.has(i)) state.openRooms.delete(i); else { state.openRooms.add(i); state.openFloors.add(floorOf(i)); }
    refresh();
  }
  function reveal(i) { // open what hides node i, so that the map shows it
    const room = roomOf(i), at = placeOf(i);
    if (at >= 0 && floorOf(at) >= 0) state.openFloors.add(floorOf(at));
    if (room >= 0 && room !== i) state.openRooms.add(room);
  }
  function select(i, focus = true) {
    state.selected = i;
    if (i >= 0) { reveal(i); if (focus) centerOn(placeOf(i)); }
    showTab("details");
  }

  // -- side: floors and rooms, and find ----------------------------------------------------
  function renderTree() {
    const out = [];
    for (const f of floors) {
      const open = state.openFloors.has(f.pos);
      out.push(`<div class="row floor${state.selected === f.node ? " sel" : ""}" data-floor="${f.pos}">${open ? "▾" : "▸"} ${esc(f.label)} <span class="kind">${f.rooms.length} rooms</span></div>`);
      if (!open) continue;
      f.rooms.slice(0, MAX_LIST).forEach(([i]) => out.push(`<div class="row sub${state.selected === i ? " sel" : ""}" data-node="${i}">${state.openRooms.has(i) ? "◆" : "◇"} ${esc(G.ids[i])}</div>`));
      if (f.rooms.length > MAX_LIST) out.push(`<div class="row sub more">… ${f.rooms.length - MAX_LIST} more: find them by id above</div>`);
    }
    el("tree").innerHTML = out.join("");
  }
  el("tree").addEventListener("click", (e) => {
    const t = e.target.closest(".row");
    if (!t) return;
    if (t.dataset.floor !== undefined) toggleFloor(+t.dataset.floor, true);
    else if (t.dataset.node !== undefined) select(+t.dataset.node);
  });
  el("find").addEventListener("input", () => {
    const q = el("find").value.trim().toLowerCase(), out = [];
    if (q.length) {
      for (let i = 0; i < N && out.length < 50; i++) if (G.ids[i].toLowerCase().includes(q)) out.push(i);
    }
    el("found").innerHTML = out.map((i) => `<div class="row" data-node="${i}">${esc(G.ids[i])} <span class="kind">${KIND[G.kind[i]]}</span></div>`).join("") +
      (q && !out.length ? '<div class="row more">no node matches</div>' : "");
  });
  el("found").addEventListener("click", (e) => { const t = e.target.closest("[data-node]"); if (t) select(+t.dataset.node); });
  document.body.addEventListener("click", (e) => {
    const t = e.target.closest(".link[data-node]");
    if (t) select(+t.dataset.node);
  });

  // -- panel tabs ---------------------------------------------------------------------------
  const TABS = [["details", "Details"]];
  if (EP) {
    if (EP.search.turns.length) TABS.push(["search", `Search (${EP.search.turns.length})`]);
    if (EP.plan.steps.length || EP.plan.rounds.length) TABS.push(["plan", `Plan (${EP.plan.steps.length})`]);
    if (EP.memory) TABS.push(["memory", `Memory (${EP.memory.steps.length})`]);
  }
  el("tabs").innerHTML = TABS.map(([k, label]) => `<button data-tab="${k}" id="tabbtn-${k}">${esc(label)}</button>`).join("");
  el("tabs").addEventListener("click", (e) => { const t = e.target.closest("button"); if (t) showTab(t.dataset.tab); });
  function showTab(name) {
    state.tab = name;
    if (name !== "details") state.mode = name;
    for (const [k] of TABS) { el("tabbtn-" + k).classList.toggle("on", k === name); }
    for (const k of ["details", "search", "plan", "memory"]) el("tab-" + k).classList.toggle("on", k === name);
    refresh();
  }
  function refresh() {
    renderTree();
    if (state.tab === "details") renderDetails();
    if (state.tab === "search") renderSearch();
    if (state.tab === "plan") renderPlan();
    if (state.tab === "memory") renderMemory();
    for (const cur of document.querySelectorAll(".tab.on .list .cur")) cur.scrollIntoView({ block: "nearest" });
    if (state.view) render(); // at once, so that what a click changed is on the map when it returns
  }

  function renderDetails() {
    const i = state.selected, box = el("tab-details");
    if (i < 0) {
      box.innerHTML = `<h3>${esc(G.name || "scene graph")}</h3><p>${esc(G.description)}</p>` +
        `<p class="muted">Click a floor to open it, a room to see its details (click it again, or double-click, to show its assets and objects), and any node for its states and affordances. Drag to pan, scroll to zoom.</p>` +
        `<dl><dt>nodes</dt><dd>${N}</dd><dt>floors</dt><dd>${floors.length}</dd><dt>rooms</dt><dd>${totalRooms}</dd></dl>`;
      return;
    }
    const kind = KIND[G.kind[i]], extra = G.extra[i] || {}, chain = [];
    for (let p = G.parent[i]; p >= 0; p = G.parent[p]) chain.unshift(p);
    const kids = Array.from(children(i));
    const rel = G.relations[G.rel[i]];
    let html = `<h3 id="detail-id">${esc(G.ids[i])}</h3><dl id="detail-fields">` +
      `<dt>kind</dt><dd data-field="kind">${esc(kind)}</dd>` +
      (extra.category ? `<dt>category</dt><dd>${esc(extra.category)}</dd>` : "") +
      `<dt>in</dt><dd data-field="parents">${chain.map((p) => nodeLink(G.ids[p])).join(" › ") || '<span class="muted">top</span>'}</dd>` +
      (rel ? `<dt>relation</dt><dd data-field="relation">${esc(rel)} ${nodeLink(G.ids[G.parent[i]])}</dd>` : "") +
      `<dt>states</dt><dd data-field="state">${chips(words(G.state[i]))}</dd>` +
      `<dt>affordances</dt><dd data-field="affordances">${chips(words(G.aff[i]))}</dd>` +
      `<dt>attributes</dt><dd data-field="attributes">${chips(words(G.attr[i]))}</dd>` +
      (extra.position ? `<dt>position</dt><dd>${extra.position.join(", ")}</dd>` : "") +
      (extra.description ? `<dt>description</dt><dd>${esc(extra.description)}</dd>` : "") + "</dl>";
    if (kind === "room") html += `<p><button id="toggle-room">${state.openRooms.has(i) ? "hide" : "show"} its assets and objects</button></p>`;
    if (kind === "floor") html += `<p><button id="toggle-floor">${state.openFloors.has(floors.findIndex((f) => f.node === i)) ? "close" : "open"} this floor</button></p>`;
    if (kids.length) {
      html += `<h3>contains (${kids.length})</h3><div class="list" id="detail-children">` +
        kids.slice(0, MAX_LIST).map((c) => `<div class="item"><span class="link" data-node="${c}">${esc(G.ids[c])}</span> <span class="kind">${KIND[G.kind[c]]}</span></div>`).join("") +
        (kids.length > MAX_LIST ? `<div class="item muted">… ${kids.length - MAX_LIST} more</div>` : "") + "</div>";
    }
    if (place.has(i)) {
      const linked = [];
      for (let l = 0; l < G.links.length; l += 2) {
        if (G.links[l] === i) linked.push(G.links[l + 1]); else if (G.links[l + 1] === i) linked.push(G.links[l]);
      }
      if (linked.length) html += `<h3>linked to</h3><div>${linked.map((c) => nodeLink(G.ids[c])).join(", ")}</div>`;
    }
    box.innerHTML = html;
    const tr = el("toggle-room"); if (tr) tr.onclick = () => toggleRoom(i);
    const tf = el("toggle-floor"); if (tf) tf.onclick = () => toggleFloor(floors.findIndex((f) => f.node === i), true);
  }

  // -- search playback --------------------------------------------------------------------------
  function setTurn(t) {
    const turns = EP.search.turns;
    state.turn = Math.max(1, Math.min(turns.length, t));
    state.mode = "search";
    const cur = turns[state.turn - 1];
    state.openRooms = new Set(cur.open.map(idx).filter((i) => i >= 0));
    for (const i of state.openRooms) state.openFloors.add(floorOf(i));
    const node = idx(cur.node);
    if (node >= 0 && floorOf(placeOf(node)) >= 0) state.openFloors.add(floorOf(placeOf(node)));
    refresh();
  }
  function renderSearch() {
    const S = EP.search, turns = S.turns;
    if (state.turn === null) { setTurn(1); return; }
    const t = state.turn, cur = turns[t - 1];
    let html = `<div class="controls"><button id="search-prev">◀</button>` +
      `<span id="turn-label">turn ${t} / ${turns.length}</span><button id="search-next">▶</button>` +
      `<input id="turn-slider" type="range" min="1" max="${turns.length}" value="${t}"></div>`;
    html += '<div class="list" id="turn-list">' + turns.map((x, n) =>
      `<div class="item${n + 1 === t ? " cur" : ""}${x.ok ? "" : " failed"}" data-turn="${n + 1}">${x.turn}. ${esc(x.command)}${x.node ? "(" + esc(x.node) + ")" : ""} ${x.ok ? "✓" : "✗"} <span class="kind">${x.graph_tokens} tok</span></div>`).join("") + "</div>";
    if (!S.replayed) html += '<p class="muted">This graph does not match the trace everywhere: some views are as far as they could be replayed.</p>';
    html += `<div id="turn-detail"><h3>the model was shown</h3><dl>` +
      `<dt>view tokens</dt><dd id="turn-tokens">${cur.graph_tokens} (whole prompt ${cur.prompt_tokens})</dd>` +
      `<dt>nodes in view</dt><dd id="turn-visible">${cur.visible}</dd>` +
      `<dt>rooms open</dt><dd id="turn-open">${cur.open.map(nodeLink).join(", ") || '<span class="muted">none: the collapsed graph</span>'}</dd></dl>` +
      (cur.thought ? `<h3>chain of thought</h3><pre id="turn-thought">${esc(cur.thought)}</pre>` : "") +
      (cur.reasoning ? `<h3>reasoning</h3><pre id="turn-reasoning">${esc(cur.reasoning)}</pre>` : "") +
      (cur.reply ? `<h3>reply</h3><pre id="turn-reply">${esc(cur.reply)}</pre>` : "") +
      (cur.error ? `<div class="failing-banner">${esc(cur.error)}</div>` : "") +
      `<h3>and chose</h3><dl><dt>command</dt><dd id="turn-command">${esc(cur.command)}${cur.node ? " " + nodeLink(cur.node) : ""}</dd>` +
      `<dt>result</dt><dd id="turn-feedback" class="${cur.ok ? "" : "failing-banner"}">${esc(cur.feedback) || (cur.ok ? "ok" : "")}</dd>` +
      `<dt>then open</dt><dd id="turn-open-after">${cur.open_after.map(nodeLink).join(", ") || '<span class="muted">none</span>'}</dd>` +
      `<dt>memory</dt><dd id="turn-memory">${cur.memory.map(nodeLink).join(", ") || '<span class="muted">empty</span>'}</dd></dl></div>`;
    el("tab-search").innerHTML = html;
    el("search-prev").onclick = () => setTurn(state.turn - 1);
    el("search-next").onclick = () => setTurn(state.turn + 1);
    el("turn-slider").oninput = (e) => setTurn(+e.target.value);
    el("turn-list").onclick = (e) => { const r = e.target.closest("[data-turn]"); if (r && !e.target.closest(".link")) setTurn(+r.dataset.turn); };
  }

  // -- plan --------------------------------------------------------------------------------------
  function setStep(s) {
    const steps = EP.plan.steps;
    if (!steps.length) return;
    state.step = Math.max(0, Math.min(steps.length - 1, s));
    state.mode = "plan";
    const here = idx(steps[state.step].at);
    for (let k = 0; k <= state.step; k++) for (const p of steps[k].path) { const i = idx(p); if (floorOf(i) >= 0) state.openFloors.add(floorOf(i)); }
    if (here >= 0 && floorOf(here) >= 0) state.openFloors.add(floorOf(here));
    state.openRooms = new Set(G.kind[here] === K.room ? [here] : []); // the room it acts in
    refresh();
  }
  function renderPlan() {
    const P = EP.plan, steps = P.steps, s = state.step;
    let html = "";
    if (P.failing !== null) html += `<div class="failing-banner" id="plan-verdict">✗ fails at step ${P.failing + 1}: ${esc(steps[P.failing].feedback)} <span class="link" id="goto-failing">show</span></div>`;
    else if (steps.length) html += `<div class="failing-banner ok" id="plan-verdict">✓ every step runs in the simulator${EP.summary.goal_reached === false ? ", but the goal is not reached" : ""}</div>`;
    if (steps.length) {
      html += `<div class="controls"><button id="step-prev">◀</button><span id="step-label">${s === null ? "–" : "step " + (s + 1)} / ${steps.length}</span><button id="step-next">▶</button></div>`;
      html += '<div class="list" id="step-list">' + steps.map((x, n) => {
        const mark = x.result === "ok" ? "✓" : x.result === "failed" ? "✗" : "·";
        const cls = `${n === s ? " cur" : ""}${x.result === "failed" ? " failed failing" : ""}${x.result === "not run" ? " notrun" : ""}`;
        return `<div class="item step${cls}" data-step="${n}" data-result="${x.result}">${n + 1}. ${mark} ${esc(x.action)} <span class="kind">${esc(x.source)}</span></div>`;
      }).join("") + "</div>";
    } else html += '<p class="muted">No plan in this run.</p>';
    if (s !== null && steps[s]) {
      const x = steps[s];
      html += `<div id="step-detail"><dl><dt>step</dt><dd>${s + 1}: ${esc(x.action)}</dd><dt>from</dt><dd>${esc(x.source || "–")}</dd>` +
        `<dt>simulator</dt><dd id="step-result" class="${x.result === "failed" ? "failing-banner" : ""}">${esc(x.result)}${x.feedback ? ": " + esc(x.feedback) : ""}</dd>` +
        `<dt>robot at</dt><dd>${x.at ? nodeLink(x.at) : "–"}</dd>` +
        (x.path.length ? `<dt>moved</dt><dd>${x.path.map(nodeLink).join(" → ")}</dd>` : "") + "</dl></div>";
    }
    const E = EP.summary;
    html += `<h3>outcome</h3><dl><dt>executable</dt><dd>${fmt(E.executable)}</dd><dt>goal</dt><dd>${fmt(E.goal_reached)}${E.goal_unmet && E.goal_unmet.length ? " (unmet: " + esc(E.goal_unmet.join("; ")) + ")" : ""}</dd><dt>replans</dt><dd>${E.replans}</dd></dl>`;
    if (P.rounds.length) {
      html += `<h3>the model's plans (${P.rounds.length})</h3>` + P.rounds.map((r, n) =>
        `<details${n === P.rounds.length - 1 ? " open" : ""}><summary>${n + 1}. ${esc(r.stage)}${r.verdict ? " · " + esc(r.verdict) : ""}</summary>` +
        (r.plan ? `<pre>${esc(r.plan.join(" > "))}</pre>` : "") + (r.thought ? `<pre>${esc(r.thought)}</pre>` : "") +
        (r.reasoning ? `<pre>${esc(r.reasoning)}</pre>` : "") + (r.reply ? `<pre>${esc(r.reply)}</pre>` : "") + "</details>").join("");
    }
    el("tab-plan").innerHTML = html;
    const g = el("goto-failing"); if (g) g.onclick = () => setStep(P.failing);
    if (steps.length) {
      el("step-prev").onclick = () => setStep(state.step === null ? 0 : state.step - 1);
      el("step-next").onclick = () => setStep(state.step === null ? 0 : state.step + 1);
      el("step-list").onclick = (e) => { const r = e.target.closest("[data-step]"); if (r) setStep(+r.dataset.step); };
    }
  }
  const fmt = (v) => v === true ? '<span class="badge ok">yes</span>' : v === false ? '<span class="badge bad">no</span>' : '<span class="muted">not known</span>';

  // -- memory vs the true world --------------------------------------------------------------------
  function setMStep(s) {
    const steps = EP.memory.steps;
    if (!steps.length) return;
    state.mstep = Math.max(0, Math.min(steps.length - 1, s));
    state.mode = "memory";
    const at = idx(steps[state.mstep].agent_at);
    if (at >= 0) { reveal(at); const room = roomOf(at); if (room >= 0) state.openRooms.add(room); }
    refresh();
  }
  function renderMemory() {
    const M = EP.memory, steps = M.steps, s = state.mstep;
    let html = `<p class="muted">Each action is checked on memory (what the robot knows), then run in the true world.${M.replayed ? "" : " The trace could not be replayed on this graph everywhere: the comparison is left out where it could not."}</p>`;
    html += `<div class="controls"><button id="mstep-prev">◀</button><span id="mstep-label">${s === null ? "–" : "step " + (s + 1)} / ${steps.length}</span><button id="mstep-next">▶</button></div>`;
    html += '<div class="list" id="mstep-list">' + steps.map((x, n) =>
      `<div class="item mstep${n === s ? " cur" : ""}${x.ok ? "" : " failed"}" data-mstep="${n}">${n + 1}. ${x.ok ? "✓" : "✗"} ${esc(x.action)}</div>`).join("") + "</div>";
    if (s !== null) {
      const x = steps[s];
      html += `<div id="mstep-detail"><dl><dt>memory's action</dt><dd>${esc(x.action)}</dd><dt>in the world</dt><dd>${x.executed ? esc(x.executed) : '<span class="muted">not run</span>'}</dd>` +
        `<dt>result</dt><dd class="${x.ok ? "" : "failing-banner"}" id="mstep-feedback">${esc(x.feedback)}</dd>` +
        `<dt>robot at</dt><dd>${x.agent_at ? nodeLink(x.agent_at) : "–"}</dd>` +
        (x.observations.length ? `<dt>saw</dt><dd>${x.observations.map(esc).join("<br>")}</dd>` : "") +
        (x.added.length ? `<dt>memory added</dt><dd>${x.added.map(esc).join(", ")}</dd>` : "") +
        (x.forgotten.length ? `<dt>memory dropped</dt><dd>${x.forgotten.map(esc).join(", ")}</dd>` : "") +
        (x.corrected.length ? `<dt>memory corrected</dt><dd>${x.corrected.map(esc).join(", ")}</dd>` : "") +
        (x.shown.length ? `<dt>in the prompt</dt><dd>${x.shown.length} node(s)</dd>` : "") +
        (x.refused.length ? `<dt>memory refused first</dt><dd>${x.refused.map(esc).join(", ")}</dd>` : "") + "</dl>" +
        (x.thought ? `<h3>the model's chain of thought</h3><pre id="mstep-thought">${esc(x.thought)}</pre>` : "") +
        (x.reply ? `<h3>the model's reply</h3><pre>${esc(x.reply)}</pre>` : "");
      if (x.rows) {
        html += `<h3>in ${esc(x.room)}: memory knew vs the true world</h3><table id="memory-table"><tr><th>object</th><th>memory</th><th>true world</th></tr>` +
          x.rows.map((r) => `<tr class="${r.status.replace(" ", "-")}" data-status="${r.status}"><td>${nodeLink(r.object)}</td><td>${esc(r.memory ?? "—")}</td><td>${esc(r.truth ?? "not there")}</td></tr>`).join("") +
          `</table><p class="muted">memory holds ${x.memory_size} object(s) in all.</p>`;
      }
      html += "</div>";
    }
    el("tab-memory").innerHTML = html;
    el("mstep-prev").onclick = () => setMStep(state.mstep === null ? 0 : state.mstep - 1);
    el("mstep-next").onclick = () => setMStep(state.mstep === null ? 0 : state.mstep + 1);
    el("mstep-list").onclick = (e) => { const r = e.target.closest("[data-mstep]"); if (r) setMStep(+r.dataset.mstep); };
  }

  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!d || !EP) return;
    if (state.tab === "search") setTurn((state.turn || 0) + d);
    else if (state.tab === "plan") setStep(state.step === null ? 0 : state.step + d);
    else if (state.tab === "memory" && EP.memory) setMStep(state.mstep === null ? 0 : state.mstep + d);
    else return;
    e.preventDefault();
  });

  // -- header and start ---------------------------------------------------------------------------
  el("title").textContent = DATA.title;
  const sum = [];
  if (EP) {
    const E = EP.summary;
    const good = E.status === "success";
    sum.push(`<span class="badge ${good ? "ok" : "bad"}" id="status">${esc(E.status)}</span>`,
      `<span>${esc(E.planner)} · ${esc(E.model)}</span>`, E.task_id ? `<span>task ${esc(E.task_id)}</span>` : "",
      `<span title="instruction">“${esc(E.instruction)}”</span>`, `<span>${E.llm_calls} LLM call(s), ${E.input_tokens} tokens in</span>`);
    if (E.error) sum.push(`<span class="badge bad">${esc(E.error)}</span>`);
  } else sum.push(`<span>${N} nodes, ${totalRooms} rooms, ${floors.length} floor(s)</span>`);
  if (DATA.note) sum.push(`<span class="muted">${esc(DATA.note)}</span>`);
  el("summary").innerHTML = sum.join("");
  showTab(EP && EP.search.turns.length ? "search" : EP && EP.plan.steps.length ? "plan" : "details");
  fit();
  // a link can open the page at a node, a search turn, a plan step or a memory step (1-based):
  // view.html#turn=3, #step=12, #mstep=2, #node=kitchen, #floor=floor2
  const asked = new URLSearchParams(location.hash.slice(1));
  if (asked.has("floor")) { const f = floors.findIndex((x) => x.label === asked.get("floor")); if (f >= 0) toggleFloor(f, true); }
  if (asked.has("node") && idx(asked.get("node")) >= 0) select(idx(asked.get("node")));
  if (EP && asked.has("turn") && EP.search.turns.length) { showTab("search"); setTurn(+asked.get("turn")); }
  if (EP && asked.has("step") && EP.plan.steps.length) { showTab("plan"); setStep(+asked.get("step") - 1); }
  if (EP && asked.has("mstep") && EP.memory) { showTab("memory"); setMStep(+asked.get("mstep") - 1); }
  render();
  // the second frame after the first map is drawn: by then that map has been painted
  requestAnimationFrame(() => requestAnimationFrame(() => { performance.mark("viewer-ready"); document.body.dataset.ready = "1"; }));
  window.sceneplanViewer = { state, select: (id) => select(idx(id)), setTurn, setStep, setMStep: (s) => EP && EP.memory && setMStep(s), idx };
})();
