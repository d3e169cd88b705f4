// The per-task lines the eval command prints after an etp-images run.
import { describe, expect, it } from 'vitest';
import { runTableLines } from './run-table';
import { etpReport } from './specs/etp';
import { etpImagesReport } from './specs/etp-images';

describe('runTableLines', () => {
  const metrics = {
    need_acc: 1,
    need_f1: 0.5,
    csr: 0.75,
    isr: 1,
    amr: null,
    tusr: 0.25,
    chain_goal: 1,
    chain_acc: 1,
    chain_f1: 1,
    ocr: 1,
    score: 0.5,
  };
  it('gives one line per task of the image suite, with the figures the run has', () => {
    expect(runTableLines(etpImagesReport, { metrics })).toEqual([
      '  Tool-need recognition: Acc. 1.000, F1 (raw) 0.500',
      '  Tool selection: CSR 0.750',
      '  Tool execution: ISR 1.000, AMR –, TUSR 0.250',
      '  Tool-chain composition: Goal 1.000, Acc. 1.000, F1 (name set, raw) 1.000, OC 1.000',
    ]);
  });
  it('prints nothing for a suite that names no run table', () => {
    expect(runTableLines(etpReport, { metrics })).toEqual([]);
  });
});
