// Proofline console: keeps the server-rendered dashboard live from the pipeline's server-sent events
// and draws the last minutes of RSS, reserved budget and partitions holding a/b/c with uPlot.
// Without JavaScript the page still shows the figures as of loading it.
(function () {
  "use strict";

  var UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

  // Same rules as io.proofline.web.console.Units#bytes: binary units, three significant digits.
  function signedBytes(n) {
    return n < 0 ? "\u2212" + bytes(-n) : bytes(n);
  }

  function bytes(n) {
    if (n == null || n < 0) return "–";
    if (n < 1024) return n + " B";
    var unit = Math.floor(Math.log2(n) / 10);
    var v = n / Math.pow(1024, unit);
    if (v >= 999.5 && unit + 1 < UNITS.length) { unit++; v /= 1024; }
    var s = v < 9.995 ? v.toFixed(2) : v < 99.95 ? v.toFixed(1) : v.toFixed(0);
    return s + " " + UNITS[unit];
  }

  // Same as BufferTable#heat: log scale of a cell's bytes against the largest cell.
  function heat(b, max) {
    if (b <= 0 || max <= 0) return 0;
    return 0.12 + 0.88 * Math.max(0, 1 - Math.log10(max / b) / 3);
  }

  function setText(root, field, text) {
    var el = root.querySelector('[data-field="' + field + '"]');
    if (el && el.textContent !== String(text)) el.textContent = text;
  }

  function updateTable(s) {
    var table = document.getElementById("buffer-table");
    if (!table) return;
    var max = 0, perClass = {};
    s.cells.forEach(function (c) { if (c.bytes > max) max = c.bytes; });
    s.cells.forEach(function (c) {
      var t = perClass[c.bufferClass] || (perClass[c.bufferClass] = {count: 0, bytes: 0});
      t.count += c.count; t.bytes += c.bytes;
      var td = table.querySelector('tr[data-class="' + c.bufferClass + '"] td[data-stage="' + c.stage + '"]');
      if (!td) return;
      var empty = c.count === 0 && c.bytes === 0;
      td.querySelector(".count").textContent = c.count;
      td.querySelector(".bytes").textContent = empty ? "" : bytes(c.bytes);
      td.classList.toggle("zero", empty);
      td.classList.toggle("hot", !empty);
      if (empty) td.style.removeProperty("--heat"); else td.style.setProperty("--heat", heat(c.bytes, max).toFixed(3));
    });
    Object.keys(perClass).forEach(function (k) {
      var td = table.querySelector('tr[data-class="' + k + '"] td[data-stage="TOTAL"]');
      if (!td) return;
      td.querySelector(".count").textContent = perClass[k].count;
      td.querySelector(".bytes").textContent = bytes(perClass[k].bytes);
    });
  }

  function updateFigures(s) {
    var mem = document.getElementById("memory");
    if (mem) {
      var p = s.process, b = s.budget;
      setText(mem, "rss", bytes(p.rssBytes));
      setText(mem, "rssPeak", bytes(p.rssPeakBytes));
      setText(mem, "reserved", bytes(b.reservedBytes));
      setText(mem, "budget", bytes(b.totalBytes));
      setText(mem, "reservedPeak", bytes(b.peakReservedBytes));
      setText(mem, "heap", bytes(p.heapUsedBytes));
      setText(mem, "heapCommitted", bytes(p.heapCommittedBytes));
      setText(mem, "heapAfterGc", bytes(p.heapAfterGcBytes));
      setText(mem, "heapMax", bytes(p.heapMaxBytes));
      setText(mem, "offHeap", bytes(p.offHeapBytes));
      setText(mem, "offHeapBuffers", p.offHeapBuffers);
      if (s.memory) setText(mem, "unaccounted", signedBytes(s.memory.unaccountedBytes));
      var fill = mem.querySelector('[data-field="reservedBar"]');
      if (fill) fill.style.width = (b.totalBytes > 0 ? Math.min(100, 100 * b.reservedBytes / b.totalBytes) : 0) + "%";
      (s.devices || []).forEach(function (d) {
        var row = mem.querySelector('tr[data-device="' + d.id + '"]');
        if (!row) return;
        setText(row, "busy", d.busyWorkers);
        setText(row, "used", bytes(d.memory.usedBytes));
        setText(row, "free", bytes(d.memory.freeBytes));
        setText(row, "keyBytes", bytes(d.memory.keyBytes));
        setText(row, "keyBuffers", d.memory.keyBuffers);
        setText(row, "scratchBytes", bytes(d.memory.scratchBytes));
        setText(row, "scratchBuffers", d.memory.scratchBuffers);
        setText(row, "breaker", String(d.breakerState).toLowerCase());
      });
    }
    var q = document.getElementById("queues");
    if (q && s.queues) {
      ["queued", "synthesizing", "awaitingDevice", "proving", "finalizing"].forEach(function (k) {
        setText(q, k, s.queues[k]);
      });
    }
    var taken = document.getElementById("taken-at");
    if (taken && s.takenAt) {
      var d = new Date(s.takenAt);
      taken.textContent = d.toISOString().substring(11, 19) + " UTC";
    }
  }

  // Partitions whose a/b/c vectors are alive: from synthesis until prove start returns (DESIGN §3).
  function partitionsHoldingAbc(s) {
    var q = s.queues || {};
    return (q.synthesizing || 0) + (q.awaitingDevice || 0) + (q.proving || 0);
  }

  var chartEl = document.getElementById("chart");
  var windowSeconds = chartEl ? Number(chartEl.getAttribute("data-window") || 300) : 300;
  var data = [[], [], [], []];
  var chart = null;

  function makeChart() {
    if (!chartEl || typeof uPlot === "undefined") return null;
    var width = Math.max(300, chartEl.clientWidth);
    var opts = {
      width: width,
      height: 250,
      cursor: {drag: {x: false, y: false}},
      legend: {live: false},
      scales: {x: {time: true}, bytes: {range: function (u, lo, hi) { return [0, Math.max(hi * 1.1, 1024)]; }},
               n: {range: function (u, lo, hi) { return [0, Math.max(hi + 1, 4)]; }}},
      series: [
        {},
        {label: "RSS", scale: "bytes", stroke: "#2f6fde", width: 2, value: function (u, v) { return bytes(v); }},
        {label: "reserved", scale: "bytes", stroke: "#e06a2c", width: 2, fill: "rgba(224,106,44,0.10)",
          value: function (u, v) { return bytes(v); }},
        {label: "partitions holding a/b/c", scale: "n", stroke: "#7a6ad8", width: 2, paths: uPlot.paths.stepped({align: 1})}
      ],
      axes: [
        {stroke: "#6b7785", grid: {stroke: "#eef1f4"}},
        {scale: "bytes", stroke: "#6b7785", grid: {stroke: "#eef1f4"}, size: 70,
          values: function (u, vals) { return vals.map(bytes); }},
        {scale: "n", side: 1, stroke: "#7a6ad8", grid: {show: false}, size: 40,
          values: function (u, vals) { return vals.map(function (v) { return Number.isInteger(v) ? v : ""; }); }}
      ]
    };
    var c = new uPlot(opts, data, chartEl);
    window.addEventListener("resize", function () { c.setSize({width: Math.max(300, chartEl.clientWidth), height: 250}); });
    return c;
  }

  function addSample(s) {
    var t = Date.now() / 1000;
    data[0].push(t);
    data[1].push(Math.max(0, s.process.rssBytes));
    data[2].push(s.budget.reservedBytes);
    data[3].push(partitionsHoldingAbc(s));
    while (data[0].length && data[0][0] < t - windowSeconds) {
      data.forEach(function (a) { a.shift(); });
    }
    if (chart) chart.setData(data);
  }

  var samples = 0;
  function onSnapshot(s) {
    samples++;
    updateTable(s);
    updateFigures(s);
    addSample(s);
    var live = document.getElementById("live");
    if (live) live.classList.add("on");
  }

  function parse(event) {
    try { onSnapshot(JSON.parse(event.data)); } catch (e) { if (window.console) console.warn("pipeline event", e); }
  }

  // Polls the console's own JSON when the stream is unavailable (an older service, a proxy that buffers SSE).
  var polling = null;
  function poll() {
    if (polling) return;
    var url = chartEl && chartEl.getAttribute("data-poll");
    if (!url) return;
    polling = setInterval(function () {
      fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (s) { if (s) onSnapshot(s); })
        .catch(function () {});
    }, 1000);
  }

  function connect() {
    var url = chartEl && chartEl.getAttribute("data-stream");
    if (!url || typeof EventSource === "undefined") { poll(); return; }
    var source = new EventSource(url);
    var opened = false;
    source.onopen = function () { opened = true; };
    source.onmessage = parse;
    source.addEventListener("snapshot", parse);
    source.onerror = function () {
      var live = document.getElementById("live");
      if (live) live.classList.remove("on");
      if (!opened) { source.close(); poll(); }
    };
  }

  if (chartEl) {
    chart = makeChart();
    connect();
  }
  window.prooflineConsole = {
    chart: function () { return chart; },
    samples: function () { return samples; },
    bytes: bytes
  };
})();
