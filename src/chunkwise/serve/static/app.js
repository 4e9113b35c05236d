// chunkwise playground: plain JavaScript, no dependencies. Offsets from the server are
// Python str indices (code points); the document is kept as an array of code points.
"use strict";

const MAX_PANES = 3;
// the panes a page starts with: `chunkwise chunk`'s defaults (the server's "defaults"),
// then sentence and fixed windows (an eighth overlapping) at the same size
let DEFAULT_PANES = [];
function defaultPanes(d) {
  const base = { chunk_size: d.chunk_size, chunk_overlap: d.chunk_overlap, unit: d.unit };
  return [
    Object.assign({}, base, { strategy: d.strategy }),
    Object.assign({}, base, { strategy: "sentence" }),
    Object.assign({}, base, { strategy: "fixed", chunk_overlap: Math.floor(d.chunk_size / 8) }),
  ];
}
const app = { strategies: null, byName: {}, units: [], doc: null, panes: [], query: null, probes: null,
              // this page's panes are named apart from another tab's: the server runs only
              // the newest request of each pane
              session: Math.random().toString(36).slice(2), paneCount: 0 };

function $(sel, root) { return (root || document).querySelector(sel); }
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

async function api(path, options) {
  const res = await fetch(path, options);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  if (!res.ok) throw new Error((data && data.error) || `HTTP ${res.status}`);
  return data;
}

function showMessage(text) {
  const m = $("#message");
  m.textContent = text || "";
  m.hidden = !text;
}

// -- documents --------------------------------------------------------------------------

function setDocument(info) {
  app.doc = { id: info.doc, text: info.text, cps: Array.from(info.text), name: info.name };
  $("#docname").textContent = `${info.name} · ${app.doc.cps.length} characters` + (info.format ? ` · ${info.format}` : "");
  $("#docname").classList.remove("muted");
  document.body.dataset.doc = info.doc;
  showMessage("");
  for (const p of app.panes) p.rechunk();
}

async function loadText(text) {
  try {
    setDocument(await api("/api/document", { method: "POST", headers: { "Content-Type": "application/json" },
                                             body: JSON.stringify({ text }) }));
  } catch (e) { showMessage(e.message); }
}

async function loadPath(path) {
  try {
    setDocument(await api("/api/document", { method: "POST", headers: { "Content-Type": "application/json" },
                                             body: JSON.stringify({ path }) }));
  } catch (e) { showMessage(e.message); }
}

async function uploadFile(file) {
  try {
    setDocument(await api("/api/upload?name=" + encodeURIComponent(file.name),
                          { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file }));
  } catch (e) { showMessage(e.message); }
}

// -- panes ------------------------------------------------------------------------------

class Pane {
  constructor(config) {
    this.root = $("#pane-template").content.firstElementChild.cloneNode(true);
    this.version = 0;
    this.request = 0;
    this.key = `${app.session}-${++app.paneCount}`;
    this.queryRequest = 0;
    this.probeRequest = 0;
    this.timer = null;
    this.params = Object.assign({}, config.params || {});
    const strategy = $(".strategy", this.root);
    for (const s of app.strategies) strategy.append(el("option", { value: s.name, title: s.doc }, s.name));
    strategy.value = app.byName[config.strategy] ? config.strategy : app.strategies[0].name;
    const unit = $(".unit", this.root);
    for (const u of app.units) unit.append(el("option", { value: u }, u));
    unit.value = config.unit;
    $(".size", this.root).value = config.chunk_size;
    $(".size-slider", this.root).value = config.chunk_size;
    $(".overlap", this.root).value = config.chunk_overlap;
    this.buildParams();
    strategy.addEventListener("change", () => { this.params = {}; this.buildParams(); this.rechunk(); });
    unit.addEventListener("change", () => this.rechunk());
    $(".size-slider", this.root).addEventListener("input", (e) => {
      $(".size", this.root).value = e.target.value; this.rechunk(60);
    });
    $(".size", this.root).addEventListener("change", (e) => {
      $(".size-slider", this.root).value = e.target.value; this.rechunk();
    });
    $(".overlap", this.root).addEventListener("change", () => this.rechunk());
    $(".remove", this.root).addEventListener("click", () => this.remove());
    for (const b of this.root.querySelectorAll(".copy")) {
      b.addEventListener("click", () => copyText($(".code-" + b.dataset.what, this.root).textContent, b));
    }
    $("#panes").append(this.root);
    this.rechunk();
  }

  get strategy() { return app.byName[$(".strategy", this.root).value]; }

  buildParams() {
    const box = $(".params", this.root);
    box.replaceChildren();
    const s = this.strategy;
    for (const [key, def] of Object.entries(s.parameters)) {
      const value = key in this.params ? this.params[key] : def;
      let input;
      if (typeof def === "boolean") {
        input = el("input", { type: "checkbox" });
        input.checked = Boolean(value);
      } else if (typeof def === "number") {
        input = el("input", { type: "number", step: Number.isInteger(def) ? "1" : "any" });
        input.value = value === null ? "" : value;
      } else {
        input = el("input", { type: "text", placeholder: def === null ? "None" : "" });
        input.value = value === null || value === undefined ? "" : (typeof value === "string" ? value : JSON.stringify(value));
      }
      input.dataset.param = key;
      input.addEventListener("change", () => { this.readParam(input, key, def); this.rechunk(); });
      box.append(el("label", { for: "" }, key), input);
    }
  }

  readParam(input, key, def) {
    let v;
    if (input.type === "checkbox") v = input.checked;
    else if (input.type === "number") v = input.value === "" ? null : Number(input.value);
    else if (input.value.trim() === "") v = null;
    else { try { v = JSON.parse(input.value); } catch (e) { v = input.value; } }
    if (JSON.stringify(v) === JSON.stringify(def)) delete this.params[key]; else this.params[key] = v;
  }

  setParam(key, value) {
    this.params[key] = value;
    const input = this.root.querySelector(`[data-param="${key}"]`);
    if (input) input.value = typeof value === "string" ? value : JSON.stringify(value);
  }

  config() {
    return {
      strategy: this.strategy.name,
      unit: $(".unit", this.root).value,
      chunk_size: parseInt($(".size", this.root).value, 10),
      chunk_overlap: parseInt($(".overlap", this.root).value || "0", 10),
      params: this.params,
    };
  }

  remove() {
    this.root.remove();
    app.panes = app.panes.filter((p) => p !== this);
    updateAddButton();
  }

  rechunk(delay) {
    clearTimeout(this.timer);
    if (!app.doc) return;
    if (app.report) {  // a static report: the one answer embedded in the file
      this.render(app.report.data, this.config());
      this.root.dataset.version = String(++this.version);
      this.root.dataset.status = "ready";
      return;
    }
    this.root.dataset.status = "loading";
    this.timer = setTimeout(() => this.fetch(), delay || 0);
  }

  async fetch() {
    const id = ++this.request;
    const config = this.config();
    let data;
    try {
      data = await api("/api/chunk", { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify({ doc: app.doc.id, config, pane: this.key, seq: id }) });
    } catch (e) {
      if (id !== this.request) return;
      const box = $(".pane-error", this.root);
      box.textContent = e.message; box.hidden = false;
      this.root.dataset.status = "error";
      return;
    }
    if (id !== this.request) return;  // a newer request is on its way
    $(".pane-error", this.root).hidden = true;
    this.render(data, config);
    this.root.dataset.version = String(++this.version);
    this.root.dataset.status = "ready";
    if (app.query) this.search();
    if (app.probes) this.evaluate();
  }

  // The probe set's recall, precision and IoU for this configuration (top k = the query's k).
  async evaluate() {
    const id = ++this.probeRequest;
    const box = $(".probe", this.root);
    delete this.root.dataset.probe;
    if (!app.probes || !app.doc) { box.hidden = true; return; }
    box.hidden = false;
    box.textContent = "scoring the probe set…";
    const k = Math.max(1, parseInt($("#k").value || "3", 10));
    let data;
    try {
      data = await api("/api/evaluate", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ doc: app.doc.id, probes: app.probes.id, config: this.config(), k }) });
    } catch (e) {
      if (id === this.probeRequest) box.textContent = e.message;
      return;
    }
    if (id !== this.probeRequest) return;
    if (!data.means) {
      box.textContent = `probe set: none of its ${data.skipped} questions is about this document`;
    } else {
      const m = data.means;
      box.textContent = `probe set, ${data.questions} questions (top ${data.k}): recall ${m.recall.toFixed(3)} · ` +
        `precision ${m.precision.toFixed(3)} · IoU ${m.iou.toFixed(3)}` +
        (data.skipped ? ` · ${data.skipped} about other documents skipped` : "");
    }
    this.root.dataset.probe = JSON.stringify(data);
  }

  // The top-k chunks of this configuration for the query, outlined, with their scores.
  async search() {
    const id = ++this.queryRequest;
    const box = $(".hits", this.root);
    delete this.root.dataset.hits;
    for (const s of this.root.querySelectorAll(".doc span.hit")) s.classList.remove("hit");
    if (!app.query || !app.doc) { box.hidden = true; return; }
    let data;
    try {
      data = await api("/api/query", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ doc: app.doc.id, config: this.config(), query: app.query.text, k: app.query.k }) });
    } catch (e) {
      if (id !== this.queryRequest) return;
      box.textContent = e.message; box.hidden = false; return;
    }
    if (id !== this.queryRequest) return;
    const hit = new Map(data.hits.map((h, r) => [h.index, r]));
    for (const s of this.root.querySelectorAll(".doc span[data-chunks]")) {
      if (s.dataset.chunks.split(",").some((i) => hit.has(Number(i)))) s.classList.add("hit");
    }
    box.replaceChildren(el("span", {}, `top ${data.hits.length} for the query: `));
    for (const h of data.hits) {
      const a = el("a", { "data-index": h.index }, `#${h.index} (${h.score.toFixed(3)})`);
      a.addEventListener("click", () => {
        const target = this.root.querySelector(`.doc span[data-chunks="${h.index}"], .doc span[data-chunks^="${h.index},"]`);
        if (target) target.scrollIntoView({ block: "center" });
      });
      box.append(a);
    }
    box.hidden = false;
    this.root.dataset.hits = data.hits.map((h) => h.index).join(",");
  }

  render(data, config) {
    this.data = data;
    // a hierarchical strategy: the leaves are shown (what a retriever indexes, as in the statistics)
    const shown = data.chunks.filter((c) => !c.metadata || c.metadata.leaf !== false);
    const n = data.chunks.length;
    $(".summary", this.root).textContent = `${n} chunks` +
      (shown.length !== n ? ` (${shown.length} leaves shown)` : "") +
      ` · sizes in ${data.unit} · ${data.elapsed_ms.toFixed(1)} ms`;
    renderDoc($(".doc", this.root), shown, data.unit);
    renderStrip($(".strip", this.root), shown, data.chunk_size, data.unit);
    renderStats($(".stats", this.root), data.stats);
    $(".code-python", this.root).textContent = data.code.python;
    $(".code-cli", this.root).textContent = data.code.cli;
    const curve = $(".curve", this.root);
    if (data.semantic && data.semantic.similarities.length) {
      curve.hidden = false;
      renderCurve(curve, data.semantic, this);
    } else {
      curve.hidden = true;
      curve.replaceChildren();
    }
  }
}

function describe(c, unit) {
  const m = c.metadata || {};
  const parts = [`chunk ${c.index}: [${c.start}, ${c.end}) · ${c.size} ${unit}`, `cut after: ${c.boundary || "?"}`];
  if (m.header_path) parts.push("header path: " + (Array.isArray(m.header_path) ? m.header_path.join(" > ") : m.header_path));
  if (m.page_number !== undefined && m.page_number !== null) {
    parts.push("page: " + m.page_number + (m.page_end && m.page_end !== m.page_number ? "–" + m.page_end : ""));
  }
  if (m.speaker) parts.push("speaker: " + m.speaker);
  if (typeof m.boundary_similarity === "number") parts.push("similarity at the cut: " + m.boundary_similarity.toFixed(3));
  return parts.join("\n");
}

// The document as pieces between every chunk start and end: each piece coloured by the
// first chunk covering it (alternately), hatched where two chunks overlap.
function renderDoc(box, chunks, unit) {
  const cps = app.doc.cps;
  const points = new Set([0, cps.length]);
  for (const c of chunks) { points.add(c.start); points.add(c.end); }
  const xs = Array.from(points).sort((a, b) => a - b);
  const frag = document.createDocumentFragment();
  let lo = 0;
  for (let k = 0; k + 1 < xs.length; k++) {
    const a = xs[k], b = xs[k + 1];
    if (a >= b) continue;
    while (lo < chunks.length && chunks[lo].end <= a) lo++;
    const cover = [];
    for (let j = lo; j < chunks.length && chunks[j].start <= a; j++) if (chunks[j].end >= b) cover.push(chunks[j]);
    const text = cps.slice(a, b).join("");
    if (!cover.length) { frag.append(document.createTextNode(text)); continue; }
    const span = el("span", {
      class: "c" + (cover[0].index % 2) + (cover.length > 1 ? " ov" : ""),
      "data-chunks": cover.map((c) => c.index).join(","),
      "data-start": a, "data-end": b,
      title: cover.map((c) => describe(c, unit)).join("\n— overlaps —\n"),
    }, text);
    frag.append(span);
  }
  box.replaceChildren(frag);
}

function renderStrip(box, chunks, size, unit) {
  box.replaceChildren();
  const top = Math.max(size * 1.25, ...chunks.map((c) => c.size), 1);
  const limit = el("div", { class: "limit" });
  limit.style.bottom = (size / top * 100) + "%";
  box.append(limit);
  for (const c of chunks) {
    const bar = el("div", { class: "bar" + (c.index % 2 ? " odd" : "") + (c.size > size ? " over" : ""),
                            title: `chunk ${c.index}: ${c.size} ${unit} of ${size}` });
    bar.style.height = Math.max(1, c.size / top * 100) + "%";
    box.append(bar);
  }
}

function pct(x) { return (100 * x).toFixed(1) + "%"; }

function renderStats(box, s) {
  const rows = [
    ["chunks", s.chunks], ["size mean ± std", `${s.mean} ± ${s.std} ${s.unit}`], ["min / max", `${s.min} / ${s.max}`],
    ["fill", pct(s.fill)], ["mid-sentence", pct(s.mid_sentence)], ["heading only", pct(s.heading_only)],
    ["small", pct(s.small)],
  ];
  const total = Object.values(s.boundaries || {}).reduce((a, b) => a + b, 0) || 1;
  const mix = Object.entries(s.boundaries || {}).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${pct(v / total)}`);
  rows.push(["boundary mix", mix.join(", ")]);
  const table = el("table");
  for (const [k, v] of rows) {
    const tr = el("tr");
    tr.append(el("td", {}, k), el("td", {}, String(v)));
    table.append(tr);
  }
  const hist = el("span", { class: "hist", title: "sizes in ten bins of chunk_size, then oversize" });
  const peak = Math.max(1, ...(s.histogram || []));
  (s.histogram || []).forEach((v, i) => {
    const bar = el("i", { class: i === s.histogram.length - 1 ? "over" : "" });
    bar.style.height = Math.max(1, v / peak * 24) + "px";
    bar.title = String(v);
    hist.append(bar);
  });
  const tr = el("tr");
  const td = el("td");
  td.append(hist);
  tr.append(el("td", {}, "histogram"), td);
  table.append(tr);
  box.replaceChildren(table);
}

// The similarity of consecutive sentences, the threshold line (drag it: the pane switches
// to an absolute threshold at that similarity) and the semantic cuts.
function renderCurve(box, sem, pane) {
  const NS = "http://www.w3.org/2000/svg";
  const W = 600, H = 150, P = 6;
  const sims = sem.similarities.map((v) => (v === null ? 0 : v));
  const lo = Math.min(0, ...sims), hi = 1;
  const x = (i) => P + (sims.length > 1 ? i / (sims.length - 1) : 0.5) * (W - 2 * P);
  const y = (v) => P + (hi - v) / (hi - lo) * (H - 2 * P);
  const inv = (py) => hi - (py - P) / (H - 2 * P) * (hi - lo);
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("preserveAspectRatio", "none");
  const add = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); svg.append(e); return e; };
  for (const c of sem.cuts) add("line", { x1: x(c), x2: x(c), y1: 0, y2: H, stroke: "#4a7", "stroke-width": 1, opacity: 0.6 });
  add("polyline", { points: sims.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#36c", "stroke-width": 1.2 });
  let thr = null;
  if (sem.threshold !== null && sem.threshold !== undefined) {
    thr = add("line", { x1: 0, x2: W, y1: y(sem.threshold), y2: y(sem.threshold), stroke: "#c33", "stroke-width": 2,
                        "stroke-dasharray": "6 3", class: "threshold" });
  }
  const hint = el("div", { class: "hint muted" },
    `similarity of consecutive sentences (${sims.length}); threshold ${sem.threshold_type}` +
    (sem.threshold !== null ? ` = similarity ${sem.threshold.toFixed(3)}` : "") +
    (app.report ? " (a static report: run chunkwise serve to move it)" : " — drag vertically to move it"));
  let dragging = false;
  const valueAt = (ev) => {
    const r = svg.getBoundingClientRect();
    return Math.max(-1, Math.min(1, inv((ev.clientY - r.top) / r.height * H)));
  };
  svg.addEventListener("pointerdown", (ev) => { if (app.report) return; dragging = true; svg.setPointerCapture(ev.pointerId); move(ev); });
  svg.addEventListener("pointermove", (ev) => { if (dragging) move(ev); });
  svg.addEventListener("pointerup", (ev) => {
    if (!dragging) return;
    dragging = false;
    const v = Math.round(valueAt(ev) * 1000) / 1000;
    pane.setParam("threshold_type", "absolute");
    pane.setParam("threshold", v);
    pane.rechunk();
  });
  function move(ev) {
    const v = valueAt(ev);
    if (!thr) thr = add("line", { x1: 0, x2: W, stroke: "#c33", "stroke-width": 2, "stroke-dasharray": "6 3", class: "threshold" });
    thr.setAttribute("y1", y(v)); thr.setAttribute("y2", y(v));
    hint.textContent = `release to cut at similarity ${v.toFixed(3)} (absolute threshold)`;
  }
  box.replaceChildren(svg, hint);
}

function copyText(text, button) {
  const done = () => { const t = button.textContent; button.textContent = "Copied"; setTimeout(() => { button.textContent = t; }, 900); };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, () => {});
  else {
    const ta = el("textarea"); ta.value = text; document.body.append(ta); ta.select();
    try { document.execCommand("copy"); done(); } catch (e) { /* nothing to do */ }
    ta.remove();
  }
}

function addPane(config) {
  if (app.panes.length >= MAX_PANES) return;
  app.panes.push(new Pane(config));
  updateAddButton();
}

function updateAddButton() { $("#add-pane").disabled = app.panes.length >= MAX_PANES; }

// A report written by `chunkwise inspect --html`: one configuration, no server.
function startReport(R) {
  app.report = R;
  app.strategies = R.strategies.strategies;
  app.units = R.strategies.units;
  for (const s of app.strategies) app.byName[s.name] = s;
  for (const sel of ["#paste-box", "#upload", "#files-box", "#add-pane", "#query-bar"]) {
    const e = $(sel); if (e) (e.closest("label.button") || e).hidden = true;
  }
  app.doc = { id: R.doc.doc, text: R.doc.text, cps: Array.from(R.doc.text), name: R.doc.name };
  $("#docname").textContent = `${R.doc.name} · ${app.doc.cps.length} characters` + (R.doc.format ? ` · ${R.doc.format}` : "");
  addPane(R.config);
  const pane = app.panes[0];
  for (const e of pane.root.querySelectorAll("select, input, button.remove")) e.disabled = true;
  $(".code-box", pane.root).open = true;
  document.body.dataset.ready = "1";
}

async function main() {
  if (window.CHUNKWISE_REPORT) { startReport(window.CHUNKWISE_REPORT); return; }
  const data = await api("/api/strategies");
  app.strategies = data.strategies;
  app.units = data.units;
  DEFAULT_PANES = defaultPanes(data.defaults);
  for (const s of app.strategies) app.byName[s.name] = s;
  const files = await api("/api/files");
  if (files.files.length) {
    const sel = $("#files");
    for (const f of files.files) sel.append(el("option", { value: f }, f));
    $("#files-box").hidden = false;
    $("#open-file").addEventListener("click", () => loadPath(sel.value));
  }
  $("#use-text").addEventListener("click", () => loadText($("#paste").value));
  $("#upload").addEventListener("change", (e) => { if (e.target.files.length) uploadFile(e.target.files[0]); });
  document.addEventListener("dragover", (e) => { e.preventDefault(); document.body.classList.add("dragging"); });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (e) => {
    e.preventDefault(); document.body.classList.remove("dragging");
    if (e.dataTransfer.files.length) uploadFile(e.dataTransfer.files[0]);
  });
  $("#query-bar").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("#query").value.trim();
    app.query = text ? { text, k: Math.max(1, parseInt($("#k").value || "3", 10)) } : null;
    for (const p of app.panes) p.search();
  });
  $("#probes").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const info = await api("/api/probes?name=" + encodeURIComponent(file.name),
                             { method: "POST", headers: { "Content-Type": "application/octet-stream" }, body: file });
      app.probes = { id: info.probes, name: info.name };
      $("#probes-name").textContent = `${info.name}: ${info.questions} questions`;
      showMessage("");
      for (const p of app.panes) p.evaluate();
    } catch (err) { showMessage(err.message); }
    e.target.value = "";
  });
  $("#clear-query").addEventListener("click", () => {
    $("#query").value = ""; app.query = null;
    for (const p of app.panes) p.search();
  });
  $("#add-pane").addEventListener("click", () => addPane(DEFAULT_PANES[app.panes.length] || DEFAULT_PANES[0]));
  addPane(DEFAULT_PANES[0]);
  addPane(DEFAULT_PANES[1]);
  if (files.open) await loadPath(files.open);  // a file named on the command line
  document.body.dataset.ready = "1";
}

main().catch((e) => showMessage("cannot start: " + e.message));
