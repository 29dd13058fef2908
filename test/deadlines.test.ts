import { describe, expect, it } from 'vitest';
import { Deadlines, type Expiring } from '../src/deadlines.js';

/** A waiting read with a deadline `ms` from now, which notes when it is told. */
function entry(name: string, ms: number, told: string[], onExpire?: () => void): Expiring & { name: string } {
  return {
    name,
    deadline: Date.now() + ms,
    earlier: null,
    later: null,
    expire() {
      told.push(name);
      onExpire?.();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Deadlines', () => {
  it('tells each entry once its deadline passes, and never one taken out before', async () => {
    const told: string[] = [];
    const deadlines = new Deadlines();
    const a = entry('a', 20, told);
    const b = entry('b', 20, told);
    const c = entry('c', 20, told);
    const d = entry('d', 400, told);
    for (const e of [a, b, c, d]) deadlines.add(e);
    deadlines.add(b); // already held: no second place in the list
    expect(deadlines.size).toBe(4);
    deadlines.delete(b);
    deadlines.delete(b);
    expect(deadlines.size).toBe(3);
    await sleep(80);
    expect(told).toEqual(['a', 'c']);
    expect(deadlines.size).toBe(1);
    deadlines.delete(d);
    expect(deadlines.size).toBe(0);
    await sleep(400);
    expect(told).toEqual(['a', 'c']);
  });

  it('keeps its list whole when the first, the last or a middle entry leaves', async () => {
    const told: string[] = [];
    const deadlines = new Deadlines();
    const a = entry('a', 20, told);
    const c = entry('c', 20, told);
    const e = entry('e', 20, told);
    for (const each of [a, entry('b', 20, told), c, entry('d', 20, told), e]) deadlines.add(each);
    deadlines.delete(a);
    deadlines.delete(e);
    deadlines.delete(c);
    deadlines.add(c);
    await sleep(80);
    expect(told).toEqual(['b', 'd', 'c']);
    expect(deadlines.size).toBe(0);
  });

  it('tells every expired entry even when telling one takes another out', async () => {
    const told: string[] = [];
    const deadlines = new Deadlines();
    const second = entry('second', 10, told);
    const later = entry('later', 60, told);
    // As the last waiter of a flight leaving settles the others: they leave the list meanwhile.
    const first = entry('first', 10, told, () => {
      deadlines.delete(second);
      deadlines.delete(later);
    });
    for (const e of [first, second, later]) deadlines.add(e);
    await sleep(120);
    expect(told).toEqual(['first', 'second']);
    expect(deadlines.size).toBe(0);
  });

  it('arms again for an entry added with an earlier deadline than any held', async () => {
    const told: string[] = [];
    const deadlines = new Deadlines();
    const slow = entry('slow', 2000, told);
    deadlines.add(slow);
    deadlines.add(entry('quick', 10, told));
    await sleep(80);
    expect(told).toEqual(['quick']);
    expect(deadlines.size).toBe(1);
    deadlines.delete(slow);
  });
});
