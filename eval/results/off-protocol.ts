// How a run off its suite's protocol (--off-protocol) is marked: `offProtocol: true`
// in the run's args (args_json in the results database) and "(off protocol)" in
// its variant label, which every table, report and CLI line prints.

/** The mark an off-protocol run carries in tables, reports and the CLI. */
export const OFF_PROTOCOL = 'off protocol';

/** A run's variant label (null: its workflow's id), with the mark when it runs off protocol: "flat (off protocol)". */
export function markedVariant(variant: string | null, workflow: string, off: boolean): string | null {
  return off ? `${variant ?? workflow} (${OFF_PROTOCOL})` : variant;
}

/** Whether a recorded run ran off its suite's protocol (its args in the results database say so). */
export function isOffProtocol(run: { args: Record<string, unknown> }): boolean {
  return run.args['offProtocol'] === true;
}
