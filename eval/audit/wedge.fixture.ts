// After the script `skillbridge audit --calls 10000 --seed 23` found: in
// tabletop/boxes (alrm) the hand setting a toy block down on table_1 wedges
// itself in container_1 beside the spot and lifts it (when the place does not
// keep room for the hand). Since a person's object_moved meets the robot's hand
// (it used to drop the toy block through the arm onto the table), that script no
// longer wedged; this one was made from it by hand: the toy block is set on the
// table where the old script left it; the arm move after the first place (its
// x, y and tilt searched on a small grid) turns the container; a person lifts
// the cardboard box out, sets the container beside the spot (its x, z searched
// on a 5 mm grid around where the old script left it) and puts the box back in.
import type { ScriptStep } from './script';

export const EP = { scene: 'tabletop/boxes', set: 'alrm', seed: 23023 };
export const SCRIPT: ScriptStep[] = [
  { tool: 'move_to', args: { pose: { position: { x: -0.107, y: -0.381, z: 0.01 } } } },
  { event: { type: 'object_moved', object: 'wooden_box_1', to: [0.15, 0.92, 0.05], by: 'a person' } },
  { tool: 'move_to_home_pos', args: {} },
  { event: { type: 'object_moved', object: 'toy_block_1', to: [-0.0355, 0.88, 0.3818], by: 'a person' } },
  { tool: 'pick', args: { object_name: 'cardboard_box_1' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'place', args: { target: 'container_1' } },
  { tool: 'move_to', args: { pose: { position: { x: 0.143, y: -0.423, z: 0.01 }, tilt_deg: 14 } } },
  { tool: 'move_to_home_pos', args: {} },
  { event: { type: 'object_moved', object: 'cardboard_box_1', to: [0.25, 0.9, -0.15], by: 'a person' } },
  { event: { type: 'object_moved', object: 'container_1', to: [0.3783, 0.9, 0.0949], by: 'a person' } },
  { event: { type: 'object_moved', object: 'cardboard_box_1', to: [0.3443, 0.95, 0.1479], by: 'a person' } },
  { tool: 'pick', args: { object_name: 'toy_block_1' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'move_to', args: { pose: { position: { x: 0.197, y: -0.04, z: 0.124 }, tilt_deg: 6.905 } } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'place', args: { target: 'desk' } },
];
