// Tests that drive the evaluation runner directly stand where the command line
// does: their suites and models pass the command line's policy (TERMINAL), as
// what a person types at a terminal does.
import { TERMINAL } from '../../hosts/service/host-policy';

export { TERMINAL };

/** A model as the command line parses it, with the command line's file grant. */
export function typedModel(spec: string): { model: ReturnType<typeof TERMINAL.model>; files: ReturnType<typeof TERMINAL.files> } {
  return { model: TERMINAL.model(spec), files: TERMINAL.files() };
}
