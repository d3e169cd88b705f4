// A conversation killed in the middle of a turn (trace-files.test.ts). Argument:
// the trace folder. The first turn answers; the second calls a tool that prints
// "in tool" (and how many trace files were spares) and never returns, so the parent can kill the process there. The
// event loop turns between the turns, so the second turn's trace file is the
// spare made ahead and renamed.
import { readdirSync } from 'node:fs';
import { z } from 'zod';
import { Conversation } from '../../agents/runtime/conversation';
import { defineTool } from '../../agents/tools/tool';
import { loopWorkflow } from '../../agents/workflows/kit/loop';
import { isSpareTraceName, spareStats } from '../../agents/runtime/trace-files';
import { answer, call, FakeModel } from './fake-model';
import { noRobot } from './runtime-tools';

const hang = defineTool({
  name: 'hang',
  description: 'Never returns.',
  category: 'information',
  params: z.strictObject({}),
  card: { outputs: 'nothing', whenToUse: 'in tests', dimension: 'perception' },
  execute: () => {
    process.stdout.write(`in tool; trace files from a spare: ${spareStats.taken}\n`);
    return new Promise<never>(() => undefined);
  },
});

const dir = process.argv[2]!;
const session = new Conversation({
  model: new FakeModel([answer('Hello.'), call('hang'), answer('never reached')]),
  robot: noRobot,
  workflow: loopWorkflow({
    id: 'test/kill',
    title: 'kill',
    description: 'a turn killed in a tool',
    systemPrompt: () => 'sys',
    tools: () => [hang],
    limits: { timeLimitMs: null },
  }),
  traceDir: dir,
});
await session.send('Hi.');
// Until the spare is made (the thread pool is slow on a busy machine), then one more turn of the loop for its callback.
const tick = () => new Promise((r) => setTimeout(r, 30));
for (let i = 0; i < 100 && !readdirSync(dir).some(isSpareTraceName); i++) await tick();
await tick();
await session.send('Wait for ever.');
