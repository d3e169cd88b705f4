// `skillbridge mcp` as a real process over stdio, driven by the SDK's client:
// two robots from one server, cards and annotations, approval by elicitation,
// progress and cancellation of a long skill, resources, events as log
// messages, and bad calls that cost only themselves.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace, readTrace } from '../../agents/runtime/trace';
import { replayTraces } from '../foxglove/replay';
import { frameOf, viewer } from '../../test/support/foxglove';
import { type ElicitScript, RawLines, stdioClient } from '../../test/support/mcp';

const text = (r: unknown): string =>
  ((r as CallToolResult).content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

describe('skillbridge mcp over stdio: two robots, one server', () => {
  const traceDir = mkdtempSync(join(tmpdir(), 'sb-mcp-trace-'));
  const elicit: ElicitScript = { answers: [], asked: [] };
  const logs: Array<{ logger?: string; data: unknown }> = [];
  let client: Client;
  let close: () => Promise<void>;
  let stderr: () => string;

  beforeAll(async () => {
    const c = await stdioClient(['mcp', '--scene', 'arm=tabletop/fruits,rover=farm', '--foxglove', '0', '--trace', traceDir], { elicit });
    client = c.client;
    close = c.close;
    stderr = c.stderr;
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push({ ...(n.params.logger ? { logger: n.params.logger } : {}), data: n.params.data });
    });
  }, 60_000);
  afterAll(async () => close?.());

  it("lists each robot's tools under its name, with the card as description and annotations from the category", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['arm__pick', 'arm__get_objects', 'arm__get_camera_image', 'rover__undock', 'rover__battery_status']),
    );
    expect(names.some((n) => !n.startsWith('arm__') && !n.startsWith('rover__'))).toBe(false);
    const pick = tools.find((t) => t.name === 'arm__pick')!;
    expect(pick.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    expect(pick.description).toContain('When to use:');
    expect(pick.description).toContain('Robot: arm');
    expect(pick.inputSchema.required).toEqual(['object_name']);
    expect(pick._meta?.['skillbridge/card']).toMatchObject({ dimension: 'execution', requires: ['arm'] });
    expect(tools.find((t) => t.name === 'arm__get_objects')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(pick.outputSchema?.required).toEqual(['ok', 'result']);
  });

  it('asks a person by elicitation before the robot acts, and runs the call only on yes', async () => {
    elicit.answers.push({ action: 'accept', content: { approve: false, note: 'not the lemon' } });
    const no = await client.callTool({ name: 'arm__pick', arguments: { object_name: 'lemon' } });
    expect(no.isError).toBe(true);
    expect(text(no)).toContain('declined');
    expect(text(no)).toContain('not the lemon');
    expect(elicit.asked.at(-1)).toContain('pick({"object_name":"lemon"})');
    const snap1 = await client.readResource({ uri: 'skillbridge://arm/snapshot' });
    expect((snap1.contents[0] as { text: string }).text).toContain('holding: nothing');

    elicit.answers.push({ action: 'accept', content: { approve: true } });
    const yes = await client.callTool({ name: 'arm__pick', arguments: { object_name: 'lemon' } });
    expect(yes.isError).toBeFalsy();
    expect(yes.structuredContent).toMatchObject({ ok: true, data: { ok: true } });
    const snap2 = await client.readResource({ uri: 'skillbridge://arm/snapshot' });
    expect((snap2.contents[0] as { text: string }).text).toContain('holding: lemon_1');
    // Reading never asks.
    const asked = elicit.asked.length;
    await client.callTool({ name: 'arm__get_objects', arguments: {} });
    expect(elicit.asked.length).toBe(asked);
  });

  it('reports progress while a long skill runs, and a cancelled call stops the robot', async () => {
    elicit.answers.push({ action: 'accept', content: { approve: true } });
    const ctl = new AbortController();
    const progress: number[] = [];
    const call = client.callTool({ name: 'rover__undock', arguments: {} }, undefined, {
      signal: ctl.signal,
      onprogress: (p) => {
        progress.push(p.progress);
        if (progress.length === 2) ctl.abort('enough');
      },
    });
    await expect(call).rejects.toThrow();
    expect(progress[1]!).toBeGreaterThan(progress[0]!);
    // The skill saw the abort: the trace records it as stopped, and the rover is still docked.
    const deadline = Date.now() + 10_000;
    let result: Record<string, unknown> | undefined;
    while (!result && Date.now() < deadline) {
      const file = readdirSync(traceDir).find((f) => f.endsWith('-rover.jsonl'))!;
      result = parseTrace(readFileSync(join(traceDir, file), 'utf8')).records.find(
        (r) => r.type === 'tool_result' && r.name === 'undock',
      ) as Record<string, unknown> | undefined;
      if (!result) await new Promise((r) => setTimeout(r, 200));
    }
    expect(result).toMatchObject({ status: 'stopped', ok: false });
    expect(String(result!['error'])).toContain('aborted');
    const roverFacts = async () =>
      ((await client.readResource({ uri: 'skillbridge://rover/snapshot' })).contents[0] as { text: string }).text;
    expect(await roverFacts()).not.toContain('robot_at(robot, shelter_entry)');

    // The same skill runs to the end when left alone, and its event reaches the client as a log message.
    elicit.answers.push({ action: 'accept', content: { approve: true } });
    const done = await client.callTool({ name: 'rover__undock', arguments: {} }, undefined, { timeout: 60_000 });
    expect(done.isError).toBeFalsy();
    expect(await roverFacts()).toContain('robot_at(robot, shelter_entry)');
    await expect.poll(() => logs.some((l) => l.logger === 'rover' && (l.data as { type?: string }).type === 'undocked')).toBe(true);
  }, 90_000);

  it('shows both worlds side by side in a live Foxglove view (--foxglove paces them)', async () => {
    const url = /Foxglove live view: (ws:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(stderr())![1]!;
    const v = viewer(url, ['/tf', '/scene']);
    try {
      // One FrameTransforms message per world: each robot's frames under its name, its "sim" frame moved aside.
      const seen = (frame: string) => (v.got.get('/tf') ?? []).find((m) => frameOf(m, frame));
      await expect.poll(() => Boolean(seen('rover/robot#base') && seen('arm/lemon_1'))).toBe(true);
      const simX = (name: string) => frameOf(seen(`${name}/sim`), `${name}/sim`)!.x;
      expect(simX('rover')).toBeGreaterThan(simX('arm'));
      const entities = () =>
        (v.got.get('/scene') ?? []).flatMap((m) => (m as { entities: Array<{ id: string }> }).entities.map((e) => e.id));
      await expect.poll(entities).toEqual(expect.arrayContaining(['arm/floor', 'rover/floor', 'arm/lemon_1']));
    } finally {
      v.client.close();
    }
  });

  it("serves each robot's snapshot, events, info and camera as resources", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      ['arm', 'rover'].flatMap((r) => ['camera', 'events', 'info', 'snapshot'].map((w) => `skillbridge://${r}/${w}`)).sort(),
    );
    const cam = await client.readResource({ uri: 'skillbridge://arm/camera' });
    const png = cam.contents.find((c) => c.mimeType === 'image/png') as { blob: string };
    expect(Buffer.from(png.blob, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect((cam.contents.find((c) => c.mimeType === 'text/plain') as { text: string }).text).toContain('perception reports');
    const info = JSON.parse(((await client.readResource({ uri: 'skillbridge://rover/info' })).contents[0] as { text: string }).text) as {
      info: { capabilities: string[] };
      tools: Array<{ name: string }>;
    };
    expect(info.info.capabilities).toContain('rover');
    expect(info.tools.map((t) => t.name)).toContain('rover__dock');
    const shot = await client.callTool({ name: 'arm__get_camera_image', arguments: { width: 64 } });
    expect((shot as CallToolResult).content.map((c) => c.type)).toEqual(['text', 'image', 'resource_link']);
  });

  it("writes each robot's trace, which replays to the same outcomes (skillbridge export's input)", async () => {
    const file = readdirSync(traceDir).find((f) => f.endsWith('-arm.jsonl'))!;
    const trace = readTrace(join(traceDir, file));
    expect(trace.header).toMatchObject({ scene: 'tabletop/fruits', workflow: 'mcp', seed: 1 });
    expect(trace.records[0]).toMatchObject({ type: 'note', data: { robot: 'arm', toolSet: 'alrm' } });
    expect(trace.records.filter((r) => r.type === 'approval').map((r) => (r as { decision: string }).decision)).toEqual([
      'rejected',
      'approved',
    ]);
    const topics = new Map<string, number>();
    const summary = await replayTraces([trace], (key) => {
      topics.set(key, (topics.get(key) ?? 0) + 1);
    });
    // The declined pick did not run and is not replayed; the approved one is, with the same result.
    expect(summary.skipped.map((s) => s.reason)).toContain('did not run (rejected)');
    expect(summary.replayed).toBeGreaterThanOrEqual(2);
    expect(summary.diverged).toEqual([]);
    expect(topics.get('tf')).toBeGreaterThan(5);
  }, 30_000);

  it('passes an approved call through the safety chain: a target outside the workspace is refused and traced', async () => {
    elicit.answers.push({ action: 'accept', content: { approve: true } });
    const far = await client.callTool({
      name: 'arm__move_to',
      arguments: { pose: { position: { x: 0.3, y: 0.9, z: 1e6 } } },
    });
    expect(text(far)).toMatch(/refused by the safety chain/);
    const file = readdirSync(traceDir).find((f) => f.endsWith('-arm.jsonl'))!;
    const safety = readTrace(join(traceDir, file)).records.filter((r) => r.type === 'safety');
    expect(safety.at(-1)).toMatchObject({ verdict: 'refuse', via: 'mcp', tool: 'move_to', checks: ['workspace'] });
  });

  it('answers bad calls with one clear error and keeps serving', async () => {
    const bad = await client.callTool({ name: 'arm__pick', arguments: { object: 3 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('object_name');
    const huge = await client.callTool({ name: 'arm__get_pose', arguments: { name: 'x'.repeat(40_000) } });
    expect(text(huge)).toMatch(/40\d{3} bytes; the limit is 16384/);
    const unknown = await client.callTool({ name: 'arm__fly', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain('arm__fly');
    await expect(client.readResource({ uri: 'skillbridge://nobody/snapshot' })).rejects.toThrow(/not found/i);
    const still = await client.callTool({ name: 'arm__get_objects', arguments: {} });
    expect(still.isError).toBeFalsy();
  });
});

describe('skillbridge mcp over stdio: input no client should send', () => {
  let raw: RawLines;
  beforeAll(() => {
    raw = new RawLines(['mcp', '--scene', 'tabletop/fruits']);
  });
  afterAll(async () => {
    await raw?.close();
  });

  it('answers garbage, non-JSON-RPC and oversized lines with errors, and refuses to act without a way to ask', async () => {
    raw.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    );
    expect(await raw.response(1)).toHaveProperty('result.serverInfo.name', 'skillbridge');
    raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));

    raw.send('this is not json {');
    expect(await raw.response(null)).toMatchObject({ error: { code: -32700 } });
    raw.send(JSON.stringify({ hello: 'world', id: 7 }));
    expect(await raw.response(7)).toMatchObject({ error: { code: -32600 } });
    raw.send(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 8,
        method: 'tools/call',
        params: { name: 'get_pose', arguments: { name: 'y'.repeat(2_000_000) } },
      }),
    );
    const big = await raw.response(8);
    expect(big).toMatchObject({ error: { code: -32600 } });
    expect(JSON.stringify(big)).toMatch(/\d+ bytes; the limit is 1048576/);
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'no/such/method' }));
    expect(await raw.response(9)).toMatchObject({ error: { code: -32601 } });
    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 42 } }));
    expect(await raw.response(10)).toHaveProperty('error');

    // Default --approve ask, and this client cannot show a form: the call is refused with the way out.
    raw.send(
      JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'pick', arguments: { object_name: 'lemon' } } }),
    );
    const refused = (await raw.response(11)) as { result: CallToolResult };
    expect(refused.result.isError).toBe(true);
    expect(text(refused.result)).toContain('--approve auto');

    raw.send(JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'tools/list' }));
    const list = (await raw.response(12)) as { result: { tools: Array<{ name: string }> } };
    expect(list.result.tools.map((t) => t.name)).toContain('pick');
    expect(raw.stderr).toContain('refused a line that is not JSON');
    expect(await raw.close()).toBe(0);
  }, 60_000);
});
