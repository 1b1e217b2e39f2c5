// The side list of floors and rooms, and finding a node by id.
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
