// Tools from outside the project behind one seam: an ExternalToolSource lists tool
// declarations and answers calls. A tool module run in a child process is the first
// kind (ChildProcessSource); MCP servers plug in as another. Each declaration
// becomes an ordinary Tool (its JSON Schema turned into zod for validation), so the
// registry, discovery and the isolation boundary treat it like any other.
import { type ChildProcess, spawn } from 'node:child_process';
import { z } from 'zod';
import type { ToolResult } from '../tool';
import { type Tool, defineTool } from '../tool';
import { type ChildMessage, ChildMessageSchema, type ExternalToolDecl, ExternalToolDeclSchema, type HostMessage } from './protocol';
import { RUNNER_SOURCE } from './runner-source';

export interface ExternalToolSource {
  /** Names the source in the registry and the trace, e.g. "script:crop-tools". */
  readonly id: string;
  list(signal?: AbortSignal): Promise<ExternalToolDecl[]>;
  call(name: string, args: unknown, signal: AbortSignal): Promise<ToolResult>;
  close(): Promise<void>;
}

export class ExternalToolError extends Error {
  override name = 'ExternalToolError';
}

/** The source's tools as Tools; a declaration that does not validate is reported by name and left out. */
export async function externalTools(source: ExternalToolSource, signal?: AbortSignal): Promise<{ tools: Tool[]; rejected: string[] }> {
  const tools: Tool[] = [];
  const rejected: string[] = [];
  for (const [i, raw] of (await source.list(signal)).entries()) {
    const d = ExternalToolDeclSchema.safeParse(raw);
    if (!d.success) {
      rejected.push(
        `tool ${i + 1} of ${source.id}: ${d.error.issues.map((x) => `${x.path.join('.') || '(tool)'}: ${x.message}`).join('; ')}`,
      );
      continue;
    }
    const decl = d.data;
    let params: z.ZodObject;
    try {
      const s = z.fromJSONSchema(decl.parameters);
      if (!(s instanceof z.ZodObject)) throw new Error('not an object schema');
      params = s;
    } catch (e) {
      rejected.push(`${decl.name} (${source.id}): parameters are not a usable JSON Schema (${(e as Error).message})`);
      continue;
    }
    tools.push(
      defineTool({
        name: decl.name,
        description: decl.description,
        category: decl.category,
        params,
        card: { ...decl.card, tags: [...(decl.card.tags ?? []), 'external'] },
        execute: (args, ctx) => source.call(decl.name, args, ctx.signal),
      }),
    );
  }
  return { tools, rejected };
}

export interface ChildProcessOptions {
  /** How long the process may take to load its module and say it is ready. */
  startTimeoutMs?: number;
  /** After a cancel, how long a call may take to answer before the process is killed. */
  cancelGraceMs?: number;
  env?: Record<string, string | undefined>;
}

interface Pending {
  resolve: (r: ToolResult) => void;
  reject: (e: Error) => void;
}

/**
 * A tool module run in its own Node process: a crash, a hang or a memory leak in it
 * cannot take the robot's process along. A call that ignores its cancel is ended by
 * killing the process, which starts again on the next call.
 */
export class ChildProcessSource implements ExternalToolSource {
  readonly id: string;
  private child: ChildProcess | undefined;
  private starting: Promise<ChildProcess> | undefined;
  private readonly pending = new Map<number, Pending>();
  private listing: ((tools: unknown[]) => void) | undefined;
  private ids = 0;
  private stderr = '';
  /** Process ids this source has started (tests read them; the trace names them). */
  readonly pids: number[] = [];

  constructor(
    readonly modulePath: string,
    private readonly opts: ChildProcessOptions = {},
  ) {
    this.id = `script:${
      modulePath
        .split(/[\\/]/)
        .pop()
        ?.replace(/\.[mc]?js$/, '') ?? modulePath
    }`;
  }

  async list(signal?: AbortSignal): Promise<ExternalToolDecl[]> {
    const child = await this.ensure();
    return new Promise<ExternalToolDecl[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ExternalToolError(`${this.id} did not list its tools within 10 s`)), 10_000);
      this.listing = (tools) => {
        clearTimeout(timer);
        resolve(tools as ExternalToolDecl[]);
      };
      signal?.addEventListener('abort', () => reject(new ExternalToolError('listing was aborted')), { once: true });
      this.post(child, { type: 'list' });
    });
  }

  async call(name: string, args: unknown, signal: AbortSignal): Promise<ToolResult> {
    const child = await this.ensure();
    const id = ++this.ids;
    return new Promise<ToolResult>((resolve, reject) => {
      let killTimer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        this.post(child, { type: 'cancel', id });
        killTimer = setTimeout(() => {
          // It did not answer its cancel: end the process (the next call starts a fresh one).
          this.kill(`${name} did not stop when cancelled; its process was ended`);
        }, this.opts.cancelGraceMs ?? 200);
      };
      const settle = () => {
        clearTimeout(killTimer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      this.pending.set(id, {
        resolve: (r) => {
          settle();
          resolve(r);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      this.post(child, { type: 'call', id, name, args });
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.starting = undefined;
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.disconnect?.();
      child.kill();
      await exited;
    }
  }

  private post(child: ChildProcess, m: HostMessage): void {
    if (child.connected) child.send(m);
  }

  private kill(why: string): void {
    const child = this.child;
    this.child = undefined;
    this.starting = undefined;
    child?.kill('SIGKILL');
    for (const p of [...this.pending.values()]) p.reject(new ExternalToolError(why));
  }

  private ensure(): Promise<ChildProcess> {
    if (this.child?.connected) return Promise.resolve(this.child);
    this.starting ??= this.start();
    return this.starting;
  }

  private start(): Promise<ChildProcess> {
    this.stderr = '';
    const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER_SOURCE, this.modulePath], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // In the desktop app process.execPath is Electron: make it behave as Node.
      env: { ...process.env, ...this.opts.env, ELECTRON_RUN_AS_NODE: '1' },
    });
    if (child.pid !== undefined) this.pids.push(child.pid);
    child.stderr?.on('data', (b: Buffer) => {
      this.stderr = (this.stderr + b.toString()).slice(-2000);
    });
    return new Promise<ChildProcess>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new ExternalToolError(`${this.id} did not start within ${(this.opts.startTimeoutMs ?? 10_000) / 1000} s`));
      }, this.opts.startTimeoutMs ?? 10_000);
      child.on('message', (raw: unknown) => {
        const m = ChildMessageSchema.safeParse(raw);
        if (!m.success) return; // a tool process speaking out of turn is ignored, never trusted
        this.onMessage(
          m.data,
          () => {
            clearTimeout(timer);
            this.child = child;
            resolve(child);
          },
          (e) => {
            clearTimeout(timer);
            reject(e);
          },
        );
      });
      child.on('exit', (code, sig) => {
        clearTimeout(timer);
        if (this.child === child) this.child = undefined;
        if (this.starting && !this.child) this.starting = undefined;
        const why = `${this.id} exited (${sig ?? `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim().split('\n').at(-1)}` : ''}`;
        for (const p of [...this.pending.values()]) p.reject(new ExternalToolError(why));
        reject(new ExternalToolError(why));
      });
      child.on('error', (e) => {
        clearTimeout(timer);
        reject(new ExternalToolError(`${this.id} could not start: ${e.message}`));
      });
    });
  }

  private onMessage(m: ChildMessage, ready: () => void, failed: (e: Error) => void): void {
    switch (m.type) {
      case 'ready':
        ready();
        return;
      case 'tools':
        this.listing?.(m.tools);
        this.listing = undefined;
        return;
      case 'result':
        this.pending.get(m.id)?.resolve({ ok: m.ok, content: m.content, ...(m.data !== undefined ? { data: m.data } : {}) });
        return;
      case 'error':
        if (m.id !== undefined) this.pending.get(m.id)?.reject(new ExternalToolError(m.message));
        else failed(new ExternalToolError(m.message));
        return;
    }
  }
}
