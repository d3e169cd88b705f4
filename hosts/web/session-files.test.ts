// Per-session files in web mode: each session gets its own folders, and a page
// is told a trace's file name, never the server's folder.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppEvent } from '../../contract/schemas';
import { pageEvent, pageReply, sessionFolders } from './session-files';

describe('session files', () => {
  it('gives each session its own trace and results folders under the server folders', () => {
    const a = sessionFolders('/srv/traces', '/srv/eval-results');
    const b = sessionFolders('/srv/traces', '/srv/eval-results');
    expect(path.dirname(a.traceDir)).toBe('/srv/traces');
    expect(path.dirname(a.evalDir)).toBe('/srv/eval-results');
    expect(a.traceDir).not.toBe(b.traceDir);
    expect(a.evalDir).not.toBe(b.evalDir);
  });

  it("shows a page a run's trace by file name only, in the run's reply and its events", () => {
    expect(pageReply('run', { runId: 'r1', tracePath: '/srv/traces/session-x/r1.jsonl' })).toEqual({ runId: 'r1', tracePath: 'r1.jsonl' });
    expect(pageReply('listRuns', [{ runId: 'r1' }])).toEqual([{ runId: 'r1' }]);
    expect(pageReply('listLocalModels', { dir: '/home/teacher/.local/share/skillbridge/models', models: [] })).toEqual({
      dir: "the server's models folder",
      models: [],
    });
    const started = {
      type: 'run',
      event: { kind: 'started', runId: 'r1', message: 'm', workflow: 'flat', model: 'x', tracePath: '/srv/traces/session-x/r1.jsonl' },
    } as AppEvent;
    expect(JSON.stringify(pageEvent(started))).not.toContain('/srv');
    const loaded: AppEvent = { type: 'scene_loaded', sceneId: 'tabletop/fruits', generation: 1 };
    expect(pageEvent(loaded)).toBe(loaded);
  });
});
