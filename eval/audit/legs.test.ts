// Found by `skillbridge audit --calls 100000 --seed 1` (kitchen/assistive,
// world-model-queries, episode 383): a person set a chair down across the stove and
// the medicine counter; perception recorded on(chair_3, stove_burner_2), then, once a
// book lay under its seat, on(chair_3, book_1), while its legs stood on the stove and
// the counter. With no contact close enough to count, the world named what lay under
// the chair's centre of mass; it now sweeps the object's own shapes down instead.
// The fixture holds the audit's two reproducing scripts as it wrote them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { replay } from './run';
import type { ScriptStep } from './script';

const EP = { scene: 'kitchen/assistive', set: 'world-model-queries', seed: 1383 };
const scripts = JSON.parse(readFileSync(path.join(__dirname, 'legs.fixture.json'), 'utf8')) as Record<'short' | 'book', ScriptStep[]>;

it('a chair set down across two supports is on what its legs stand on, not on the burner or the book under its seat', async () => {
  expect(await replay(EP, scripts.short)).toEqual([]);
  expect(await replay(EP, scripts.book)).toEqual([]);
}, 120_000);
