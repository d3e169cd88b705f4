// @vitest-environment happy-dom
// A call's picture in the trace panel and in a replay: a thumbnail whose alt
// text says what it is (which camera, size, time), enlarged on click; its bytes
// asked of the host by the run's id and the picture's name; a picture that
// cannot be had says "picture not available (why)" and nothing else breaks.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppApiError } from '../../../../contract/api';
import type { RunEvent } from '../../../../contract/schemas';
import { fromTrace } from '../run-from-trace';
import { applyEvent, newRun } from '../run-view';
import { loadReplay } from '../../teaching/replay';
import { type PictureApi, RunPictures } from './run-pictures';
import { TracePanel } from './trace-panel';

afterEach(cleanup);

const R = 'run-7';
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const picture = { id: 'c1-1.png', mimeType: 'image/png', width: 64, height: 48, simTime: 3.6 };
const events: RunEvent[] = [
  { kind: 'tool_call', runId: R, callId: 'c1', iteration: 0, name: 'get_camera_image', args: { width: 64 } },
  {
    kind: 'tool_result',
    runId: R,
    callId: 'c1',
    name: 'get_camera_image',
    ok: true,
    status: 'ok',
    content: 'Camera picture taken (64×48 PNG, t=3.6 s)',
    durationMs: 30,
    pictures: [picture],
  },
];
const live = events.reduce(applyEvent, newRun(R, 'look at the table', 'scripted', 'flat'));
const asked: unknown[] = [];
const api = (answer: () => Promise<{ mimeType: 'image/png'; width: number; height: number; data: string }>): PictureApi => ({
  getRunImage: (req) => {
    asked.push(req);
    return answer();
  },
  getCaseImage: (req) => {
    asked.push({ case: req });
    return answer();
  },
});

describe('pictures in the trace panel', () => {
  it('shows the picture the host gives, with alt text, and enlarges it on click', async () => {
    render(<TracePanel runs={[live]} api={api(async () => ({ mimeType: 'image/png', width: 64, height: 48, data: PNG_1PX }))} />);
    const img = (await screen.findByTestId('run-picture')) as HTMLImageElement;
    expect(img.alt).toBe('Robot camera picture, 64×48 PNG, t=3.6 s');
    expect(img.src).toBe(`data:image/png;base64,${PNG_1PX}`);
    expect(asked.at(-1)).toEqual({ runId: R, image: 'c1-1.png' });
    fireEvent.click(screen.getByRole('button', { name: /Enlarge: Robot camera picture/ }));
    expect(screen.getByRole('dialog', { name: 'Robot camera picture, 64×48 PNG, t=3.6 s' })).toBeTruthy();
  });

  it('a picture the host cannot give says why, in the panel; the rest of the row stays', async () => {
    const refuse = api(async () => {
      throw new AppApiError('invalid_request', 'the picture file beside the trace: no such file');
    });
    render(<TracePanel runs={[live]} api={refuse} />);
    expect((await screen.findByTestId('picture-missing')).textContent).toBe(
      'picture not available (the picture file beside the trace: no such file)',
    );
    expect(screen.getByTestId('trace-result').textContent).toMatch(/Camera picture taken/);
  });

  it('without a host to ask, says so', async () => {
    render(<TracePanel runs={[live]} />);
    expect((await screen.findByTestId('picture-missing')).textContent).toMatch(/picture not available \(this view is not connected/);
  });
});

describe('pictures in a replay', () => {
  const trace = {
    header: { type: 'header', runId: R, startedAt: '2026-01-01T00:00:00.000Z' },
    records: [
      { type: 'tool_call', t: '2026-01-01T00:00:01.000Z', id: 'c1', name: 'get_camera_image', arguments: '{"width":64}', iteration: 0 },
      {
        type: 'tool_result',
        t: '2026-01-01T00:00:01.200Z',
        id: 'c1',
        name: 'get_camera_image',
        ok: true,
        status: 'ok',
        result: 'Camera picture taken',
        durationMs: 30,
        data: { picture: { mimeType: 'image/png', width: 64, height: 48, time: 3.6 } },
        images: [{ mimeType: 'image/png', width: 64, height: 48, ref: `${R}.files/c1-1.png`, bytes: 70 }],
      },
      // A picture the trace kept nowhere (written without files) is not offered.
      {
        type: 'tool_result',
        t: '2026-01-01T00:00:02.000Z',
        id: 'c2',
        name: 'get_camera_image',
        ok: true,
        status: 'ok',
        durationMs: 1,
        images: [{ mimeType: 'image/png' }],
      },
    ],
    truncated: false,
    notes: [],
  };
  const summary = {
    runId: R,
    message: '',
    workflow: '',
    model: '',
    scene: null,
    startedAt: '',
    running: false,
    reason: null,
    toolCalls: 1,
    durationMs: 0,
    poses: false,
  };

  it('the trace names the same picture as the live run, at the result that gave it', () => {
    const replay = loadReplay({
      run: summary,
      trace,
      poses: null,
    });
    const results = replay.events.filter((e) => e.kind === 'result');
    expect(results[0]!.pictures).toEqual({ tool: 'get_camera_image', list: [picture] });
    expect(results[1]!.pictures).toBeUndefined();
    const view = fromTrace(trace);
    const tool = view.entries.find((e) => e.k === 'tool');
    expect(tool?.k === 'tool' && tool.pictures).toEqual([picture]);
  });

  it("an evaluated case's replay asks for its pictures by the evaluation run, case and trial (not as a session run)", async () => {
    const evalCase = { runId: 'eval-1', caseId: 'etp-img-need-3', trial: 1 };
    const replay = loadReplay({ run: { ...summary, runId: 'eval-1-etp-img-need-3-1' }, trace, poses: null, evalCase });
    expect(replay.evalCase).toEqual(evalCase);
    const shown = api(async () => ({ mimeType: 'image/png', width: 64, height: 48, data: PNG_1PX }));
    render(<RunPictures api={shown} runId={replay.run.runId} evalCase={replay.evalCase} tool="get_camera_image" pictures={[picture]} />);
    expect(((await screen.findByTestId('run-picture')) as HTMLImageElement).src).toBe(`data:image/png;base64,${PNG_1PX}`);
    expect(asked.at(-1)).toEqual({ case: { ...evalCase, image: 'c1-1.png' } });
  });
});
