// The data, its indices and the page's state.
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
