// compareIds must order ids exactly as localeCompare does (facts, perception
// results and removals are listed in that order), plain ids and any others.
import { describe, expect, it } from 'vitest';
import { compareIds } from './ids';
import { Rng } from './rng';

describe('compareIds', () => {
  it('has the sign of localeCompare for plain ids, prefixes and other characters', () => {
    const rng = new Rng(3);
    const plain = '_0123456789abcdefghijklmnopqrstuvwxyz';
    const other = plain + '-.A Zé/:';
    const word = (chars: string): string => {
      const n = 1 + Math.floor(rng.next() * 6);
      let s = '';
      for (let i = 0; i < n; i++) s += chars[Math.floor(rng.next() * chars.length)];
      return s;
    };
    const ids = [
      'lemon_1',
      'lemon_10',
      'lemon_2',
      'lemon1',
      'lemon',
      'lemon_',
      'cutting_board_1',
      'cup_1',
      'cup1',
      'a_b',
      'ab',
      'a9',
      'a_9',
    ];
    for (let i = 0; i < 4000; i++) ids.push(word(plain), word(i % 4 ? plain : other));
    for (let i = 0; i < ids.length; i++) {
      for (const j of [i, i + 1, (i * 7) % ids.length, ids.length - 1 - i]) {
        const a = ids[i]!;
        const b = ids[j % ids.length]!;
        if (Math.sign(compareIds(a, b)) !== Math.sign(a.localeCompare(b)))
          expect([a, b, compareIds(a, b)]).toEqual([a, b, a.localeCompare(b)]);
      }
    }
    // Sorting with either gives the same list.
    expect([...ids].sort(compareIds)).toEqual([...ids].sort((a, b) => a.localeCompare(b)));
  });
});
