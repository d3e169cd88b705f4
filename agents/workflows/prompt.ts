// The parts of a system prompt every workflow shares: who the robot is, where
// it is, and how to answer. Workflows add their own rules.
import type { Robot } from '../../robot/robot';

export function robotContext(robot: Robot): string {
  const i = robot.info;
  const lines = [
    `You are the language interface of ${i.name}, a ${i.kind.replace('_', ' ')}, in the scene "${i.scene.title}".`,
    i.description,
  ];
  if (i.places.length) lines.push(`Named places: ${i.places.map((p) => p.id).join(', ')}.`);
  if (i.scene.notes.length) lines.push(`Notes about this scene:\n${i.scene.notes.map((n) => `- ${n}`).join('\n')}`);
  return lines.join('\n');
}

export const ANSWER_RULES = [
  'Use the tools to act and to find out; never invent a tool result.',
  'When the request is done (or cannot be done), reply in plain text without calling a tool: that reply is your final answer to the user.',
  'Keep final answers short and say what actually happened, including failures and their reasons.',
].join('\n');
