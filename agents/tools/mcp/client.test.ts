// The MCP client: tools of external servers join a conversation with cards and
// categories, run in the server's process, and acting ones pass the approval
// gate. The external server here is our own `skillbridge mcp` in a real process,
// and a misbehaving one that hangs, dies or writes garbage.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeModel } from '../../../test/support/fake-model';
import { BIN } from '../../../test/support/mcp';
import { openConversation } from '../../conversation';
import { MemorySink } from '../../runtime/trace';
import { type McpToolbox, McpConnectError, connectMcpServers } from './client';
import { McpConfigError, parseMcpConfig } from './config';

const ctx = () => ({ robot: undefined as never, signal: new AbortController().signal, state: new Map<string, unknown>() });

describe('MCP client against skillbridge mcp (a real process)', () => {
  let box: McpToolbox;
  beforeAll(async () => {
    box = await connectMcpServers(
      parseMcpConfig({
        mcpServers: {
          sb: { command: process.execPath, args: [BIN, 'mcp', '--scene', 'tabletop/fruits', '--approve', 'auto'], startSeconds: 120 },
        },
      }),
    );
  }, 130_000);
  afterAll(async () => box?.close());

  it("names each tool after its server, keeps the server's card, and reads the category from readOnlyHint", () => {
    const names = box.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['sb__pick', 'sb__get_objects', 'sb__get_camera_image']));
    const pick = box.tools.find((t) => t.name === 'sb__pick')!;
    expect(pick.category).toBe('action');
    expect(pick.card.whenToUse).toContain('gripper must be empty');
    expect(pick.card.tags).toEqual(expect.arrayContaining(['mcp', 'sb']));
    expect(pick.card.requires).toEqual([]);
    expect(pick.parameters['required']).toEqual(['object_name']);
    expect(box.tools.find((t) => t.name === 'sb__get_objects')!.category).toBe('information');
    expect(box.approvalOverrides('auto')).toMatchObject({ sb__pick: 'ask' });
    expect(box.approvalOverrides('auto')['sb__get_objects']).toBeUndefined();
    expect(box.approvalOverrides('deny')['sb__pick']).toBe('deny');
  });

  it('validates arguments against the JSON Schema with the same message as built-in tools, and runs calls out of process', async () => {
    const pose = box.tools.find((t) => t.name === 'sb__get_pose')!;
    const bad = pose.parse({ nme: 'lemon' });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? '' : bad.message).toContain('Invalid arguments for sb__get_pose');
    expect(bad.ok ? '' : bad.message).toContain('name: missing');
    const r = await pose.call({ name: 'lemon' }, ctx());
    expect(r.ok).toBe(true);
    expect(r.content).toMatch(/"x":/);
    const shot = await box.tools.find((t) => t.name === 'sb__get_camera_image')!.call({ width: 32 }, ctx());
    expect(shot.content).toContain('[image: image/png');
  });

  it('adds the tools to a conversation, where acting ones wait for approval', async () => {
    const asked: string[] = [];
    const sink = new MemorySink();
    const model = new FakeModel([
      { toolCalls: [{ name: 'sb__get_objects', arguments: {} }] },
      { toolCalls: [{ name: 'sb__pick', arguments: { object_name: 'lemon' } }] },
      { content: 'The other robot holds the lemon.' },
    ]);
    const opened = await openConversation({
      robot: { kind: 'sim', scene: 'tabletop/fruits' },
      workflow: 'flat',
      model,
      extraTools: box.tools,
      approval: {
        policy: { information: 'auto', action: 'auto', tools: box.approvalOverrides('auto') },
        ask: async (req) => {
          asked.push(req.tool);
          return { approved: true };
        },
      },
      traceSinks: () => [sink],
    });
    const r = await opened.conversation.send('have the other robot pick the lemon');
    await opened.close();
    expect(r.reason).toBe('final');
    expect(model.requests[0]!.tools).toEqual(expect.arrayContaining(['pick', 'sb__pick', 'sb__get_objects']));
    expect(asked).toEqual(['sb__pick']);
    const recs = sink.records;
    expect(recs.find((x) => x.type === 'approval')).toMatchObject({ tool: 'sb__pick', decision: 'approved' });
    expect(recs.find((x) => x.type === 'tool_result' && x.name === 'sb__pick')).toMatchObject({ ok: true, status: 'ok' });
    expect(JSON.stringify(recs.find((x) => x.type === 'tool_result' && x.name === 'sb__get_objects'))).toContain('lemon_1');
  }, 60_000);
});

describe('MCP client: servers that misbehave', () => {
  const misbehaving = join(import.meta.dirname, '../../../test/support/mcp-misbehaving-server.mjs');
  let box: McpToolbox;
  beforeAll(async () => {
    box = await connectMcpServers(
      parseMcpConfig({ mcpServers: { bad: { command: process.execPath, args: [misbehaving], timeoutSeconds: 1, startSeconds: 60 } } }),
    );
  }, 70_000);
  afterAll(async () => box?.close());
  const tool = (n: string) => box.tools.find((t) => t.name === `bad__${n}`)!;

  it('cancels a call that never answers, and the server keeps serving', async () => {
    const r = await tool('hang').call({}, ctx());
    expect(r).toMatchObject({ ok: false });
    expect(r.content).toContain('hang on the MCP server "bad" failed: it did not answer within 1 s');
    expect((await tool('echo').call({ text: 'hi' }, ctx())).content).toBe('echo: hi');
  });

  it('stops a call when the run stops', async () => {
    const ctl = new AbortController();
    const p = tool('hang').call({}, { ...ctx(), signal: ctl.signal });
    setTimeout(() => ctl.abort(new Error('stopped by the user')), 100);
    await expect(p).rejects.toThrow();
  });

  it('survives a line that is not JSON-RPC', async () => {
    expect((await tool('garbage').call({}, ctx())).content).toBe('still here');
  });

  it('names the cause when the server dies mid-call, and refuses later calls at once', async () => {
    const r = await tool('die').call({}, ctx());
    expect(r.ok).toBe(false);
    expect(r.content).toContain('die on the MCP server "bad" failed: its connection closed');
    expect(r.content).toContain('dying on purpose');
    const after = await tool('echo').call({ text: 'hi' }, ctx());
    expect(after.content).toContain('was not run');
    expect(box.servers[0]!.closed).toBe(true);
  });
});

describe('MCP client: bad configuration and servers that never start', () => {
  it('names the field of a config that does not validate', () => {
    const bad = (data: unknown) => {
      try {
        parseMcpConfig(data, 'mcp.json');
        return '';
      } catch (e) {
        expect(e).toBeInstanceOf(McpConfigError);
        return (e as Error).message;
      }
    };
    expect(bad({})).toContain('mcp.json: mcpServers:');
    expect(bad({ mcpServers: { x: { args: [] } } })).toContain('mcpServers.x');
    expect(bad({ mcpServers: { 'a b': { command: 'node' } } })).toContain('server name');
    expect(bad({ mcpServers: { x: { url: 'ftp://example' } } })).toContain('mcpServers.x');
    expect(bad({ mcpServers: { x: { command: 'node', timeoutSeconds: -1 } } })).toContain('mcpServers.x');
  });

  it('says when the program does not exist, or the server does not answer initialize in time', async () => {
    await expect(connectMcpServers(parseMcpConfig({ mcpServers: { ghost: { command: 'no-such-program-xyz' } } }))).rejects.toThrow(
      McpConnectError,
    );
    await expect(connectMcpServers(parseMcpConfig({ mcpServers: { ghost: { command: 'no-such-program-xyz' } } }))).rejects.toThrow(
      /MCP server "ghost" did not start: (there is no program "no-such-program-xyz"|its connection closed)/,
    );
    const mute = parseMcpConfig({
      mcpServers: { mute: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], startSeconds: 1 } },
    });
    await expect(connectMcpServers(mute)).rejects.toThrow('MCP server "mute" did not start: it did not answer start in time');
  }, 30_000);
});
