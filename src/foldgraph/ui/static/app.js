// foldgraph's thread viewer: plain JavaScript, no build step, nothing fetched but this
// server's own API. Views: threads, a thread's history as a tree (paged, lazily
// loaded), a checkpoint (state, tasks, metadata), a diff of two checkpoints, the graph.
"use strict";

const CFG = window.FOLDGRAPH || {};
const PAGE = 50;
const LANE_W = 14;
const ROW_H = 34;
const $ = (id) => document.getElementById(id);
window.fgTimings = {};

const state = {
  threadOffset: 0,
  thread: null,
  rows: [],
  lanes: [],
  exhausted: false,
  loading: false,
  selected: null,
  compare: null,
  view: null,
  liveTimer: null,
};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

async function api(path, options) {
  const response = await fetch(path, options);
  const type = response.headers.get("content-type") || "";
  const body = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new Error((body && body.error) || response.statusText);
  return body;
}

function post(path, body) {
  return api(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-foldgraph-token": CFG.token },
    body: JSON.stringify(body),
  });
}

const enc = encodeURIComponent;
const short = (id) => (id ? id.slice(-12) : "");

// -- threads ------------------------------------------------------------------------------

async function loadThreads(reset) {
  if (reset) {
    state.threadOffset = 0;
    $("threads").replaceChildren();
  }
  const params = new URLSearchParams({
    limit: PAGE, offset: state.threadOffset, search: $("search").value, status: $("status").value,
  });
  const rows = await api(`api/threads?${params}`);
  state.threadOffset += rows.length;
  for (const t of rows) {
    const extra = Object.entries(t.metadata || {})
      .filter(([k]) => !["source", "step", "parents"].includes(k))
      .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ");
    $("threads").append(el("li", {
      dataset: { thread: t.thread_id },
      class: t.thread_id === state.thread ? "selected" : null,
      onclick: () => openThread(t.thread_id),
    },
      el("div", { class: "tid" }, t.thread_id),
      el("div", {},
        el("span", { class: `status ${t.status}` }, t.status), " · step ", t.last_step ?? "–",
        " · ", t.checkpoints, " checkpoints"),
      el("div", { class: "muted small", style: "padding:0" }, (t.updated_at || "").replace("T", " ").slice(0, 19)),
      extra ? el("div", { class: "muted small", style: "padding:0" }, extra) : null,
    ));
  }
  $("more-threads").hidden = rows.length < PAGE;
  if (!$("threads").children.length) $("threads").append(el("li", { class: "muted" }, "no threads"));
}

// -- history as a tree ----------------------------------------------------------------------

function drawLanes(before, after, dot, merging, width) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", width);
  svg.setAttribute("height", ROW_H);
  svg.setAttribute("class", "lanes");
  const line = (x1, y1, x2, y2, colour) => {
    const l = document.createElementNS(ns, "path");
    l.setAttribute("d", `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`);
    l.setAttribute("stroke", colour);
    l.setAttribute("stroke-width", "2");
    l.setAttribute("fill", "none");
    svg.append(l);
  };
  const x = (i) => LANE_W / 2 + i * LANE_W;
  const colour = (i) => ["#4a6fa5", "#c98a00", "#2f8a3a", "#8e44ad", "#c0392b", "#16a085"][i % 6];
  const mid = ROW_H / 2;
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (before[i] && i !== dot && !merging.includes(i)) line(x(i), 0, x(i), mid, colour(i));
    if (after[i] && i !== dot) line(x(i), mid, x(i), ROW_H, colour(i));
  }
  if (dot !== null) {
    if (before[dot]) line(x(dot), 0, x(dot), mid, colour(dot));
    for (const m of merging) line(x(m), 0, x(dot), mid, colour(m));
    if (after[dot]) line(x(dot), mid, x(dot), ROW_H, colour(dot));
    const c = document.createElementNS(ns, "circle");
    c.setAttribute("cx", x(dot));
    c.setAttribute("cy", mid);
    c.setAttribute("r", "4.5");
    c.setAttribute("fill", colour(dot));
    svg.append(c);
  }
  return svg;
}

function placeRow(row) {
  // Git-log lanes over the root namespace: each lane waits for the parent of the row
  // drawn last in it; a row no lane waits for starts a branch (a fork's newer tip).
  const before = state.lanes.slice();
  if (row.checkpoint_ns) return { before, after: before, dot: null, merging: [] };
  let dot = state.lanes.indexOf(row.checkpoint_id);
  const merging = [];
  if (dot === -1) {
    dot = state.lanes.indexOf(null);
    if (dot === -1) dot = state.lanes.length;
    before[dot] = null;
  } else {
    state.lanes.forEach((id, i) => { if (i !== dot && id === row.checkpoint_id) merging.push(i); });
  }
  for (const m of merging) state.lanes[m] = null;
  state.lanes[dot] = row.parent_checkpoint_id || null;
  while (state.lanes.length && state.lanes[state.lanes.length - 1] === null) state.lanes.pop();
  return { before, after: state.lanes.slice(), dot, merging };
}

function historyRow(row) {
  const placed = placeRow(row);
  const width = LANE_W * Math.max(2, Math.min(8, Math.max(placed.before.length, placed.after.length, (placed.dot ?? 0) + 1)));
  const writes = Object.entries(row.writes || {}).map(([n, keys]) => `${n}: ${keys.join(", ")}`).join("; ");
  const node = el("div", {
    class: "hrow" + (row.checkpoint_ns ? " sub" : ""),
    dataset: { checkpoint: row.checkpoint_id, ns: row.checkpoint_ns, lane: placed.dot ?? "" },
    title: row.checkpoint_id,
    onclick: (event) => (event.altKey ? diffWith(row) : selectCheckpoint(row)),
  },
    drawLanes(placed.before, placed.after, placed.dot, placed.merging, width),
    el("div", { class: "hcell" },
      el("div", { class: "line1" },
        el("span", { class: "step" }, row.step ?? ""),
        el("span", { class: `src ${row.source || ""}` }, row.source || "?"),
        row.checkpoint_ns ? el("span", { class: "ns" }, row.checkpoint_ns.split(":")[0]) : null,
        row.next.length ? el("span", { class: "next" }, "→ " + row.next.join(", ")) : el("span", { class: "next muted" }, "end"),
        el("span", { class: "cid" }, short(row.checkpoint_id)),
      ),
      writes ? el("div", { class: "writes" }, writes) : null,
    ),
  );
  return node;
}

async function loadHistoryPage() {
  if (state.loading || state.exhausted || !state.thread) return;
  state.loading = true;
  const thread = state.thread;
  const started = performance.now();
  const last = state.rows[state.rows.length - 1];
  const params = new URLSearchParams({ limit: PAGE });
  if (last) params.set("before", last.checkpoint_id);
  try {
    const rows = await api(`api/threads/${enc(thread)}/history?${params}`);
    if (thread !== state.thread) return;
    const box = $("history");
    for (const row of rows) {
      state.rows.push(row);
      box.append(historyRow(row));
    }
    if (!last) window.fgTimings.historyFirstPage = performance.now() - started;
    state.exhausted = rows.length < PAGE;
    $("history-end").textContent = state.exhausted
      ? `${state.rows.length} checkpoints` : `${state.rows.length} loaded; scroll for more`;
    box.dataset.loaded = String(state.rows.length);
  } finally {
    state.loading = false;
  }
  if (!state.exhausted && $("history-pane").scrollHeight <= $("history-pane").clientHeight + 40) {
    loadHistoryPage();
  }
}

async function openThread(threadId, checkpointId) {
  state.thread = threadId;
  state.rows = [];
  state.lanes = [];
  state.exhausted = false;
  state.compare = null;
  state.openedAt = performance.now();
  for (const li of $("threads").children) li.classList.toggle("selected", li.dataset.thread === threadId);
  $("history").replaceChildren();
  $("history-title").textContent = `thread ${threadId}`;
  location.hash = `thread=${enc(threadId)}`;
  await loadHistoryPage();
  const first = checkpointId
    ? state.rows.find((r) => r.checkpoint_id === checkpointId) || state.rows[0]
    : state.rows.find((r) => !r.checkpoint_ns) || state.rows[0];
  if (first) await selectCheckpoint(first);
}

// -- a checkpoint ---------------------------------------------------------------------------

function isTranscript(value) {
  return Array.isArray(value) && value.length > 0 &&
    value.every((m) => m && typeof m === "object" && "content" in m && "type" in m);
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((b) => (b && b.text) || JSON.stringify(b)).join("\n");
  return JSON.stringify(content);
}

function transcript(messages) {
  return el("div", { class: "transcript" }, messages.map((m) => el("div", { class: `msg ${m.type}`, dataset: { id: m.id || "" } },
    el("div", { class: "role" }, m.type + (m.name ? ` · ${m.name}` : "") + (m.tool_call_id ? ` · answers ${m.tool_call_id}` : "")),
    el("div", { class: "text" }, contentText(m.content)),
    (m.tool_calls || []).map((c) => el("div", { class: "toolcall" }, `→ ${c.name}(${JSON.stringify(c.args)})  `, el("span", { class: "muted" }, c.id || ""))),
  )));
}

function tree(value, label, depth) {
  if (value === null || typeof value !== "object") {
    const kind = value === null ? "null" : typeof value === "string" ? "str" : "num";
    const text = typeof value === "string" ? JSON.stringify(value) : String(value);
    return el("div", { class: `leaf ${kind}` }, label !== undefined ? `${label}: ` : "", text);
  }
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const summary = Array.isArray(value) ? `[${value.length}]` : `{${entries.length}}`;
  const details = el("details", { class: "tree", open: depth < 2 || null },
    el("summary", {}, label !== undefined ? `${label} ${summary}` : summary));
  for (const [k, v] of entries) details.append(tree(v, k, depth + 1));
  return details;
}

function renderState(view) {
  const box = $("tab-state");
  box.replaceChildren();
  const values = view.values;
  if (values && typeof values === "object" && !Array.isArray(values)) {
    for (const [key, value] of Object.entries(values)) {
      box.append(el("div", { class: "key" }, key, isTranscript(value) ? el("span", { class: "muted" }, ` (${value.length} messages)`) : null));
      box.append(isTranscript(value) ? transcript(value) : tree(value, undefined, 0));
    }
    if (!Object.keys(values).length) box.append(el("p", { class: "muted" }, "no values yet"));
  } else {
    box.append(tree(values, undefined, 0));
  }
}

function renderTasks(view) {
  const box = $("tab-tasks");
  box.replaceChildren(el("p", {}, el("strong", {}, "next: "), view.next.length ? view.next.join(", ") : "(nothing: done)"));
  for (const task of view.tasks) {
    box.append(el("div", { class: "task", dataset: { task: task.name } },
      el("div", {}, el("strong", {}, task.name), " ", el("span", { class: "muted small" }, task.id)),
      task.writes.map(([channel, value]) => el("div", {}, el("span", { class: "muted" }, `writes ${channel}: `), tree(value, undefined, 1))),
      task.error !== null ? el("div", { class: "err" }, "error: " + (typeof task.error === "string" ? task.error : JSON.stringify(task.error))) : null,
      task.interrupts.map((i) => el("div", { class: "interrupt" }, "interrupt: ", tree(i.value !== undefined ? i.value : i, undefined, 1))),
    ));
  }
  if (!view.tasks.length) box.append(el("p", { class: "muted" }, "no task has run from this checkpoint yet"));
}

function renderMeta(view) {
  $("tab-meta").replaceChildren(tree({
    checkpoint_id: view.checkpoint_id, parent_checkpoint_id: view.parent_checkpoint_id,
    checkpoint_ns: view.checkpoint_ns, created_at: view.created_at, writes: view.writes,
    parents: view.parents, metadata: view.metadata,
  }, undefined, 0));
}

async function renderGraph(view) {
  const box = $("tab-graph");
  const params = new URLSearchParams({ thread: view.thread_id, checkpoint: view.checkpoint_id, ns: view.checkpoint_ns });
  try {
    const svg = await api(`api/graph.svg?${params}`);
    box.innerHTML = svg;
    box.prepend(el("div", { class: "legend" },
      el("span", {}, el("i", { style: "background:#fff3cd;border:1px solid #c98a00" }), "next"),
      el("span", {}, el("i", { style: "background:#e3f4e1;border:1px solid #2f8a3a" }), "made this checkpoint")));
  } catch (err) {
    box.replaceChildren(el("p", { class: "muted" }, err.message));
  }
}

async function selectCheckpoint(row) {
  state.selected = row;
  for (const node of $("history").children) node.classList.toggle("selected", node.dataset.checkpoint === row.checkpoint_id);
  const params = new URLSearchParams({ ns: row.checkpoint_ns });
  const view = await api(`api/threads/${enc(state.thread)}/checkpoints/${enc(row.checkpoint_id)}?${params}`);
  state.view = view;
  $("detail-head").replaceChildren(
    el("strong", {}, `step ${view.step}`), ` · ${view.source} · `, el("code", {}, view.checkpoint_id),
    view.checkpoint_ns ? ` · ${view.checkpoint_ns}` : "", ` · ${(view.created_at || "").replace("T", " ").slice(0, 19)}`);
  renderState(view);
  renderTasks(view);
  renderMeta(view);
  renderActions(view);
  if (!$("tab-graph").hidden) renderGraph(view);
  $("diff-a").value = view.checkpoint_id;
  location.hash = `thread=${enc(state.thread)}&checkpoint=${enc(view.checkpoint_id)}`;
}

// -- diff ---------------------------------------------------------------------------------

async function runDiff(a, b, otherThread) {
  const started = performance.now();
  const params = new URLSearchParams({ thread: state.thread, a, b });
  if (otherThread) params.set("other_thread", otherThread);
  const out = $("diff-out");
  try {
    const d = await api(`api/diff?${params}`);
    const show = (v) => JSON.stringify(v);
    const rows = [
      ...Object.entries(d.removed).map(([p, v]) => el("div", { class: "drow removed" }, "− ", el("span", { class: "path" }, p), ": ", show(v))),
      ...Object.entries(d.added).map(([p, v]) => el("div", { class: "drow added" }, "+ ", el("span", { class: "path" }, p), ": ", show(v))),
      ...Object.entries(d.changed).map(([p, c]) => el("div", { class: "drow changed" }, "~ ", el("span", { class: "path" }, p), ": ", show(c.old), " → ", show(c.new))),
    ];
    out.replaceChildren(el("p", { class: "muted small" }, `${d.thread_id}@${short(d.from)} → ${d.other_thread_id}@${short(d.to)}: `,
      `${Object.keys(d.added).length} added, ${Object.keys(d.removed).length} removed, ${Object.keys(d.changed).length} changed`), ...rows);
    if (!rows.length) out.append(el("p", { class: "muted" }, "no difference"));
  } catch (err) {
    out.replaceChildren(el("p", { class: "error" }, err.message));
  }
  window.fgTimings.diff = performance.now() - started;
}

function diffWith(row) {
  if (!state.selected) return selectCheckpoint(row);
  state.compare = row;
  for (const node of $("history").children) node.classList.toggle("compare", node.dataset.checkpoint === row.checkpoint_id);
  $("diff-a").value = state.selected.checkpoint_id;
  $("diff-b").value = row.checkpoint_id;
  $("diff-thread").value = "";
  showTab("diff");
  return runDiff(state.selected.checkpoint_id, row.checkpoint_id, "");
}

// -- actions ------------------------------------------------------------------------------

function renderActions(view) {
  const box = $("actions");
  box.replaceChildren();
  if (!CFG.writable) return;
  box.append(
    el("button", { id: "fork-button", onclick: () => openForkEditor(view) }, "Edit & fork"),
    el("button", { id: "replay-button", onclick: () => startRun("replay", { checkpoint_id: view.checkpoint_id }) }, "Re-run from here"),
  );
  if (view.interrupts.length && !view.checkpoint_ns) {
    for (const i of view.interrupts) {
      const input = el("input", { class: "answer", size: 24, placeholder: "answer as JSON, e.g. \"yes\"", value: "\"yes\"" });
      box.append(el("span", {}, input, el("button", {
        class: "answer-button",
        onclick: () => startRun("resume", { value: JSON.parse(input.value || "null"), interrupt_id: view.interrupts.length > 1 ? i.id : null }),
      }, "Answer interrupt")));
    }
  }
}

function openForkEditor(view) {
  const editor = el("textarea", { class: "editor", id: "fork-editor" }, JSON.stringify(view.values, null, 2));
  const asNode = el("input", { id: "fork-as-node", placeholder: "as node (optional)", size: 16 });
  const message = el("span", { class: "error" });
  const panel = el("div", { class: "panel", id: "fork-panel" },
    el("div", { class: "muted small", style: "padding:0 0 4px" }, "Change values; the changed keys are applied with update_state as a new branch."),
    editor, asNode, " ",
    el("button", { id: "fork-submit", onclick: async () => {
      try {
        const edited = JSON.parse(editor.value);
        const changed = {};
        for (const [k, v] of Object.entries(edited)) if (JSON.stringify(v) !== JSON.stringify(view.values[k])) changed[k] = v;
        const made = await post(`api/threads/${enc(view.thread_id)}/fork`, { checkpoint_id: view.checkpoint_id, values: changed, as_node: asNode.value });
        panel.remove();
        await openThread(view.thread_id, made.checkpoint_id);
      } catch (err) { message.textContent = err.message; }
    } }, "Fork"), " ", message);
  $("actions").after(panel);
}

async function startRun(kind, body) {
  const log = el("div", { class: "panel runlog", id: "run-log" }, `${kind}: started`);
  document.querySelectorAll("#run-log").forEach((n) => n.remove());
  $("actions").after(log);
  try {
    const { run_id } = await post(`api/threads/${enc(state.thread)}/${kind}`, body);
    for (;;) {
      const run = await api(`api/runs/${run_id}`);
      log.replaceChildren(el("div", {}, `${kind}: ${run.status}`), ...run.steps.map((s, n) =>
        el("div", { class: "runstep" }, `step ${n + 1}: `, Object.keys(s).join(", "))));
      if (run.status === "error") log.append(el("div", { class: "error" }, run.error));
      if (run.status !== "running") {
        if (run.status === "done") await openThread(state.thread, run.checkpoint_id);
        document.querySelectorAll("#run-log").forEach((n) => n.remove());
        $("actions").after(log);
        return;
      }
      await refreshHistory();
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    log.append(el("div", { class: "error" }, err.message));
  }
}

async function refreshHistory() {
  if (!state.thread) return;
  const rows = await api(`api/threads/${enc(state.thread)}/history?limit=1`);
  if (rows.length && state.rows.length && rows[0].checkpoint_id !== state.rows[0].checkpoint_id) {
    const keep = state.selected ? state.selected.checkpoint_id : null;
    await openThread(state.thread, keep);
  }
}

// -- tabs and wiring ----------------------------------------------------------------------

function showTab(name) {
  for (const b of $("tabs").children) b.classList.toggle("active", b.dataset.tab === name);
  for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${name}`;
  if (name === "graph" && state.view) renderGraph(state.view);
}

function start() {
  $("store").textContent = `${CFG.kind} · ${CFG.target}`;
  const mode = $("mode");
  if (CFG.writable) {
    mode.textContent = `graph ${CFG.graph}: fork, re-run, answer`;
    mode.classList.add("rw");
  } else {
    mode.textContent = `read-only: ${CFG.reason}`;
  }
  $("tabs").addEventListener("click", (e) => { if (e.target.dataset.tab) showTab(e.target.dataset.tab); });
  let timer = null;
  $("search").addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => loadThreads(true), 200); });
  $("status").addEventListener("change", () => loadThreads(true));
  $("more-threads").addEventListener("click", () => loadThreads(false));
  $("history-pane").addEventListener("scroll", () => {
    const pane = $("history-pane");
    if (pane.scrollTop + pane.clientHeight > pane.scrollHeight - 200) loadHistoryPage();
  });
  $("diff-form").addEventListener("submit", (e) => {
    e.preventDefault();
    runDiff($("diff-a").value.trim(), $("diff-b").value.trim(), $("diff-thread").value.trim());
  });
  $("live").addEventListener("change", () => {
    clearInterval(state.liveTimer);
    if ($("live").checked) state.liveTimer = setInterval(() => refreshHistory().catch(() => {}), 1000);
  });
  const hash = new URLSearchParams(location.hash.slice(1));
  loadThreads(true).then(() => {
    if (hash.get("thread")) openThread(hash.get("thread"), hash.get("checkpoint"));
  });
}

document.addEventListener("DOMContentLoaded", start);
