// Numbers as the papers print them.
import type { MetricFormat } from './spec';

export function formatValue(v: number | null | undefined, format: MetricFormat): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  switch (format) {
    case 'percent':
      return (v * 100).toFixed(1);
    case 'ratio':
      return v.toFixed(2);
    case 'seconds':
      return v.toFixed(2);
    case 'number':
      return v.toFixed(2);
    case 'integer':
      return Math.round(v).toString();
    case 'usd':
      return v < 0.01 && v > 0 ? v.toFixed(4) : v.toFixed(2);
  }
}

/** The unit a column header adds, if any. */
export function unitOf(format: MetricFormat): string {
  return format === 'percent' ? '%' : format === 'seconds' ? 's' : format === 'usd' ? '$' : '';
}
