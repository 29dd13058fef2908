import { describe, expect, it } from 'vitest';
import { FactsCache, type LearnMemo } from '../src/cache/file-facts.js';
import type { TextPayload } from '../src/wire.js';

/** A whole-file read of `version` as a worker answers it, with what the facts cache learns from it. */
function payload(version: string, extra: Partial<TextPayload> = {}): TextPayload {
  return {
    kind: 'text', path: '/root/a.txt', relativePath: 'a.txt', size: 6, mtimeMs: 1, version, xxh64: `hash-of-${version}`,
    content: '1\thello', startLine: 1, endLine: 1, totalLines: 1, stop: null, finalBreak: true, cutLines: 0, firstCutLine: null,
    column: null, encoding: 'utf-8', invalidUtf8: false, bom: false, lineEnding: 'lf', sha256: null, index: null, ...extra,
  };
}

const memo = (): LearnMemo => ({ learnedVersion: '', learnedAt: -1 });

describe('the facts cache learning through a path', () => {
  it('knows a version a path taught it, and learns it again after losing it to eviction', () => {
    // Room for three entries (178 bytes each here): a fourth evicts the least recently used.
    const facts = new FactsCache(600);
    const place = memo();
    facts.learn(payload('1:1:6:1:1'), place);
    expect(facts.get('1:1:6:1:1')?.xxh64).toBe('hash-of-1:1:6:1:1');
    facts.learn(payload('1:2:6:1:1'));
    facts.learn(payload('1:3:6:1:1'));
    facts.learn(payload('1:4:6:1:1'));
    expect(facts.get('1:1:6:1:1')).toBeUndefined();
    expect(facts.losses).toBeGreaterThan(0);
    // The path reads the same version again: its memo is stale, so the facts come back.
    facts.learn(payload('1:1:6:1:1'), place);
    expect(facts.get('1:1:6:1:1')?.totalLines).toBe(1);
  });

  it('takes a line index or a SHA-256 that a later read of the same version brings', () => {
    const facts = new FactsCache(1 << 20);
    const place = memo();
    facts.learn(payload('2:1:6:1:1'), place);
    facts.learn(payload('2:1:6:1:1', { sha256: 'f'.repeat(64) }), place);
    expect(facts.get('2:1:6:1:1')?.sha256).toBe('f'.repeat(64));
    const index = new Float64Array([1, 0, 5000, 123_456]);
    facts.learn(payload('2:1:6:1:1', { index }), place);
    expect(facts.get('2:1:6:1:1')?.index).toEqual(index);
    expect(facts.get('2:1:6:1:1')?.sha256).toBe('f'.repeat(64));
  });

  it('learns each new version of a path, and nothing from a read that did not scan the file whole', () => {
    const facts = new FactsCache(1 << 20);
    const place = memo();
    facts.learn(payload('3:1:6:1:1'), place);
    facts.learn(payload('3:1:7:2:2', { xxh64: 'changed' }), place);
    expect(facts.get('3:1:7:2:2')?.xxh64).toBe('changed');
    expect(facts.get('3:1:6:1:1')?.xxh64).toBe('hash-of-3:1:6:1:1');
    facts.learn(payload('3:1:8:3:3', { totalLines: null }), place);
    expect(facts.get('3:1:8:3:3')).toBeUndefined();
    expect(place.learnedVersion).toBe('3:1:7:2:2');
  });
});
