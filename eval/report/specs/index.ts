// The report descriptions of the five suites, by suite id.
import { type SuiteReportSpec, genericSpec } from '../spec';
import { alrmReport } from './alrm';
import { dfkiReport } from './dfki';
import { etpReport } from './etp';
import { raiderReport } from './raider';
import { rtwReport } from './rtw';

export { alrmReport, dfkiReport, etpReport, raiderReport, rtwReport };

export const REPORT_SPECS: Record<string, SuiteReportSpec> = {
  raider: raiderReport,
  alrm: alrmReport,
  etp: etpReport,
  dfki: dfkiReport,
  rtw: rtwReport,
};

/** The suite's description, or a generic one for a suite nobody described. */
export function reportSpecFor(suite: string): SuiteReportSpec {
  return REPORT_SPECS[suite] ?? genericSpec(suite);
}
