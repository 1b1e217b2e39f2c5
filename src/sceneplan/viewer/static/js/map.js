// The map: floors stacked top to bottom, what is in view drawn as SVG, pan and zoom.
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
