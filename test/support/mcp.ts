// Helpers for tests that run `skillbridge mcp` as a real process: the SDK's
// client over stdio (optionally answering elicitation forms from a queue), a raw
// line-by-line JSON-RPC speaker for malformed input, and an HTTP launcher.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export const BIN = join(import.meta.dirname, '../../bin/skillbridge.js');

export interface ElicitScript {
  /** Answers, in order; a test pushes one before each acting call. */
  answers: ElicitResult[];
  /** The messages the server asked with. */
  asked: string[];
}

export async function stdioClient(
  args: string[],
  o: { elicit?: ElicitScript; cwd?: string; env?: Record<string, string> } = {},
): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    stderr: 'pipe',
    ...(o.cwd ? { cwd: o.cwd } : {}),
    // The SDK passes only a safe default environment; a test adds what the server needs.
    ...(o.env ? { env: { ...getDefaultEnvironment(), ...o.env } } : {}),
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'skillbridge-test', version: '1' }, { capabilities: o.elicit ? { elicitation: {} } : {} });
  if (o.elicit) {
    const script = o.elicit;
    client.setRequestHandler(ElicitRequestSchema, (req) => {
      script.asked.push(req.params.message);
      return script.answers.shift() ?? { action: 'decline' };
    });
  }
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

/** Speaks JSON-RPC line by line to a spawned process: for input no SDK client would send. */
export class RawLines {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: unknown[] = [];
  private waiting: ((v: unknown) => void) | undefined;
  stderr = '';

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe' });
    this.child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const value: unknown = JSON.parse(line);
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(value);
      } else this.queue.push(value);
    });
  }

  send(line: string): void {
    this.child.stdin.write(line.endsWith('\n') ? line : `${line}\n`);
  }

  next(timeoutMs = 20_000): Promise<unknown> {
    const q = this.queue.shift();
    if (q !== undefined) return Promise.resolve(q);
    return new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`no line from the server in ${timeoutMs} ms; stderr: ${this.stderr.slice(-500)}`)),
        timeoutMs,
      );
      this.waiting = (v) => {
        clearTimeout(t);
        resolve(v);
      };
    });
  }

  /** Waits for the response to request `id`, skipping notifications. */
  async response(id: number | string | null): Promise<Record<string, unknown>> {
    for (;;) {
      const m = (await this.next()) as Record<string, unknown>;
      if ('id' in m && m['id'] === id) return m;
    }
  }

  close(): Promise<number | null> {
    this.child.stdin.end();
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) resolve(this.child.exitCode);
      else this.child.once('exit', (code) => resolve(code));
    });
  }
}

/** Starts `skillbridge mcp --http 0 --json …` and reads the URL it prints. */
export async function httpServer(
  args: string[],
): Promise<{ url: string; token: string; child: ChildProcessWithoutNullStreams; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', '--json', ...args], { stdio: 'pipe' });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  let out = '';
  const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"url":\s*"([^"]+)"/.exec(out);
      const t = /"token":\s*"([^"]+)"/.exec(out);
      if (m && t) resolve({ url: m[1]!, token: t[1]! });
    });
    child.once('exit', (code) => reject(new Error(`mcp --http exited with ${code}: ${err}`)));
  });
  return {
    url,
    token,
    child,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
