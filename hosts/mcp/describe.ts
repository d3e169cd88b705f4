// How a Skillbridge tool looks to an MCP client: its description followed by its
// tool card (paper 004 §3.1: capability, inputs, outputs, when to use, constraints),
// annotations derived from its category and card, and the whole card in `_meta`
// so a Skillbridge client on the other side gets it back exactly.
import type { Tool } from '../../agents/tools/tool';

export interface McpAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The `_meta` key carrying the tool card. */
export const CARD_META = 'skillbridge/card';

function title(name: string): string {
  const t = name.replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/**
 * Read-only: the information tools. Destructive: an action that moves the arm,
 * the base or the rover (a motion can knock things over); speaking and writing
 * the robot's world model only add. Open world: a real robot's surroundings;
 * a simulated robot's world is closed.
 */
export function annotationsFor(tool: Tool, o: { simulated: boolean }): McpAnnotations {
  const readOnly = tool.category === 'information';
  const moves = tool.card.requires.some((c) => c === 'arm' || c === 'base' || c === 'rover');
  const onlyTalksOrNotes = !moves && (tool.card.dimension === 'cognition' || tool.card.requires.includes('speech'));
  return {
    title: title(tool.name),
    readOnlyHint: readOnly,
    destructiveHint: !readOnly && !onlyTalksOrNotes,
    idempotentHint: readOnly,
    openWorldHint: !o.simulated,
  };
}

export function describeForMcp(tool: Tool, robot: { name: string; title: string } | undefined): string {
  const c = tool.card;
  const lines = [
    tool.description,
    '',
    `When to use: ${c.whenToUse}`,
    `Returns: ${c.outputs}`,
    ...(c.constraints ? [`Constraints: ${c.constraints}`] : []),
    ...(c.requires.length ? [`Needs the robot's ${c.requires.join(', ')}.`] : []),
    ...(tool.category === 'action' ? ['Makes the robot act: the server may ask a person to approve each call.'] : []),
    ...(robot ? [`Robot: ${robot.name} (${robot.title}).`] : []),
  ];
  return lines.join('\n');
}
