// The panel's tabs, and the details of the node selected.
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
    `<dt>states</dt><dd data-field="state">${chips(words(G.profiles[G.prof[i]][1]))}</dd>` +
    `<dt>affordances</dt><dd data-field="affordances">${chips(words(G.profiles[G.prof[i]][0]))}</dd>` +
    `<dt>attributes</dt><dd data-field="attributes">${chips(words(G.profiles[G.prof[i]][2]))}</dd>` +
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
