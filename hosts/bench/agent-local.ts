// bench agent's local-model figures: the built-in local provider (llama.cpp in
// its own process) on the tiny generated test model. Time to first token and
// tokens per second here are a floor for the runtime and the grammar, not a
// model quality figure: a real model is thousands of times bigger.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalModel } from '../../agents/models/local/local-model';
import type { ModelTool } from '../../agents/models/model';
import { writeTinyGguf } from '../../test/support/tiny-gguf';

export interface LocalModelBench {
  model: string;
  loadMs: number;
  turns: number;
  timeToFirstTokenMs: { median: number; max: number };
  tokensPerSecond: { median: number; min: number };
  promptTokens: number;
  completionTokens: number;
}

const TOOLS: ModelTool[] = [
  {
    type: 'function',
    function: {
      name: 'pick',
      description: 'Pick up an object.',
      parameters: { type: 'object', properties: { object: { type: 'string' } }, required: ['object'] },
    },
  },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

export async function benchLocalModel(opts: { quick?: boolean } = {}): Promise<LocalModelBench> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-bench-local-'));
  const model = createLocalModel({ id: 'local:tiny-test', file: writeTinyGguf(path.join(dir, 'tiny.gguf')), maxTokens: 128 });
  try {
    const t0 = performance.now();
    await model.load();
    const loadMs = Math.round(performance.now() - t0);
    const ttft: number[] = [];
    const tps: number[] = [];
    let promptTokens = 0;
    let completionTokens = 0;
    const turns = opts.quick ? 3 : 10;
    for (let i = 0; i < turns; i++) {
      const c = await model.complete({
        messages: [{ role: 'user', content: `Pick up object ${i}.` }],
        tools: TOOLS,
        toolChoice: 'required',
      });
      ttft.push(c.usage?.timeToFirstTokenMs ?? 0);
      tps.push(c.usage?.tokensPerSecond ?? 0);
      promptTokens += c.usage?.promptTokens ?? 0;
      completionTokens += c.usage?.completionTokens ?? 0;
    }
    return {
      model: 'tiny generated llama (2 layers, 64 wide, random weights)',
      loadMs,
      turns,
      timeToFirstTokenMs: { median: median(ttft), max: Math.max(...ttft) },
      tokensPerSecond: { median: median(tps), min: Math.min(...tps) },
      promptTokens,
      completionTokens,
    };
  } finally {
    await model.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures as bench agent prints them. */
export function localBenchLines(r: LocalModelBench): string[] {
  return [
    `Local model (${r.model}; a floor for the runtime, not a quality figure): load ${r.loadMs} ms`,
    `  ${r.turns} grammar-constrained tool-call turns: time to first token ${r.timeToFirstTokenMs.median} ms median (max ${r.timeToFirstTokenMs.max}); ` +
      `${r.tokensPerSecond.median} tokens/s median (min ${r.tokensPerSecond.min}); ${r.promptTokens} prompt + ${r.completionTokens} completion tokens`,
  ];
}
