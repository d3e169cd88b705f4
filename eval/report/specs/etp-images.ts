// EmbodiedToolBench's image samples (paper 004 App. F.2), from the simulated
// camera: the text suite's tasks and metrics; a need case also asks which
// object the picture shows (see eval/suites/etp/images.ts). The eval command
// prints Table 3's figures per task after a run.
import type { SuiteReportSpec } from '../spec';
import { etpReport } from './etp';

export const etpImagesReport: SuiteReportSpec = {
  ...etpReport,
  suite: 'etp-images',
  title: 'EmbodiedToolBench with the camera picture: tool need, selection, execution and chain composition',
  source: 'Embodied Tool Protocol (paper 004) §3.2 tasks and metrics, App. F.2 (samples with images), Table 3',
  // Need recognition's accuracy too: its F1 is a raw figure.
  summary: ['need_acc', ...etpReport.summary],
  runTable: 'table-3',
};
