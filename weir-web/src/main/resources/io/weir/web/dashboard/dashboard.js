// Weir dashboard: the job list, and per job its task graph, data in flight, charts, checkpoint
// durations and timeline, and recovery, polled from /api/v1/ once a second.
"use strict";

const POLL_MILLIS = 1000;
const CHART_POINTS = 120;
const state = { token: null, timer: null, jobId: null, series: null, charts: null, durationChart: null,
  selected: null, shownCheckpoints: null, pinned: false };

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function svg(tag, attributes, text) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

class AccessError extends Error {}

async function api(path) {
  const headers = state.token ? { Authorization: "Bearer " + state.token } : {};
  const response = await fetch("/api/v1/" + path, { headers });
  if (response.status === 401) throw new AccessError((await response.json()).error);
  if (!response.ok) throw new Error(path + ": HTTP " + response.status);
  return response.json();
}

function showAccess(message, isError) {
  const banner = document.getElementById("access");
  banner.hidden = !message;
  banner.textContent = message || "";
  banner.className = isError ? "banner error" : "banner";
}

function time(millis) {
  return millis ? new Date(millis).toLocaleTimeString() : "-";
}

async function start() {
  state.token = sessionStorage.getItem("weir-token");
  const access = await api("access");
  if (access.tokenRequired && !state.token) {
    askForToken("This cluster's dashboard needs its token (weir cluster dashboard-token prints it).");
    return;
  }
  window.addEventListener("hashchange", route);
  route();
}

// The token goes from this form into the session's storage and the Authorization header, never
// into a URL, where histories, proxies and Referer headers would keep it.
function askForToken(message) {
  clearInterval(state.timer);
  sessionStorage.removeItem("weir-token");
  state.token = null;
  showAccess(message, true);
  const input = el("input", { id: "token", type: "password", autocomplete: "off", size: "48" });
  const form = el("form", { id: "sign-in" }, el("label", { for: "token" }, "Token "), input,
    el("button", { type: "submit" }, "Open"));
  form.addEventListener("submit", event => {
    event.preventDefault();
    state.token = input.value.trim();
    sessionStorage.setItem("weir-token", state.token);
    window.removeEventListener("hashchange", route);
    window.addEventListener("hashchange", route);
    route();
  });
  document.getElementById("page").replaceChildren(form);
  input.focus();
}

function route() {
  clearInterval(state.timer);
  const match = location.hash.match(/^#\/jobs\/([^/]+)/);
  state.jobId = match ? decodeURIComponent(match[1]) : null;
  state.series = null;
  state.charts = null;
  state.selected = null;
  state.shownCheckpoints = null;
  state.pinned = false;
  const refresh = state.jobId ? refreshJob : refreshJobs;
  const tick = () => refresh().then(() => showAccess(null), failed);
  tick();
  state.timer = setInterval(tick, POLL_MILLIS);
}

function failed(error) {
  if (error instanceof AccessError) {
    askForToken("Access refused: " + error.message);
  } else {
    showAccess("The job manager does not answer: " + error.message, true);
  }
}

async function refreshJobs() {
  const { jobs } = await api("jobs");
  const rows = jobs.map(job => el("tr", { class: "job-row" },
    el("td", {}, el("a", { href: "#/jobs/" + encodeURIComponent(job.id) }, job.name)),
    el("td", {}, job.id), el("td", { class: "job-status" }, job.status),
    el("td", {}, time(job.startMillis)),
    el("td", { class: "number" }, job.lastCompletedCheckpoint ?? "-")));
  const table = el("table", { id: "jobs" },
    el("tr", {}, ...["job", "id", "status", "started", "last completed checkpoint"].map(h => el("th", {}, h))),
    ...rows);
  document.getElementById("page").replaceChildren(el("h2", {}, "Jobs"), table);
  document.getElementById("status-line").textContent = jobs.length + " job(s)";
}

async function refreshJob() {
  const id = encodeURIComponent(state.jobId);
  const [job, checkpoints, kafka, recovery] = await Promise.all([
    api("jobs/" + id), api("jobs/" + id + "/checkpoints"), api("jobs/" + id + "/kafka"),
    api("jobs/" + id + "/recovery")]);
  if (!state.charts) buildJobPage(job);
  document.getElementById("status-line").textContent =
    job.name + " · " + job.status + " · attempt " + job.attempt + " · restarts " + job.restarts;
  document.getElementById("job-failure").textContent =
    job.lastFailure ? "last failure: " + job.lastFailure : "";
  renderSubtasks(job);
  renderInFlight(job);
  updateCharts(job, kafka);
  updateCheckpointDurations(checkpoints.checkpoints);
  renderCheckpoints(checkpoints.checkpoints);
  renderKafka(kafka);
  renderRecovery(recovery);
}

function buildJobPage(job) {
  const graph = el("div", { class: "graph", id: "task-graph" });
  job.tasks.forEach((task, index) => {
    if (index > 0) graph.append(el("div", { class: "edge" }, "──▶"));
    const box = el("div", { class: "task", "data-task": task.id },
      el("div", { class: "task-title" }, "task " + (index + 1) + " · parallelism " + task.parallelism));
    task.operators.forEach(op => box.append(el("div", { class: "operator " + op.role }, op.name)));
    if ((task.inputs || []).some(input => input.input === 2)) {
      task.inputs.forEach(input => box.append(el("div", { class: "task-input" },
        "input " + input.input + " ◀ " + input.fromTaskName + " (" + input.partitioning + ")")));
    }
    graph.append(box);
  });
  const charts = el("div", { class: "charts" });
  state.series = { time: [], in: [], out: [], lag: [], backpressure: [], inFlight: [] };
  state.charts = {
    throughput: chart(charts, "throughput-chart", "Throughput (records/s)", ["in", "out"]),
    lag: chart(charts, "lag-chart", "Source lag (records)", ["lag"]),
    backpressure: chart(charts, "backpressure-chart", "Backpressure (max share of time blocked)", ["blocked"]),
    inFlight: chart(charts, "in-flight-chart", "In flight (bytes queued in input gates)", ["bytes"]),
  };
  const durations = el("div", { class: "charts" });
  state.durationChart = chart(durations, "checkpoint-durations-chart",
    "Checkpoint duration (ms), by checkpoint id", ["duration"], { x: { time: false } });
  document.getElementById("page").replaceChildren(
    el("h2", {}, "Task graph (chains)"), graph, el("div", { id: "job-failure", class: "failure" }),
    el("h2", {}, "Subtasks"), el("div", { id: "subtasks" }),
    el("h2", {}, "In flight, by input channel"), el("div", { id: "in-flight" }),
    el("h2", {}, "Throughput, lag, backpressure and data in flight"), charts,
    el("h2", {}, "Checkpoints"), durations,
    el("div", { class: "checkpoint-list", id: "checkpoint-list" }),
    el("div", { id: "checkpoint-detail" }),
    el("h2", {}, "Kafka"), el("div", { id: "kafka" }),
    el("h2", {}, "Recovery"), el("div", { id: "recovery" }));
}

function chart(parent, id, title, names, scales) {
  const box = el("div", { class: "chart", id, "data-points": "0" }, el("h3", {}, title));
  parent.append(box);
  const colors = ["#1f77b4", "#ff7f0e"];
  const series = [{}].concat(names.map((label, i) => ({ label, stroke: colors[i % 2], width: 2 })));
  const data = [[]].concat(names.map(() => []));
  const options = { width: 420, height: 180, series, axes: [{}, { size: 60 }] };
  if (scales) options.scales = scales;
  return { box, plot: new uPlot(options, data, box) };
}

function push(array, value) {
  array.push(value);
  if (array.length > CHART_POINTS) array.shift();
}

function updateCharts(job, kafka) {
  const s = state.series;
  let inRate = 0, outRate = 0, blocked = 0;
  job.tasks.forEach((task, index) => task.subtasks.forEach(sub => {
    if (index === 0) inRate += sub.recordsInPerSecond;
    if (index === job.tasks.length - 1) outRate += sub.recordsOutPerSecond;
    blocked = Math.max(blocked, sub.backpressureRatio);
  }));
  const lag = kafka.partitions.reduce((sum, p) => sum + Math.max(0, p.lag), 0);
  const inFlight = inputChannels(job).reduce((sum, c) => sum + Math.max(0, c.queuedBytes), 0);
  push(s.time, Date.now() / 1000);
  push(s.in, inRate); push(s.out, outRate); push(s.lag, lag); push(s.backpressure, blocked);
  push(s.inFlight, inFlight);
  state.charts.throughput.plot.setData([s.time, s.in, s.out]);
  state.charts.lag.plot.setData([s.time, s.lag]);
  state.charts.backpressure.plot.setData([s.time, s.backpressure]);
  state.charts.inFlight.plot.setData([s.time, s.inFlight]);
  for (const c of Object.values(state.charts)) c.box.setAttribute("data-points", String(s.time.length));
  state.charts.lag.box.setAttribute("data-last", String(lag));
}

function renderSubtasks(job) {
  const header = ["task", "subtask", "state", "records in", "records out", "in/s", "out/s",
    "backpressure", "watermark"];
  const rows = [];
  job.tasks.forEach(task => task.subtasks.forEach(sub => rows.push(el("tr", { class: "subtask-row" },
    el("td", {}, task.name), el("td", { class: "number" }, sub.index), el("td", {}, sub.state),
    el("td", { class: "number" }, sub.recordsIn), el("td", { class: "number" }, sub.recordsOut),
    el("td", { class: "number" }, sub.recordsInPerSecond.toFixed(0)),
    el("td", { class: "number" }, sub.recordsOutPerSecond.toFixed(0)),
    el("td", { class: "number" }, (100 * sub.backpressureRatio).toFixed(0) + " %"),
    el("td", {}, sub.watermark === null ? "-" : sub.watermark)))));
  document.getElementById("subtasks").replaceChildren(
    el("table", {}, el("tr", {}, ...header.map(h => el("th", {}, h))), ...rows));
}

/** Every input channel of every subtask, named by the upstream subtask that sends on it. */
function inputChannels(job) {
  const parallelism = Object.fromEntries(job.tasks.map(task => [task.id, task.parallelism]));
  const channels = [];
  job.tasks.forEach(task => task.subtasks.forEach(sub => (sub.inputChannels || []).forEach(channel => {
    let first = 0;
    let from = "channel " + channel.channel;
    for (const input of task.inputs || []) {
      const count = parallelism[input.fromTaskId] || 0;
      if (channel.channel < first + count) {
        from = input.fromTaskName + " #" + (channel.channel - first);
        break;
      }
      first += count;
    }
    channels.push({ ...channel, task: task.name, subtask: sub.index, from });
  })));
  return channels;
}

function bytes(count) {
  if (count < 0) return "?";
  if (count < 1024) return count + " B";
  return count < 1024 * 1024 ? (count / 1024).toFixed(1) + " KiB" : (count / 1024 / 1024).toFixed(1) + " MiB";
}

function renderInFlight(job) {
  const channels = inputChannels(job);
  const most = Math.max(1, ...channels.map(c => c.queuedBytes));
  const rows = channels.map(c => el("tr", { class: "channel-row", "data-bytes": String(c.queuedBytes) },
    el("td", {}, c.task), el("td", { class: "number" }, c.subtask), el("td", {}, c.from),
    el("td", { class: "number" }, c.queuedRecords), el("td", { class: "number" }, bytes(c.queuedBytes)),
    el("td", {}, el("div", { class: "in-flight-bar",
      style: "width:" + Math.round(100 * Math.max(0, c.queuedBytes) / most) + "px" })),
    el("td", { class: "number" }, c.creditRecords)));
  document.getElementById("in-flight").replaceChildren(channels.length === 0
    ? el("p", { class: "muted" }, "No input channels.")
    : el("table", {}, el("tr", {}, ...["task", "subtask", "from", "records queued", "bytes (estimated)", "",
      "credit (records a batch)"].map(h => el("th", {}, h))), ...rows));
}

/** Completed checkpoints' durations, oldest first, beside the timeline of the one selected. */
function updateCheckpointDurations(checkpoints) {
  const completed = checkpoints.filter(c => c.status === "COMPLETED").slice().reverse();
  const durations = state.durationChart;
  durations.plot.setData([completed.map(c => c.id), completed.map(c => c.durationMillis)]);
  durations.box.setAttribute("data-points", String(completed.length));
  durations.box.setAttribute("data-last",
    completed.length ? String(completed[completed.length - 1].durationMillis) : "");
}

function renderCheckpoints(checkpoints) {
  // Redraw only what changed: a timeline being read (or clicked) must not flicker every second.
  // Until one is clicked, follow the newest checkpoint whose protocol has run to its end.
  const done = checkpoints.filter(c => c.status !== "IN_PROGRESS");
  if (!state.pinned || !checkpoints.some(c => c.id === state.selected)) {
    const newest = done.find(c => c.status === "COMPLETED" && c.subtasks.every(
      s => s.notifications.length > 0)) || done[0];
    state.selected = newest ? newest.id : null;
  }
  const shown = JSON.stringify([state.selected, checkpoints]);
  if (shown === state.shownCheckpoints) return;
  state.shownCheckpoints = shown;
  const list = document.getElementById("checkpoint-list");
  list.replaceChildren(...checkpoints.slice(0, 20).map(c => {
    const button = el("button", { class: c.status + (c.id === state.selected ? " selected" : ""),
      "data-checkpoint": c.id, title: c.status }, c.kind + " " + c.id);
    button.onclick = () => { state.selected = c.id; state.pinned = true; renderCheckpoints(checkpoints); };
    return button;
  }));
  const checkpoint = checkpoints.find(c => c.id === state.selected);
  document.getElementById("checkpoint-detail").replaceChildren(
    checkpoint ? timeline(checkpoint) : el("p", { class: "muted" }, "No checkpoint yet."));
}

/** The protocol of one checkpoint on one time axis: trigger, barriers, acks, _metadata, notifications. */
function timeline(c) {
  const rows = [{ label: "job manager", marks: [], bars: [] }];
  const t0 = c.triggerMillis;
  rows[0].marks.push({ at: t0, text: "trigger", cls: "trigger" });
  if (c.metadataMillis) rows[0].marks.push({ at: c.metadataMillis, text: "_metadata", cls: "metadata" });
  if (c.notifiedMillis) rows[0].marks.push({ at: c.notifiedMillis, text: "notify", cls: "notify" });
  for (const step of c.subtasks) {
    const row = { label: step.taskName + " #" + step.subtask, marks: [], bars: [], step };
    if (step.barrierMillis) row.bars.push({ from: step.barrierMillis, to: step.barrierMillis + step.alignmentMillis,
      text: "align " + step.alignmentMillis + " ms", cls: "alignment" });
    if (step.ackMillis) row.marks.push({ at: step.ackMillis, text: "ack", cls: "ack" });
    step.notifications.forEach((n, i) => row.bars.push({ from: n.startMillis, to: n.endMillis,
      text: (i + 1) + ". " + n.operatorName + (n.sink ? " " + n.outcome.toLowerCase() : ""),
      cls: n.sink ? "commit" : "notification", outcome: n.outcome }));
    rows.push(row);
  }
  const times = [t0];
  rows.forEach(r => { r.marks.forEach(m => times.push(m.at)); r.bars.forEach(b => times.push(b.from, b.to)); });
  const span = Math.max(1, Math.max(...times) - t0);
  const width = 900, left = 240, rowHeight = 34, height = 30 + rows.length * rowHeight;
  const x = at => left + (at - t0) / span * (width - left - 120);
  const root = svg("svg", { id: "checkpoint-timeline", width, height, "data-checkpoint": c.id,
    "data-status": c.status });
  root.append(svg("text", { x: 8, y: 16 }, c.kind + " " + c.id + " · " + c.status + " · "
    + c.durationMillis + " ms · " + c.sizeBytes + " bytes" + (c.failure ? " · " + c.failure : "")));
  rows.forEach((row, i) => {
    const y = 30 + i * rowHeight;
    root.append(svg("text", { x: 8, y: y + 14 }, row.label));
    root.append(svg("line", { x1: left, x2: width - 10, y1: y + 10, y2: y + 10, stroke: "#e3e6ea" }));
    row.bars.forEach((bar, j) => {
      const attributes = { class: bar.cls, x: x(bar.from), y: y + 2 + (j % 2) * 10,
        width: Math.max(3, x(bar.to) - x(bar.from)), height: 9,
        fill: bar.cls === "commit" ? (bar.outcome === "COMMITTED" ? "#2e9e44" : "#d9534f")
          : bar.cls === "alignment" ? "#9bb7d4" : "#b9a0d8" };
      if (row.step) { attributes["data-task"] = row.step.taskId; attributes["data-subtask"] = row.step.subtask; }
      const rect = svg("rect", attributes);
      rect.append(svg("title", {}, bar.text + " (" + (bar.from - t0) + "–" + (bar.to - t0) + " ms)"));
      root.append(rect);
      root.append(svg("text", { x: x(bar.to) + 4, y: y + 10 + (j % 2) * 10 }, bar.text));
    });
    row.marks.forEach((mark, k) => {
      const attributes = { class: mark.cls, cx: x(mark.at), cy: y + 10, r: 5,
        fill: mark.cls === "ack" ? "#1f77b4" : "#18324a" };
      if (row.step) { attributes["data-task"] = row.step.taskId; attributes["data-subtask"] = row.step.subtask; }
      root.append(svg("circle", attributes));
      // Marks close together (_metadata, notify) alternate their labels below and above the line.
      root.append(svg("text", { x: x(mark.at) + 7, y: y + (k % 2 === 0 ? 24 : 0) },
        mark.text + " +" + (mark.at - t0) + " ms"));
    });
  });
  return root;
}

function renderKafka(kafka) {
  const parts = [];
  if (kafka.error) parts.push(el("p", { class: "failure" }, kafka.error));
  const partitionRows = kafka.partitions.map(p => el("tr", {},
    el("td", {}, p.operatorName), el("td", {}, p.topic + "-" + p.partition),
    el("td", { class: "number" }, p.position), el("td", { class: "number" }, p.endOffset),
    el("td", { class: "number" }, p.lag)));
  parts.push(el("table", { id: "kafka-partitions" },
    el("tr", {}, ...["source", "partition", "position", "end offset", "lag"].map(h => el("th", {}, h))),
    ...partitionRows));
  const transactionRows = [];
  kafka.sinks.forEach(sink => sink.transactions.forEach(t => transactionRows.push(el("tr", {},
    el("td", {}, sink.operatorName), el("td", {}, t.transactionalId), el("td", { class: "number" }, t.subtask),
    el("td", { class: "number" }, t.producerId + "/" + t.producerEpoch), el("td", {}, t.state),
    el("td", { class: "number" }, t.ageMillis < 0 ? "?" : t.ageMillis + " ms")))));
  const subtaskRows = [];
  kafka.sinks.forEach(sink => (sink.subtasks || []).forEach(s =>
    [s.open, ...s.pending].filter(t => t).forEach(t => subtaskRows.push(el("tr", {},
      el("td", {}, sink.operatorName), el("td", { class: "number" }, s.subtask),
      el("td", { class: "stage" }, t.checkpointId === null ? "open" : "pending"),
      el("td", { class: "number" }, t.checkpointId === null ? "" : t.checkpointId),
      el("td", {}, t.transactionalId),
      el("td", { class: "number" }, t.producerId < 0 ? "-" : t.producerId + "/" + t.producerEpoch),
      el("td", { class: "number" }, t.ageMillis + " ms"),
      el("td", { class: "number" }, t.records < 0 ? "?" : t.records))))));
  parts.push(el("h3", {}, "Sink transactions: open, and pending until their checkpoint's notification"));
  parts.push(el("table", { id: "kafka-sink-transactions" },
    el("tr", {}, ...["sink", "subtask", "stage", "checkpoint", "transactional id", "producer id/epoch", "age", "records"]
      .map(h => el("th", {}, h))),
    ...subtaskRows));
  parts.push(el("h3", {}, "Open on the broker"));
  parts.push(el("table", { id: "kafka-transactions" },
    el("tr", {}, ...["sink", "transactional id", "subtask", "producer id/epoch", "state", "age"].map(h => el("th", {}, h))),
    ...transactionRows));
  document.getElementById("kafka").replaceChildren(...parts);
}

function renderRecovery(recovery) {
  const text = recovery.restoredFrom === "nothing"
    ? "Attempt " + recovery.attempt + " started without state."
    : "Attempt " + recovery.attempt + " restored " + recovery.restoredFrom + " " + recovery.checkpointId
      + " from " + recovery.location + ": the sinks commit the pending transactions it records and abort the open ones.";
  const parts = [el("p", { id: "recovery-summary" }, text)];
  if (recovery.lastFailure) parts.push(el("p", { class: "failure" }, "last failure: " + recovery.lastFailure));
  if (recovery.transactions && recovery.transactions.length > 0) {
    parts.push(el("table", { id: "recovery-transactions" },
      el("tr", {}, ...["sink", "checkpoint", "transaction", "records", "outcome", "proof"].map(h => el("th", {}, h))),
      ...recovery.transactions.map(t => el("tr", { class: t.outcome === "ABORTED" ? "failure" : "" },
        el("td", {}, t.sinkName), el("td", { class: "number" }, t.checkpointId),
        el("td", {}, t.transaction), el("td", { class: "number" }, t.records < 0 ? "?" : t.records),
        el("td", { class: "outcome" }, t.outcome.toLowerCase().replace("_", " ")), el("td", {}, t.proof)))));
  }
  if (recovery.explanation) parts.push(el("pre", { id: "recovery-explanation" }, recovery.explanation));
  document.getElementById("recovery").replaceChildren(...parts);
}

start().catch(failed);
