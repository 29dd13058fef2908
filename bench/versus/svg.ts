/**
 * Horizontal bar charts as hand-written SVG (no browser, no chart library): one group of bars
 * per case, one bar per system, the value printed at the end of each bar; a system that has no
 * figure gets a grey line with the reason. Log scale when the values span more than 50x.
 */

export interface Bar {
  readonly system: string;
  /** null: no figure; `missing` says why */
  readonly value: number | null;
  readonly missing?: string;
}

export interface Group {
  readonly label: string;
  readonly bars: readonly Bar[];
}

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const WIDTH = 860;
const LABEL = 200;
const BAR_AREA = 440;
const ROW = 18;

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${(value / 1e9).toFixed(2)} G`;
  if (abs >= 1e6) return `${(value / 1e6).toFixed(2)} M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(1)} k`;
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

/** A chart of `groups`; `systems` fixes each system's colour across every chart. */
export function barChart(title: string, unit: string, groups: readonly Group[], systems: readonly string[]): string {
  const values = groups.flatMap((g) => g.bars.flatMap((b) => (b.value !== null && b.value > 0 ? [b.value] : [])));
  const max = Math.max(...values, 1e-9);
  const min = Math.min(...values, max);
  const log = max / min > 50;
  const floor = log ? min / 2 : 0;
  const scale = (v: number) => (log ? (Math.log10(v / floor) / Math.log10(max / floor)) * BAR_AREA : (v / max) * BAR_AREA);
  const parts: string[] = [];
  let y = 44;
  for (const group of groups) {
    parts.push(`<text x="8" y="${y + 12}" font-weight="bold">${escape(group.label)}</text>`);
    y += ROW + 2;
    for (const bar of group.bars) {
      const colour = PALETTE[systems.indexOf(bar.system) % PALETTE.length] ?? '#333';
      parts.push(`<text x="${LABEL - 6}" y="${y + 12}" text-anchor="end">${escape(bar.system)}</text>`);
      if (bar.value === null || !(bar.value > 0)) {
        parts.push(`<text x="${LABEL + 4}" y="${y + 12}" fill="#888">${escape((bar.missing ?? 'no figure').slice(0, 95))}</text>`);
      } else {
        const w = Math.max(1, scale(bar.value));
        parts.push(`<rect x="${LABEL}" y="${y + 2}" width="${w.toFixed(1)}" height="${ROW - 5}" fill="${colour}"/>`);
        parts.push(`<text x="${(LABEL + w + 4).toFixed(1)}" y="${y + 12}">${escape(formatValue(bar.value))}</text>`);
      }
      y += ROW;
    }
    y += 6;
  }
  const height = y + 10;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="8" y="20" font-size="15" font-weight="bold">${escape(title)}</text>`,
    `<text x="8" y="36" fill="#555">${escape(`${unit}${log ? ' (log scale)' : ''}`)}</text>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
