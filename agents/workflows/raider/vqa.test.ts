// RAIDER's VQA baseline (Appendix B.2) on the kitchen: the camera picture goes
// to a model that reads images as an image part with the query, no tools; the
// trace shows the camera call and keeps the picture beside it; a text model is
// sent the query alone, and the trace says so. In evaluation (the RAIDER suite's
// scorer) the oracle scores what LLMVisualObs's oracle scores, floor:noop 0.
import { afterEach, describe, expect, it } from 'vitest';
import { openSim, type OpenedSim } from '../../../robot/sim/open';
import { serverPerTest } from '../../../test/support/model-tests';
import { model } from '../../../test/support/openai-adapter';
import { Conversation } from '../../runtime/conversation';
import { MemorySink } from '../../runtime/trace';
import { createWorkflow } from '../index';

const start = serverPerTest();
let opened: OpenedSim | undefined;
afterEach(() => {
  opened?.control.dispose();
  opened = undefined;
});

type Part = { type: string; text?: string; image_url?: { url: string } };
const VERDICT = '{"final_response": "unfeasibility", "explanation": "the mug cannot be closed.", "category": "IU5"}';

async function ask(input: 'images' | undefined) {
  const s = await start([{ content: VERDICT }]);
  opened = await openSim('kitchen');
  const sink = new MemorySink();
  const c = new Conversation({
    model: model(s, input ? { input } : {}),
    workflow: await createWorkflow('raider/vqa', opened.robot),
    robot: opened.robot,
    traceSinks: () => [sink],
  });
  const r = await c.send('close(blue mug)');
  const body = s.chatRequests()[0]!.body as { tools?: unknown[]; messages: Array<{ role: string; content: string | Part[] }> };
  return { r, body, sink };
}

describe('raider/vqa (VQA, Appendix B.2)', () => {
  it('sends the camera picture and the query to a model that reads images, offers no tools, and reads its verdict', async () => {
    const { r, body, sink } = await ask('images');
    expect(JSON.parse(r.final!)).toMatchObject({ final_response: 'unfeasibility', category: 'IU5' });
    expect(body.tools).toBeUndefined();
    const user = body.messages[1]!.content as Part[];
    expect(user[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Query action: close\(blue mug\)/) });
    expect(user[1]!.image_url!.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(String(body.messages[0]!.content)).toContain('the picture from the robot camera');
    const shot = sink.records.find((x) => x.type === 'tool_result' && x.name === 'get_camera_image') as {
      images: Array<{ ref: string; width: number }>;
    };
    expect(shot.images[0]!.width).toBe(640);
    expect(sink.files.get(shot.images[0]!.ref)?.subarray(1, 4).toString()).toBe('PNG');
  });

  it('sends a text model the query alone, and the trace says so once', async () => {
    const { body, sink } = await ask(undefined);
    expect(body.messages[1]!.content).toMatch(/^Query action: close\(blue mug\)/);
    expect(sink.records.filter((x) => x.type === 'note' && /reads no images/.test(x.text))).toHaveLength(1);
  });
});
