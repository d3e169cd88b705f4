// The script `skillbridge audit --calls 10000 --seed 23` found, shortened: in
// tabletop/boxes (alrm) the hand setting a toy block down on table_1 wedges
// itself in container_1 beside the spot and lifts it (when the place does not
// keep room for the hand).
import type { ScriptStep } from './script';

export const EP = { scene: 'tabletop/boxes', set: 'alrm', seed: 23023 };
export const SCRIPT: ScriptStep[] = [
  { tool: 'move_to', args: { pose: { position: { x: -0.107, y: -0.381, z: 0.01 } } } },
  { event: { type: 'object_moved', object: 'toy_block_1', to: [-0.157, 0.88, 0.381], by: 'a person' } },
  { event: { type: 'object_moved', object: 'wooden_box_1', to: [0.15, 0.92, 0.05], by: 'a person' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'pick', args: { object_name: 'cardboard_box_1' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'place', args: { target: 'container_1' } },
  { tool: 'move_to', args: { pose: { position: { x: 0.133, y: -0.413, z: 0.01 }, tilt_deg: 9.601 } } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'pick', args: { object_name: 'toy_block_1' } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'move_to', args: { pose: { position: { x: 0.197, y: -0.04, z: 0.124 }, tilt_deg: 6.905 } } },
  { tool: 'move_to_home_pos', args: {} },
  { tool: 'place', args: { target: 'desk' } },
];
