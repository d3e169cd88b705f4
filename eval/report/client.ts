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

  function bars(s) {
    var many = s.series.length > 1;
    return Plot.plot({
      width: WIDTH, height: 320, style: font, marginBottom: 44, marginTop: 24,
      fx: { label: s.xLabel, domain: s.groups, padding: 0.15 },
      x: { axis: many ? null : 'bottom', domain: s.series, label: null, tickFormat: function () { return ''; } },
      y: { label: s.yLabel, domain: [0, 1], grid: true },
      color: colors(s.series),
      marks: [
        Plot.barY(s.data, { fx: 'group', x: 'series', y: 'value', fill: 'series',
          title: function (d) { return d.series + '\n' + d.group + ': ' + d.value.toFixed(3) + ' (n = ' + d.n + ')'; } }),
        Plot.ruleY([0]),
      ],
    });
  }

  function latency(s) {
    return Plot.plot({
      width: WIDTH, height: 70 + 46 * s.series.length, style: font,
      marginLeft: Math.min(320, 14 + 6.5 * longest(s.series)),
      x: { label: 'Latency (s)', grid: true, nice: true, zero: true },
      y: { label: null, domain: s.series },
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
      x: { label: 'k (trials that must all succeed)', domain: [1, K], ticks: ks, tickFormat: 'd' },
      y: { label: 'pass^k', domain: [0, 1], grid: true },
      color: colors(s.series),
      marks: [
        Plot.line(s.data, { x: 'k', y: 'value', stroke: 'series', strokeWidth: 2 }),
        Plot.dot(s.data, { x: 'k', y: 'value', fill: 'series', r: 3.5,
          title: function (d) { return d.series + '\npass^' + d.k + ' = ' + d.value.toFixed(3); } }),
      ],
    });
  }

  function failures(s) {
    return Plot.plot({
      width: WIDTH, height: 70 + 40 * s.series.length, style: font,
      marginLeft: Math.min(320, 14 + 6.5 * longest(s.series)),
      x: { label: 'Trials', grid: true },
      y: { label: null, domain: s.series },
      color: { type: 'categorical', scheme: 'set2', domain: s.classes, legend: true },
      marks: [
        Plot.barX(s.data, { x: 'count', y: 'series', fill: 'failure', title: function (d) { return d.failure + ': ' + d.count; } }),
        Plot.ruleX([0]),
      ],
    });
  }

  var draw = { bars: bars, latency: latency, passk: passk, failures: failures };
  specs.forEach(function (s) {
    var el = document.getElementById(s.id);
    if (!el) return;
    try {
      el.replaceChildren(draw[s.kind](s));
      el.setAttribute('data-rendered', 'true');
    } catch (e) {
      el.textContent = 'This chart could not be drawn: ' + (e && e.message ? e.message : e);
      el.setAttribute('data-rendered', 'failed');
    }
  });
})();
`;
