import path from 'node:path';

/**
 * Up to `max` names from `candidates` that a model probably meant by `wanted`: the same name in
 * another case, the same stem with another extension, a small typo, or a containing match.
 */
export function rankSimilarNames(wanted: string, candidates: readonly string[], max = 3): string[] {
  const target = wanted.toLowerCase();
  const targetStem = stem(target);
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const lower = name.toLowerCase();
    let score: number;
    if (lower === target) score = 0;
    else if (stem(lower) === targetStem) score = 1;
    else {
      const distance = target.length <= 64 && lower.length <= 64 ? editDistance(target, lower, 3) : 3;
      if (distance <= 2) score = 1 + distance;
      else if (target.length >= 3 && (lower.includes(targetStem) || target.includes(stem(lower)))) score = 4;
      else continue;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((entry) => entry.name);
}

function stem(name: string): string {
  const ext = path.extname(name);
  return ext.length > 0 && ext.length < name.length ? name.slice(0, -ext.length) : name;
}

/** Levenshtein distance, giving up (returning `cap`) once it must reach `cap`. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? cap) + 1, (current[j - 1] ?? cap) + 1, (previous[j - 1] ?? cap) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= cap) return cap;
    previous = current;
  }
  return Math.min(previous[b.length] ?? cap, cap);
}
