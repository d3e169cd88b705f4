// The named tool sets. A scene names its default set; each set says which paper
// it comes from and which robot capabilities it needs. Some sets are built from
// the robot (the DFKI set's action catalogue depends on what it can do).
import type { Capability, Robot } from '../../../robot/robot';
import { ToolRegistry } from '../registry';
import type { Tool } from '../tool';

// Each set's tools (their zod schemas, their code) load when the set is first built:
// a command that uses one set does not build the others' schemas.
const alrm = () => import('./alrm');
const farm = () => import('./farm');
const dfki = () => import('./dfki');
const raider = () => import('./raider');
const raiderAssistive = () => import('./raider-assistive');
const rtw = () => import('./rtw');
const worldModel = () => import('./world-model');

export interface ToolSetDef {
  id: string;
  title: string;
  paper: string;
  description: string;
  requires: Capability[];
  /** Former names still accepted (each for one release). */
  aliases?: readonly string[];
  build(robot: Robot): readonly Tool[] | Promise<readonly Tool[]>;
}

export const TOOL_SETS: readonly ToolSetDef[] = [
  {
    id: 'raider-household',
    title: 'RAIDER household perception tools',
    paper: '001 Fig. 6',
    description: 'Grounded perception for issue detection: what is held, what is visible, distance, state, relations, properties.',
    requires: ['perception'],
    build: async () => (await raider()).RAIDER_HOUSEHOLD,
  },
  {
    id: 'raider-preferences',
    title: 'RAIDER household tools with user information',
    paper: '001 §5.1',
    description: "The household set plus retrieve_user_information over the scene's user corpus.",
    requires: ['perception'],
    build: async (robot) => {
      const { RAIDER_HOUSEHOLD, retrieveUserInformation } = await raider();
      return [...RAIDER_HOUSEHOLD, retrieveUserInformation(robot.info.scene.userInfo)];
    },
  },
  {
    id: 'raider-assistive',
    title: 'RAIDER human-assistive tools',
    paper: '001 Fig. 16',
    description: 'Human, robot and environment checks for assistive plans (free path, distances, people, hands, gaze).',
    requires: ['perception', 'people'],
    build: async () => (await raiderAssistive()).RAIDER_ASSISTIVE,
  },
  {
    id: 'raider-recovery',
    title: 'RAIDER recovery actions',
    paper: '001 Fig. 7',
    description: 'The actions a recovery plan may use: ask, say, move_to, pick, place, slice, open, close, turnon, turnoff, handover.',
    requires: ['arm'],
    build: async (robot) => (await raider()).RAIDER_RECOVERY.filter((t) => t.card.requires.every((c) => robot.has(c))),
  },
  {
    id: 'alrm',
    title: "ALRM's robot API",
    paper: '002 §III.B',
    description:
      'The eight actions of the ALRM task executor: pick, place, move_to_home_pos, move_to, get_objects, get_reference_names, compute_grasp, get_pose.',
    requires: ['arm', 'perception'],
    build: async () => (await alrm()).ALRM,
  },
  {
    id: 'dfki',
    aliases: ['planner-executor'],
    title: 'Planner and executor (DFKI)',
    paper: '003 §5',
    description: 'reflect, act(action, params), the semantic snapshot and check_events; the action catalogue follows the robot.',
    requires: ['perception', 'events'],
    build: async (robot) => (await dfki()).dfkiTools(robot),
  },
  {
    id: 'chatbot',
    title: 'Chatbot (DFKI)',
    paper: '003 Table 1',
    description: 'Answers without acting: date, locations, the snapshot, speak.',
    requires: ['perception'],
    build: async (robot) => (await dfki()).chatbotTools(robot),
  },
  {
    id: 'world-model',
    title: 'World-model getters and setters (AIMM)',
    paper: '000 §II.C.3',
    description: "get_object_poses, get_empty_storages, add_object, set_object_property over the robot's world model.",
    requires: ['world_model'],
    build: async () => (await worldModel()).WORLD_MODEL_ACCESSORS,
  },
  {
    id: 'rtw-basic',
    title: 'Robotic Tool Workflows: basic (TORO)',
    paper: '000 §II.C.1',
    description: 'Static information about the robot and bounded motions validated at run time: take_a_step, nudge_arm, postures, wave.',
    requires: [],
    build: async (robot) => (await rtw()).rtwBasicTools(robot),
  },
  {
    id: 'rtw-hierarchical',
    title: 'Robotic Tool Workflows: hierarchical (MAYA)',
    paper: '000 §II.C.2',
    description:
      'Information tools, and task tools generated from what the robot sees now (open_<x>, pick_<x>…). The workflow shows one category at a time.',
    requires: ['perception'],
    build: async (robot) => {
      const { mayaInformationTools, mayaTaskTools } = await rtw();
      return [...mayaInformationTools(robot), ...(await mayaTaskTools(robot))];
    },
  },
  {
    id: 'world-model-queries',
    title: 'World-model query templates (AIMM)',
    paper: '000 §II.C.3',
    description: 'retrieve_nodes and retrieve_parent_or_child: guarded templates over the world-model tree, checked against its schema.',
    requires: ['world_model'],
    build: async () => (await rtw()).WORLD_MODEL_QUERIES,
  },
  {
    id: 'farm',
    title: 'Field rover tools (Valdemar)',
    paper: '003 §6',
    description: 'navigate, scan, dock, undock, charge, battery_status.',
    requires: ['rover', 'base'],
    build: async () => (await farm()).FARM,
  },
];

export function toolSetIds(): string[] {
  return TOOL_SETS.map((s) => s.id);
}

export function findToolSet(id: string): ToolSetDef | undefined {
  return TOOL_SETS.find((s) => s.id === id) ?? TOOL_SETS.find((s) => s.aliases?.includes(id));
}

/** The current id of a set named by its id or a former name; unknown names come back as given. */
export function canonicalToolSet(id: string): string {
  return findToolSet(id)?.id ?? id;
}

export class UnknownToolSetError extends Error {}

/** Builds a tool set for a robot; throws if the set does not exist or the robot lacks what it needs. */
export async function buildToolSet(id: string, robot: Robot): Promise<ToolRegistry> {
  const def = findToolSet(id);
  if (!def) throw new UnknownToolSetError(`unknown tool set "${id}"; known sets: ${toolSetIds().join(', ')}`);
  const missing = def.requires.filter((c) => !robot.has(c));
  if (missing.length) throw new UnknownToolSetError(`tool set "${id}" needs ${missing.join(', ')}, which ${robot.info.name} does not have`);
  return new ToolRegistry(await def.build(robot));
}

/** Tool sets a robot can use (all their required capabilities present). */
export function setsFor(robot: Robot): ToolSetDef[] {
  return TOOL_SETS.filter((s) => s.requires.every((c) => robot.has(c)));
}
