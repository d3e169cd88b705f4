// The robot HTTP API's OpenAPI 3.1 document, generated from the protocol's zod
// schemas with zod 4's own JSON Schema output (OpenAPI 3.1 uses JSON Schema
// 2020-12 as it is), so the document cannot disagree with what the server
// checks. A dozen paths do not need a generator package.
import { z } from 'zod';
import { SKILL_ARGS, SKILL_NAMES } from '../skills';
import {
  ALRM_ACTIONS,
  AlrmResponse,
  ErrorResponse,
  InfoResponse,
  JobResponse,
  PROTOCOL,
  QUERIES,
  QUERY_NAMES,
  RobotEventSchema,
} from './protocol';

type Json = Record<string, unknown>;

function schema(s: z.ZodType, io: 'input' | 'output' = 'output'): Json {
  const j = z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
  delete j['$schema'];
  return j;
}

const json = (s: Json) => ({ 'application/json': { schema: s } });
const errors = {
  '400': {
    description: 'Arguments outside the schema (the message names the field)',
    content: json({ $ref: '#/components/schemas/Error' }),
  },
  '401': { description: 'Missing or wrong token', content: json({ $ref: '#/components/schemas/Error' }) },
  '421': { description: 'Wrong Host header (the server answers to 127.0.0.1 only)', content: json({ $ref: '#/components/schemas/Error' }) },
  '500': { description: 'The robot API failed (a bug in the server)', content: json({ $ref: '#/components/schemas/Error' }) },
};
const err = (description: string) => ({ description, content: json({ $ref: '#/components/schemas/Error' }) });
/** Every POST reads a body. */
const postErrors = { ...errors, '413': err('The request body is over 64 KiB') };

/** ALRM's argument shapes, by the paper's action names. */
export function alrmArgs(): Record<string, z.ZodType> {
  const P = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });
  return {
    pick: z.strictObject({ object_name: z.string().min(1) }),
    place: z.strictObject({ target: z.string().min(1).optional(), position: P.optional() }),
    move_to_home_pos: z.strictObject({}),
    move_to: z.strictObject({ pose: z.strictObject({ position: P, tilt_deg: z.number().min(0).max(90).optional() }) }),
    get_objects: z.strictObject({}),
    get_reference_names: z.strictObject({}),
    compute_grasp: z.strictObject({ object_name: z.string().min(1) }),
    get_pose: z.strictObject({ name: z.string().min(1) }),
  };
}

export function openApiDocument(serverUrl?: string): Json {
  const paths: Json = {
    '/v1/info': {
      get: {
        summary: 'The robot: name, kind, capabilities, places, reference positions, workspace, battery thresholds',
        operationId: 'info',
        responses: { '200': { description: 'info', content: json(schema(InfoResponse)) }, ...errors },
      },
    },
    '/v1/events': {
      get: {
        summary:
          'Server-sent events: first `stream` ({"epoch"}: new at each server start; event ids restart with it), then `robot` (a RobotEvent), `job` (a job changed), `safety` (a decision of the safety chain)',
        operationId: 'events',
        parameters: [
          { name: 'since', in: 'query', schema: { type: 'integer', minimum: 0 }, description: 'replay robot events after this id' },
          {
            name: 'epoch',
            in: 'query',
            schema: { type: 'string' },
            description: 'the epoch `since` belongs to; another epoch than the server’s replays from its first event',
          },
          { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' }, description: 'as `since`, when `since` is absent' },
        ],
        responses: {
          '200': { description: 'an event stream', content: { 'text/event-stream': { schema: schema(RobotEventSchema) } } },
          ...errors,
        },
      },
    },
    '/v1/jobs/{id}': {
      get: {
        summary: 'A job: status, progress, outcome. `wait` long-polls up to that many seconds for it to finish',
        operationId: 'job',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'wait', in: 'query', schema: { type: 'number', minimum: 0, maximum: 30 } },
        ],
        responses: {
          '200': { description: 'the job', content: json(schema(JobResponse)) },
          '404': err('no such job'),
          ...errors,
        },
      },
    },
    '/v1/jobs/{id}/cancel': {
      post: {
        summary: 'Cancels a running job (the skill sees its abort signal); answers the job once it has ended',
        operationId: 'cancel',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: 'the job', content: json(schema(JobResponse)) },
          '404': err('no such job'),
          ...postErrors,
        },
      },
    },
  };
  for (const name of QUERY_NAMES) {
    const q = QUERIES[name];
    paths[`/v1/query/${name}`] = {
      post: {
        summary: `Query ${name}`,
        operationId: `query_${name.replace('.', '_')}`,
        requestBody: { required: true, content: json(schema(q.args, 'input')) },
        responses: {
          '200': { description: 'the answer', content: json(schema(z.object({ value: q.value }))) },
          '422': err('the robot could not answer (an unknown relation, a missing object): its reason'),
          '501': err('the robot cannot answer this query (a capability it lacks)'),
          ...postErrors,
        },
      },
    };
  }
  for (const name of SKILL_NAMES) {
    paths[`/v1/skills/${name}`] = {
      post: {
        summary: `Start skill ${name} as a job (every skill passes the server's safety chain)`,
        operationId: `skill_${name.replace('.', '_')}`,
        parameters: [
          {
            name: 'wait',
            in: 'query',
            schema: { type: 'number', minimum: 0, maximum: 30 },
            description: 'wait up to this many seconds for the outcome',
          },
        ],
        requestBody: { required: true, content: json(schema(SKILL_ARGS[name], 'input')) },
        responses: {
          '200': { description: 'the job, finished within `wait`', content: json(schema(JobResponse)) },
          '202': { description: 'the job, still running', content: json(schema(JobResponse)) },
          '501': err('the robot has no such capability, or does not implement this skill'),
          ...postErrors,
        },
      },
    };
  }
  const alrm = alrmArgs();
  for (const a of ALRM_ACTIONS) {
    paths[`/${a}`] = {
      post: {
        summary: `ALRM action ${a} (paper 002 §III.B), answered as the tool answers a model`,
        operationId: `alrm_${a}`,
        tags: ['ALRM'],
        requestBody: { required: true, content: json(schema(alrm[a]!, 'input')) },
        responses: {
          '200': { description: 'the result text and data', content: json(schema(AlrmResponse)) },
          '501': err('the robot does not serve this action (it needs an arm)'),
          ...postErrors,
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Skillbridge robot API',
      version: PROTOCOL,
      description:
        'The Robot seam over HTTP: info, every query, every skill as a job with progress and cancel, events as server-sent events, and ALRM’s eight actions. Every request needs `Authorization: Bearer TOKEN` (the events stream also takes `?token=`).',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: schema(ErrorResponse) },
    },
  };
}
