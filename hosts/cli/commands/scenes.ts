import { listScenes } from '../../../scenes/registry';
import type { Parsed } from '../args';
import { type Output, json } from '../output';

export function scenesCommand(p: Parsed, o: Output): number {
  const scenes = listScenes();
  if (p.flags['json']) {
    json(o, scenes);
    return 0;
  }
  const w = Math.max(...scenes.map((s) => s.id.length));
  for (const s of scenes) {
    o.out(`${s.id.padEnd(w)}  ${s.title}  [${s.robot}; tools: ${s.toolSets.join(', ')}]`);
  }
  o.out(`\n${scenes.length} scenes. Details: skillbridge scenes --json`);
  return 0;
}
