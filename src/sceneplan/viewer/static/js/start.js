// Keys, the header, and the first draw.
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
