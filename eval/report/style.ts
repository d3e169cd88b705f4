// The report's stylesheet: a paper's look (serif text, booktabs-style tables with
// captions above, figure captions below) in system fonts only, so nothing is fetched.
export const STYLE = `
:root { --ink: #1d1d1f; --muted: #5f6368; --rule: #1d1d1f; --thin: #c9c9c9; --bad: #b3261e; --good: #1e6b34; --accent: #2b5b9c; }
* { box-sizing: border-box; }
html { background: #fff; }
body { margin: 0 auto; max-width: 1180px; padding: 32px 40px 64px; color: var(--ink);
  font: 15px/1.5 Charter, 'Bitstream Charter', 'Sitka Text', Cambria, Georgia, 'DejaVu Serif', serif; }
header { border-bottom: 2px solid var(--rule); margin-bottom: 28px; padding-bottom: 12px; }
h1 { font-size: 26px; font-weight: 600; margin: 0 0 4px; letter-spacing: -0.01em; }
h2 { font-size: 20px; font-weight: 600; margin: 40px 0 8px; border-bottom: 1px solid var(--thin); padding-bottom: 4px; }
h3 { font-size: 16px; font-weight: 600; margin: 28px 0 8px; }
.meta, .source, footer { color: var(--muted); font-size: 13.5px; }
nav ol { margin: 8px 0 0; padding-left: 20px; font-size: 14px; columns: 2; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
.table-wrap { overflow-x: auto; margin: 18px 0 22px; }
table { border-collapse: collapse; font: 13px/1.35 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif;
  font-variant-numeric: tabular-nums; border-top: 2px solid var(--rule); border-bottom: 2px solid var(--rule); min-width: 40%; }
caption { caption-side: top; text-align: left; padding: 0 0 6px; font: 13.5px/1.45 Charter, Cambria, Georgia, 'DejaVu Serif', serif; color: var(--ink); max-width: 900px; }
caption .label, figcaption .label { font-weight: 600; }
th, td { padding: 4px 10px; text-align: left; vertical-align: top; white-space: nowrap; }
thead tr:last-child th { border-bottom: 1px solid var(--rule); }
th { font-weight: 600; }
th.group { border-bottom: 1px solid var(--thin); }
.a-right { text-align: right; }
.a-center { text-align: center; }
tbody tr:hover td { background: #f5f7fa; }
td[rowspan] { border-right: 1px solid #eee; }
.n { color: #9aa0a6; font-size: 10px; margin-left: 3px; vertical-align: 1px; }
.strong { font-weight: 700; }
.bad, .status-error, .status-fail, .status-failed { color: var(--bad); }
.status-pass, .status-finished { color: var(--good); }
.status-stopped, .status-running { color: #8a6d00; }
.mono { font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'DejaVu Sans Mono', monospace; font-size: 12px; }
.small { font-size: 11.5px; color: var(--muted); }
.error-text { white-space: normal; min-width: 240px; color: var(--bad); }
.missing { color: var(--muted); }
figure { margin: 20px 0 30px; }
.chart { min-height: 60px; }
.chart svg { max-width: 100%; height: auto; }
figcaption { font-size: 13.5px; max-width: 860px; margin-top: 6px; }
details.cases { margin: 10px 0; }
details.cases > summary { cursor: pointer; font: 14px system-ui, sans-serif; color: var(--accent); }
table.cases td { white-space: nowrap; }
table.cases td.error-text { white-space: normal; min-width: 260px; max-width: 420px; }
footer { margin-top: 48px; border-top: 1px solid var(--thin); padding-top: 10px; }
@media print { body { padding: 0; max-width: none; } details.cases { display: none; } .table-wrap { overflow: visible; } }
`;
