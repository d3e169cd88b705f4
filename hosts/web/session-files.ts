// What a web-mode session keeps on disk, and what a page is told of it. Each
// session (a group's tab) writes its traces and evaluation results in a folder
// of its own, so a group reads its own runs and reports only (the teacher reads
// a group's by watching it); a page learns a trace's file name, never the
// server's folders.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AppEvent } from '../../contract/schemas';
import { redactHostPaths } from '../service/page-errors';

/** Per-session folders under the server's trace and results folders (a new name for each session opened). */
export function sessionFolders(traceBase: string, evalBase: string): { traceDir: string; evalDir: string; name: string } {
  const name = `session-${new Date().toISOString().slice(0, 10)}-${randomBytes(6).toString('hex')}`;
  return { traceDir: path.join(traceBase, name), evalDir: path.join(evalBase, name), name };
}

/** A trace path as a page sees it: the file's name only. */
export function pagePath(p: string | null): string | null {
  return p === null ? null : path.basename(p);
}

/** An event as a page sees it: run events name their trace by file name only; errors and logs name no host path. */
export function pageEvent(event: AppEvent): AppEvent {
  if (event.type === 'run' && (event.event.kind === 'started' || event.event.kind === 'final') && event.event.tracePath) {
    return { ...event, event: { ...event.event, tracePath: pagePath(event.event.tracePath) } };
  }
  if (event.type === 'run' && event.event.kind === 'error')
    return { ...event, event: { ...event.event, message: redactHostPaths(event.event.message) } };
  if (event.type === 'eval' && event.event.kind === 'ended' && event.event.error)
    return { ...event, event: { ...event.event, error: redactHostPaths(event.event.error) } };
  if (event.type === 'eval' && event.event.kind === 'log')
    return { ...event, event: { ...event.event, text: redactHostPaths(event.event.text) } };
  return event;
}

/** A reply as a page sees it (the `run` method names the trace it writes; the models list names no folder of the server). */
export function pageReply(method: string, value: unknown): unknown {
  if (method === 'listLocalModels' && value && typeof value === 'object' && 'dir' in value)
    return { ...value, dir: "the server's models folder" };
  if (method === 'run' && value && typeof value === 'object' && 'tracePath' in value) {
    const v = value as { tracePath: string | null };
    return { ...v, tracePath: pagePath(v.tracePath) };
  }
  return value;
}
