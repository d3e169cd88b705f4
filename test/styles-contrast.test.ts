// Text colours meet WCAG AA (4.5:1) on the panels they appear on: failed lines,
// warnings, errors, muted text, primary buttons and the emergency stop.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// Read as text: Vitest hands CSS imports to the renderer build, not to tests.
const css = readFileSync(new URL('../renderer/src/styles.css', import.meta.url), 'utf8');
const root = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
function cssVar(name: string): string {
  const m = new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`).exec(root);
  if (!m) throw new Error(`no --${name} in :root`);
  return m[1]!;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('contrast of the app colours (WCAG AA, 4.5:1 for text)', () => {
  const panel = cssVar('panel');
  const cases: Array<[string, string, string]> = [
    ['failed lines', cssVar('fail-text'), panel],
    ['warnings', cssVar('warn-text'), panel],
    ['errors', cssVar('danger'), panel],
    ['muted text', cssVar('muted'), panel],
    ['muted text on inputs', cssVar('muted'), cssVar('panel-2')],
    ['primary buttons', '#ffffff', cssVar('primary')],
    ['the emergency stop', '#ffffff', cssVar('estop')],
  ];
  for (const [what, fg, bg] of cases) {
    it(`${what}: ${fg} on ${bg}`, () => {
      expect(contrast(fg, bg)).toBeGreaterThanOrEqual(4.5);
    });
  }
  it('the check itself tells a low contrast from a good one', () => {
    expect(contrast('#c0392b', '#1b1f26')).toBeLessThan(4.5);
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 0);
  });
});
