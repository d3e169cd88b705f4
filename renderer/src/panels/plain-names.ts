// Plain-language names for what the papers name: a teacher reads "Tabletop arm
// actions" first and "ALRM" second. Ids stay the values; unknown ids fall back
// to the host's own title.
import type { ToolSetInfo } from '../../../contract/schemas';

const TOOL_SETS: Record<string, [plain: string, source: string]> = {
  alrm: ['Tabletop arm actions', 'ALRM'],
  'raider-household': ['Household: look and find', 'RAIDER'],
  'raider-preferences': ["Household, with the person's preferences", 'RAIDER'],
  'raider-assistive': ['Helping a person', 'RAIDER'],
  'raider-recovery': ['Recovering from failures', 'RAIDER'],
  dfki: ['Plan and act, one step at a time', 'DFKI planner–executor'],
  'planner-executor': ['Plan and act, one step at a time', 'DFKI planner–executor'],
  chatbot: ['Talk about the robot', 'DFKI chatbot'],
  'world-model': ['Read and edit the world model', 'AIMM'],
  'world-model-queries': ['Ask the world model', 'AIMM'],
  'rtw-basic': ['Simple moves and postures', 'TORO'],
  'rtw-hierarchical': ['Tasks made from what the robot sees', 'MAYA'],
  farm: ['Field rover: drive, scan, dock', 'Valdemar'],
};

/** "Tabletop arm actions (ALRM)": the plain name, then the paper's. */
export function plainSetName(s: Pick<ToolSetInfo, 'id' | 'title' | 'paper'>): string {
  const known = TOOL_SETS[s.id];
  if (known) return `${known[0]} (${known[1]})`;
  return s.title && s.title !== s.id ? s.title : s.id;
}
