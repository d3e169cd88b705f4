import { openSimRobot } from '../../../robot/sim/open';
import { buildToolSet } from '../../../agents/tools/sets';
import { type Parsed, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';

export async function toolsCommand(p: Parsed, o: Output): Promise<number> {
  const scene = requireFlag(p.flags, 'scene', 'a scene id such as "tabletop/fruits" (see "skillbridge scenes") or a scene file');
  const robot = await openSimRobot(scene);
  const setId = stringFlag(p.flags, 'set') ?? robot.info.scene.toolSet;
  const tools = await buildToolSet(setId, robot);
  const schemas = tools.schemas();
  if (p.flags['json']) {
    json(o, schemas);
    return 0;
  }
  o.out(`Tool set "${setId}" for ${robot.info.name} in ${robot.info.scene.id} (${schemas.length} tools):\n`);
  for (const t of tools.list()) {
    o.out(`${t.name}  [${t.category}, ${t.card.mode}]`);
    o.out(`  ${t.description}`);
    o.out(`  inputs: ${t.card.inputs}`);
    o.out(`  outputs: ${t.card.outputs}`);
    o.out(`  when: ${t.card.whenToUse}\n`);
  }
  return 0;
}
