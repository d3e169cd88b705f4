// What every flow of one conversation turn did, summed: iterations, tool calls
// (those the model asked for and those a workflow ran itself), warnings and usage.
import type { Usage } from '../models/model';
import { type FlowResult, ZERO_USAGE, addUsage } from './flow';

/** Sums what every flow of a turn did. */
export class Totals {
  private iterations = 0;
  private toolCalls = 0;
  private toolCallsRun = 0;
  private warnings: FlowResult['warnings'] = [];
  private usage: Usage = { ...ZERO_USAGE };

  /** A call a workflow made itself (a recovery plan's step). */
  ran(): void {
    this.toolCallsRun++;
  }

  add(r: FlowResult): void {
    this.iterations += r.iterations;
    this.toolCalls += r.toolCalls;
    this.toolCallsRun += r.toolCallsRun;
    this.warnings = [...this.warnings, ...r.warnings];
    this.usage = addUsage(this.usage, r.usage);
  }

  value(): Pick<FlowResult, 'iterations' | 'toolCalls' | 'toolCallsRun' | 'warnings' | 'usage'> {
    return {
      iterations: this.iterations,
      toolCalls: this.toolCalls,
      toolCallsRun: this.toolCallsRun,
      warnings: this.warnings,
      usage: this.usage,
    };
  }
}
