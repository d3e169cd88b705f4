// Skillbridge drives another Skillbridge: its MCP client declares elicitation
// and answers a server's approval question by the --approve policy (or the
// person), so `skillbridge mcp` on its default `--approve ask` runs an acting
// tool the client approves and refuses one it rejects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../../test/support/mcp';
import { type ElicitQuestion, type McpToolbox, approvalAnswer, connectMcpServers } from './client';
import { parseMcpConfig } from './config';

const ctx = () => ({ robot: undefined as never, signal: new AbortController().signal, state: new Map<string, unknown>() });

describe('the MCP client answers approval requests (elicitation)', () => {
  let box: McpToolbox;
  let approve = false;
  const asked: ElicitQuestion[] = [];
  beforeAll(async () => {
    box = await connectMcpServers(
      parseMcpConfig({
        mcpServers: { sb: { command: process.execPath, args: [BIN, 'mcp', '--scene', 'tabletop/fruits'], startSeconds: 120 } },
      }),
      {
        elicit: async (q) => {
          asked.push(q);
          return approve ? { approved: true } : { approved: false, note: 'not now' };
        },
      },
    );
  }, 130_000);
  afterAll(async () => box?.close());

  it('a rejected acting call does not run; an approved one does', async () => {
    const pick = box.tools.find((t) => t.name === 'sb__pick')!;
    const objects = box.tools.find((t) => t.name === 'sb__get_objects')!;
    approve = false;
    const no = await pick.call({ object_name: 'lemon' }, ctx());
    expect(no.ok).toBe(false);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.server).toBe('sb');
    expect(asked[0]!.message).toMatch(/pick/);
    approve = true;
    const yes = await pick.call({ object_name: 'lemon' }, ctx());
    expect(yes.ok).toBe(true);
    expect(asked).toHaveLength(2);
    // Reading needs no approval.
    expect((await objects.call({}, ctx())).ok).toBe(true);
    expect(asked).toHaveLength(2);
  }, 60_000);

  it('fills only approval-shaped forms', () => {
    const form = { properties: { approve: { type: 'boolean' }, note: { type: 'string' } }, required: ['approve'] };
    expect(approvalAnswer(form, { approved: true, note: 'go' })).toEqual({ action: 'accept', content: { approve: true, note: 'go' } });
    expect(approvalAnswer(form, { approved: false })).toEqual({ action: 'decline' });
    expect(approvalAnswer({ properties: { name: { type: 'string' } }, required: ['name'] }, { approved: true })).toEqual({
      action: 'decline',
    });
  });
});
