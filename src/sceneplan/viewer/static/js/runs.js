// A run: search playback, plan steps, memory against the true world.
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

// -- the steppers of the plan and memory tabs -------------------------------------------------
// Go to step `s` (clamped) of `steps`, kept in state[key] ("step", "mstep"), in `mode`;
// `show(step)` opens what the step needs to be seen.
function goToStep(steps, key, mode, s, show) {
  if (!steps.length) return;
  state[key] = Math.max(0, Math.min(steps.length - 1, s));
  state.mode = mode;
  show(steps[state[key]]);
  refresh();
}
// The step `d` away from state[key] (the first when none is shown yet).
const stepBy = (key, d) => state[key] === null ? 0 : state[key] + d;
// The ◀ ▶ buttons and the list of a stepper: #KEY-prev, #KEY-next, #KEY-list with data-KEY rows.
function wireStepper(key, set) {
  el(`${key}-prev`).onclick = () => set(stepBy(key, -1));
  el(`${key}-next`).onclick = () => set(stepBy(key, 1));
  el(`${key}-list`).onclick = (e) => { const r = e.target.closest(`[data-${key}]`); if (r) set(+r.dataset[key]); };
}

// -- plan --------------------------------------------------------------------------------------
function setStep(s) {
  const steps = EP.plan.steps;
  goToStep(steps, "step", "plan", s, (step) => {
    const here = idx(step.at);
    for (let k = 0; k <= state.step; k++) for (const p of steps[k].path) { const i = idx(p); if (floorOf(i) >= 0) state.openFloors.add(floorOf(i)); }
    if (here >= 0 && floorOf(here) >= 0) state.openFloors.add(floorOf(here));
    state.openRooms = new Set(G.kind[here] === K.room ? [here] : []); // the room it acts in
  });
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
  if (steps.length) wireStepper("step", setStep);
}
const fmt = (v) => v === true ? '<span class="badge ok">yes</span>' : v === false ? '<span class="badge bad">no</span>' : '<span class="muted">not known</span>';

// -- memory vs the true world --------------------------------------------------------------------
function setMStep(s) {
  goToStep(EP.memory.steps, "mstep", "memory", s, (step) => {
    const at = idx(step.agent_at);
    if (at >= 0) { reveal(at); const room = roomOf(at); if (room >= 0) state.openRooms.add(room); }
  });
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
  wireStepper("mstep", setMStep);
}

document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return; // the find box types; the slider steps itself
  const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
  if (!d || !EP) return;
  if (state.tab === "search") setTurn((state.turn || 0) + d);
  else if (state.tab === "plan") setStep(stepBy("step", d));
  else if (state.tab === "memory" && EP.memory) setMStep(stepBy("mstep", d));
  else return;
  e.preventDefault();
});
