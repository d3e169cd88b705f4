// The report page's own script: draws each chart description (charts.ts) found in
// the page's JSON with Observable Plot, which is inlined before it (assets.ts).
// Plain browser JavaScript kept as a string; a chart that fails says so in place.

export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var specs = JSON.parse(document.getElementById('chart-data').textContent);
  var WIDTH = 820;
  var font = { fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' };
  var colors = function (domain) { return { type: 'categorical', scheme: 'tableau10', domain: domain, legend: domain.length > 1 }; };
  var longest = function (xs) { return xs.reduce(function (m, x) { return Math.max(m, String(x).length); }, 0); };
  // A label longer than its room is cut with an ellipsis; the full text is the tick's tooltip (finish adds it).
  var LABEL = 34;
  var clip = function (n) { return function (x) { x = String(x); return x.length > n ? x.slice(0, n - 1) + '\u2026' : x; }; };
  var fmt = function (v) { return v.toFixed(2); };
  var span = function (d) { return d.low !== undefined ? ' [' + d.low.toFixed(3) + ', ' + d.high.toFixed(3) + ']' : ''; };
  var withIv = function (data) { return data.filter(function (d) { return d.low !== undefined; }); };

  function bars(s) {
    var many = s.series.length > 1;
    var room = Math.max(8, Math.floor(WIDTH / Math.max(1, s.groups.length) / 7));
    var marks = [
      Plot.barY(s.data, { fx: 'group', x: 'series', y: 'value', fill: 'series',
        title: function (d) { return d.series + '\n' + d.group + ': ' + d.value.toFixed(3) + span(d) + ' (n = ' + d.n + ')'; } }),
      Plot.ruleX(withIv(s.data), { fx: 'group', x: 'series', y1: 'low', y2: 'high', stroke: '#222', strokeWidth: 1.5, ariaDescription: 'interval' }),
      Plot.tickY(withIv(s.data), { fx: 'group', x: 'series', y: 'low', stroke: '#222', ariaDescription: 'interval' }),
      Plot.tickY(withIv(s.data), { fx: 'group', x: 'series', y: 'high', stroke: '#222', ariaDescription: 'interval' }),
      Plot.ruleY([0]),
    ];
    // The numbers are written on the bars while they fit; else each bar's tooltip has it.
    if (s.data.length <= 48)
      marks.push(Plot.text(s.data, { fx: 'group', x: 'series', y: 'value', text: function (d) { return fmt(d.value); },
        dy: -6, lineAnchor: 'bottom', fontSize: 9, ariaDescription: 'value' }));
    return Plot.plot({
      width: WIDTH, height: 320, style: font, marginBottom: 44, marginTop: 24,
      fx: { label: s.xLabel, domain: s.groups, padding: 0.15, tickFormat: clip(room) },
      x: { axis: many ? null : 'bottom', domain: s.series, label: null, tickFormat: function () { return ''; } },
      y: { label: s.yLabel, domain: [0, 1], grid: true },
      color: colors(s.series),
      marks: marks,
    });
  }

  function left(series) { return Math.min(14 + 6.5 * LABEL, 14 + 6.5 * longest(series)); }

  function latency(s) {
    return Plot.plot({
      width: WIDTH, height: 70 + 46 * s.series.length, style: font,
      marginLeft: left(s.series),
      x: { label: 'Latency (s)', grid: true, nice: true, zero: true },
      y: { label: null, domain: s.series, tickFormat: clip(LABEL) },
      color: colors(s.series),
      marks: [
        Plot.boxX(s.data, { x: 'seconds', y: 'series', fill: 'series', fillOpacity: 0.25, stroke: 'series', r: 0 }),
        Plot.dot(s.data, { x: 'seconds', y: 'series', fill: 'series', r: 2.5, fillOpacity: 0.5,
          title: function (d) { return d.caseId + ': ' + d.seconds.toFixed(2) + ' s'; } }),
      ],
    });
  }

  function passk(s) {
    var K = s.data.reduce(function (m, d) { return Math.max(m, d.k); }, 1);
    var ks = []; for (var k = 1; k <= K; k++) ks.push(k);
    return Plot.plot({
      width: WIDTH, height: 300, style: font, marginTop: 24,
      x: { label: 'k (trials that must all succeed)', domain: [0.8, K + 0.2], ticks: ks, tickFormat: 'd' },
      y: { label: 'pass^k', domain: [0, 1], grid: true },
      color: colors(s.series),
      marks: [
        Plot.ruleX(withIv(s.data), { x: 'k', y1: 'low', y2: 'high', stroke: 'series', strokeOpacity: 0.55, strokeWidth: 3, ariaDescription: 'interval' }),
        Plot.line(s.data, { x: 'k', y: 'value', stroke: 'series', strokeWidth: 2 }),
        Plot.dot(s.data, { x: 'k', y: 'value', fill: 'series', r: 3.5,
          title: function (d) { return d.series + '\npass^' + d.k + ' = ' + d.value.toFixed(3) + span(d); } }),
      ],
    });
  }

  function failures(s) {
    return Plot.plot({
      width: WIDTH, height: 70 + 40 * s.series.length, style: font,
      marginLeft: left(s.series),
      x: { label: 'Trials', grid: true },
      y: { label: null, domain: s.series, tickFormat: clip(LABEL) },
      color: { type: 'categorical', scheme: 'set2', domain: s.classes, legend: true },
      marks: [
        Plot.barX(s.data, { x: 'count', y: 'series', fill: 'failure', title: function (d) { return d.failure + ': ' + d.count; } }),
        Plot.ruleX([0]),
      ],
    });
  }

  // A cut tick label gets its full text as a tooltip.
  function finish(node, s) {
    var full = (s.series || []).concat(s.groups || []);
    node.querySelectorAll('text').forEach(function (t) {
      var shown = t.textContent;
      if (shown.slice(-1) !== '\u2026') return;
      var whole = full.filter(function (x) { return String(x).indexOf(shown.slice(0, -1)) === 0; })[0];
      if (!whole) return;
      var title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      title.textContent = whole;
      t.appendChild(title);
      t.setAttribute('data-full', whole);
    });
    return node;
  }

  var draw = { bars: bars, latency: latency, passk: passk, failures: failures };
  specs.forEach(function (s) {
    var el = document.getElementById(s.id);
    if (!el) return;
    try {
      el.replaceChildren(finish(draw[s.kind](s), s));
      el.setAttribute('data-rendered', 'true');
    } catch (e) {
      el.textContent = 'This chart could not be drawn: ' + (e && e.message ? e.message : e);
      el.setAttribute('data-rendered', 'failed');
    }
  });
  // A link to a transcript opens it and the collapsed sections around it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    for (var p = el; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    if (el) el.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  reveal();
})();
`;
