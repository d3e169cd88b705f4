// AIMM's world-model tools (paper 000 §II.C.3): guarded query templates over the
// world-model tree, parameters checked against the graph's schema.
import { z } from 'zod';
import { didYouMean } from '../../../base/did-you-mean';
import type { WorldModelNode } from '../../../robot/robot';
import { fail, guarded, ok, resolveName } from '../common';
import { type BasePose, toBase } from '../frames';
import { type Tool, defineTool } from '../tool';

// ---------------------------------------------------------- AIMM (world model)

/** The world model's schema: node types and the attributes each carries. */
export interface WorldModelSchema {
  types: Map<string, Set<string>>;
}

const NODE_FIELDS = ['id', 'name', 'type', 'category', 'parent', 'relation', 'position', 'source'] as const;

export function worldModelSchema(nodes: readonly WorldModelNode[]): WorldModelSchema {
  const types = new Map<string, Set<string>>();
  for (const n of nodes) {
    const attrs = types.get(n.type) ?? new Set<string>(NODE_FIELDS);
    for (const k of Object.keys(n.attributes)) attrs.add(k);
    types.set(n.type, attrs);
  }
  return { types };
}

function field(n: WorldModelNode, key: string, base?: BasePose): unknown {
  // Positions leave in the robot's base frame (REP 103), like every tool's.
  if (key === 'position' && base) return n.position ? toBase(n.position, base) : undefined;
  if ((NODE_FIELDS as readonly string[]).includes(key)) return n[key as (typeof NODE_FIELDS)[number]];
  return n.attributes[key];
}

function show(v: unknown): string {
  return v === undefined ? 'unknown' : typeof v === 'string' ? v : JSON.stringify(v);
}

function checkType(schema: WorldModelSchema, type: string): string | undefined {
  if (schema.types.has(type)) return undefined;
  return `node_type "${type}" is not in the world model's schema.${didYouMean(type, schema.types.keys())} Node types: ${[...schema.types.keys()].sort().join(', ')}`;
}

function checkAttr(schema: WorldModelSchema, type: string, attr: string, role: string): string | undefined {
  const attrs = schema.types.get(type);
  if (!attrs || attrs.has(attr)) return undefined;
  return `${role} "${attr}" is not an attribute of ${type} nodes.${didYouMean(attr, attrs)} They have: ${[...attrs].sort().join(', ')}`;
}

const retrieveNodes = defineTool({
  name: 'retrieve_nodes',
  description:
    "Guarded query template over the world model (AIMM's RetrieveNodes): finds nodes of one type, optionally where an attribute equals a value, and returns one attribute of each. Node types and attributes are checked against the world model's schema.",
  category: 'information',
  params: z.strictObject({
    node_type: z.string().min(1).describe('a node type in the world model, e.g. bowl, location, robot'),
    match_attribute: z.string().min(1).optional().describe('attribute to filter on'),
    match_value: z.union([z.string(), z.number(), z.boolean()]).optional().describe('value the match_attribute must equal'),
    return_attribute: z
      .string()
      .min(1)
      .describe('attribute to return for each node, e.g. mass_kg, colour, position (robot base frame: x forward, y left, z up), parent'),
  }),
  card: {
    outputs: 'the query as a template and one line per matching node',
    whenToUse: 'when the getters do not answer: properties of all nodes of a type',
    constraints: 'templates only; no free-form queries',
    dimension: 'cognition',
    requires: ['world_model'],
    tags: ['query', 'cypher', 'template'],
  },
  execute: async ({ node_type, match_attribute, match_value, return_attribute }, { robot }) => {
    const nodes = await robot.worldModel!.nodes();
    const schema = worldModelSchema(nodes);
    const problem =
      checkType(schema, node_type) ??
      (match_attribute ? checkAttr(schema, node_type, match_attribute, 'match_attribute') : undefined) ??
      checkAttr(schema, node_type, return_attribute, 'return_attribute') ??
      ((match_attribute === undefined) !== (match_value === undefined)
        ? 'give match_attribute and match_value together, or neither'
        : undefined);
    if (problem) return fail(problem);
    const where = match_attribute ? ` WHERE n.${match_attribute} = ${JSON.stringify(match_value)}` : '';
    const query = `MATCH (n:${node_type})${where} RETURN n.id, n.${return_attribute}`;
    const hits = nodes.filter((n) => n.type === node_type && (match_attribute === undefined || field(n, match_attribute) === match_value));
    const base = await robot.perception.basePose();
    const rows = hits.map((n) => ({ id: n.id, [return_attribute]: field(n, return_attribute, base) }));
    return ok(`${query}\n${rows.length ? rows.map((r) => `- ${r.id}: ${show(r[return_attribute])}`).join('\n') : '(no nodes match)'}`, {
      query,
      rows,
    });
  },
});

const retrieveParentOrChild = defineTool({
  name: 'retrieve_parent_or_child',
  description:
    "Guarded query template over the world-model tree (AIMM's RetrieveParentOrChild): the parent of a node (what it is on, in or at) or its children (what is on or in it), returning one attribute of each.",
  category: 'information',
  params: z.strictObject({
    node_name: z.string().min(1).describe('the node to start from (fuzzy names are resolved)'),
    direction: z.enum(['parent', 'children']),
    relation: z.enum(['on', 'in', 'at', 'any']).default('any').describe('only edges of this relation'),
    return_attribute: z.string().min(1).default('id').describe('attribute to return for each related node'),
  }),
  card: {
    outputs: 'the query as a template and the related nodes',
    whenToUse: 'what is in X? what is X on?',
    constraints: 'templates only; no free-form queries',
    dimension: 'cognition',
    requires: ['world_model'],
    tags: ['query', 'cypher', 'template', 'relation'],
  },
  execute: async ({ node_name, direction, relation, return_attribute }, { robot }) =>
    guarded(async () => {
      const nodes = await robot.worldModel!.nodes();
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const id = byId.has(node_name) ? node_name : await resolveName(robot, node_name, ['object', 'location']);
      const start = byId.get(id);
      if (!start) return fail(`${id} is not in the world model (the robot has not perceived it)`);
      const rel = relation === 'any' ? '' : `:${relation.toUpperCase()}`;
      let related: WorldModelNode[];
      let query: string;
      if (direction === 'parent') {
        query = `MATCH (c {id: ${JSON.stringify(id)}})-[r${rel}]->(p) RETURN type(r), p.${return_attribute}`;
        const p = start.parent ? byId.get(start.parent) : undefined;
        related = p && (relation === 'any' || start.relation === relation) ? [p] : [];
      } else {
        query = `MATCH (c)-[r${rel}]->(p {id: ${JSON.stringify(id)}}) RETURN c.id, type(r), c.${return_attribute}`;
        related = nodes.filter((n) => n.parent === id && (relation === 'any' || n.relation === relation));
      }
      const known = new Set(related.flatMap((n) => [...NODE_FIELDS, ...Object.keys(n.attributes)]));
      if (related.length && !known.has(return_attribute))
        return fail(
          `return_attribute "${return_attribute}" is not an attribute of the related nodes; they have: ${[...known].sort().join(', ')}`,
        );
      const base = await robot.perception.basePose();
      const edge = (n: WorldModelNode): string =>
        direction === 'parent' ? (start.relation ?? 'related to') : (n.relation ?? 'related to');
      const lines = related.map(
        (n) =>
          `- ${direction === 'parent' ? `${id} is ${edge(n)} ${n.id}` : `${n.id} is ${edge(n)} ${id}`}${return_attribute === 'id' ? '' : `; ${return_attribute}: ${show(field(n, return_attribute, base))}`}`,
      );
      // Inside a storage the robot has not looked into since it could last have changed, "nothing" would be a guess.
      const hidden = direction === 'children' && relation !== 'on' && start.attributes['contents_known'] === false;
      const closed = start.attributes['open'] === false ? `${id} is closed and ` : '';
      const none = hidden
        ? `(unknown: ${closed}the robot has not looked inside ${id} since something could have changed there)`
        : '(nothing related)';
      const more = hidden && lines.length ? `\n(as last perceived: there may be more inside ${id}, or less)` : '';
      return ok(`${query}\n${lines.length ? lines.join('\n') + more : none}`, {
        query,
        nodes: related.map((n) => n.id),
        ...(hidden ? { contentsKnown: false } : {}),
      });
    }),
});

export const WORLD_MODEL_QUERIES: Tool[] = [retrieveNodes, retrieveParentOrChild];

/** AIMM's fallback step: the model asks for the query templates when getters and setters do not suffice. */
export const requestQueryTools = defineTool({
  name: 'request_query_tools',
  description:
    'Use when the getters and setters cannot answer: unlocks guarded query templates (retrieve_nodes, retrieve_parent_or_child) over the world model.',
  category: 'information',
  params: z.strictObject({ reason: z.string().min(1).describe('why the getters and setters are not enough') }),
  card: {
    outputs: 'the query tools become available',
    whenToUse: 'only after the getters and setters do not suffice',
    dimension: 'reasoning',
    requires: ['world_model'],
    tags: ['hierarchy', 'query'],
  },
  execute: async ({ reason }) => ok(`Query templates unlocked (${reason}). Use retrieve_nodes or retrieve_parent_or_child.`),
});
