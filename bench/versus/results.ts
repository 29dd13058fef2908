/**
 * Writes bench/results/latest.json (every row, the machine, the peers' versions) and
 * bench/results/latest.md: readpool's ratio to each peer per case, one table and two charts
 * (rate, p99) per scenario, and the bytes each system returned to the model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { OFFICIAL_MCP, READPOOL, READPOOL_MCP } from './catalog.js';
import type { Row } from './measure.js';
import { barChart, formatValue, type Group } from './svg.js';

export interface Results {
  readonly date: string;
  readonly mode: 'quick' | 'full';
  readonly seconds: number;
  readonly machine: { cpu: string; cores: number; memoryGiB: number; node: string; platform: string };
  readonly versions: Record<string, string>;
  readonly rows: readonly Row[];
}

export interface Ratio {
  readonly scenario: string;
  readonly case: string;
  readonly ours: string;
  readonly peer: string;
  /** ours per second / the peer's; null with `why` when there is nothing to compare */
  readonly speed: number | null;
  /** the peer's bytes per operation / ours */
  readonly bytes: number | null;
  /** the peer's estimated tokens / ours, where tokens were estimated */
  readonly tokens: number | null;
  readonly why?: string;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const num = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '' : formatValue(value));
const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function keyOf(row: Row): string {
  return `${row.scenario}\u0000${row.case}`;
}

/** readpool against every other system, and readpool serve against the official MCP server, case by case. */
export function ratios(rows: readonly Row[]): Ratio[] {
  const out: Ratio[] = [];
  const cases = [...new Set(rows.map(keyOf))];
  for (const key of cases) {
    const inCase = rows.filter((row) => keyOf(row) === key);
    const pairs: [string, Row[]][] = [
      [READPOOL, inCase.filter((row) => row.system !== READPOOL)],
      [READPOOL_MCP, inCase.filter((row) => row.system === OFFICIAL_MCP)],
    ];
    for (const [ours, peers] of pairs) {
      const mine = inCase.find((row) => row.system === ours);
      if (mine === undefined || mine.status !== 'ok') continue;
      for (const peer of peers) {
        const ok = peer.status === 'ok';
        const speed = ok && mine.perSecond !== undefined && peer.perSecond !== undefined ? mine.perSecond / peer.perSecond : null;
        // Per operation: a reference measured on a sample of the files still compares.
        const perOp = (row: Row) => ((row.bytes ?? 0) > 0 && (row.ops ?? 0) > 0 ? (row.bytes ?? 0) / (row.ops ?? 1) : null);
        const [theirBytes, ourBytes] = [perOp(peer), perOp(mine)];
        const bytes = ok && theirBytes !== null && ourBytes !== null ? theirBytes / ourBytes : null;
        const tokens = ok && (peer.tokens ?? 0) > 0 && (mine.tokens ?? 0) > 0 ? (peer.tokens ?? 0) / (mine.tokens ?? 1) : null;
        out.push({ scenario: mine.scenario, case: mine.case, ours, peer: peer.system, speed, bytes, tokens, ...(ok ? {} : { why: `${peer.status}: ${peer.reason ?? ''}` }) });
      }
    }
  }
  return out;
}

function notes(row: Row): string {
  const parts: string[] = [];
  if (row.reason !== undefined) parts.push(row.reason.slice(0, 220));
  if (row.note !== undefined) parts.push(row.note);
  if (row.fits5MB !== undefined) parts.push(row.fits5MB ? 'fits 5 MB' : 'over the 5 MB budget');
  if (row.tokens !== undefined) parts.push(`about ${formatValue(row.tokens)} tokens`);
  if (row.errors !== undefined && row.errors > 0 && row.status === 'ok') parts.push(`${row.errors} error results`);
  if (row.scenario.startsWith('7') && row.preview !== undefined) parts.push(`\`${row.preview.slice(0, 200).replace(/`/g, "'")}\``);
  return cell(parts.join('; '));
}

function table(rows: readonly Row[]): string[] {
  const lines = ['| case | system | status | median ms | p99 ms | per second | bytes to model | loop p99 ms | peak RSS MiB | notes |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const row of rows) {
    const rate = row.perSecond === undefined ? '' : `${num(row.perSecond)} ${row.unit}`;
    lines.push(`| ${cell(row.case)} | ${cell(row.system)} | ${row.status} | ${num(row.medianMs)} | ${num(row.p99Ms)} | ${rate} | ${num(row.bytes)} | ${num(row.loopP99Ms)} | ${num(row.peakRssMiB)} | ${notes(row)} |`);
  }
  return lines;
}

function groups(rows: readonly Row[], value: (row: Row) => number | undefined, labelOf: (row: Row) => string = (row) => row.case): Group[] {
  return [...new Set(rows.map(labelOf))].map((label) => ({
    label,
    bars: rows
      .filter((row) => labelOf(row) === label)
      .map((row) => {
        const v = row.status === 'ok' ? value(row) : undefined;
        return v === undefined || !Number.isFinite(v) ? { system: row.system, value: null, missing: `${row.status}: ${row.reason ?? 'not measured'}` } : { system: row.system, value: v };
      }),
  }));
}

/** One line per case, one column per peer: readpool's speed ratio, or why there is none. */
export function pivotTable(results: Results): string[] {
  const all = ratios(results.rows).filter((r) => r.ours === READPOOL || r.scenario.startsWith('8'));
  const peers = [...new Set(all.map((r) => (r.ours === READPOOL ? r.peer : `${r.peer} `)))];
  const header = (p: string) => (p.endsWith(' ') ? `${p.trim()} (vs readpool serve)` : p);
  const lines = [`| case | ${peers.map((p) => cell(header(p))).join(' | ')} |`, `|---|${peers.map(() => '---').join('|')}|`];
  for (const key of [...new Set(all.map((r) => `${r.scenario}: ${r.case}`))]) {
    const inCase = all.filter((r) => `${r.scenario}: ${r.case}` === key);
    const cells = peers.map((p) => {
      const r = inCase.find((x) => (x.ours === READPOOL ? x.peer : `${x.peer} `) === p);
      if (r === undefined) return '';
      // The agent session is about what reaches the model: tokens, not speed.
      if (r.scenario.startsWith('9')) return `${r.tokens?.toFixed(2) ?? '?'}x tokens`;
      return r.speed === null ? cell((r.why ?? '').split(':')[0] ?? '') : `${r.speed.toFixed(2)}x`;
    });
    lines.push(`| ${cell(key)} | ${cells.join(' | ')} |`);
  }
  return lines;
}

export function ratioTable(results: Results): string[] {
  const lines = ['| scenario | case | readpool vs | speed (x) | bytes to model (peer / ours) | tokens (peer / ours) |', '|---|---|---|---|---|---|'];
  for (const r of ratios(results.rows)) {
    const speed = r.speed === null ? cell(r.why?.slice(0, 110) ?? '') : `${r.speed.toFixed(2)}x`;
    const who = r.ours === READPOOL ? r.peer : `${r.peer} (as readpool serve)`;
    const times = (x: number | null) => (x === null ? '' : `${x.toFixed(2)}x`);
    lines.push(`| ${cell(r.scenario)} | ${cell(r.case)} | ${cell(who)} | ${speed} | ${times(r.bytes)} | ${times(r.tokens)} |`);
  }
  return lines;
}

/** Every string with the project's own folder written as `.`: results never hold a machine path. */
function withoutMachinePaths(results: Results, projectRoot: string): Results {
  return JSON.parse(JSON.stringify(results).replaceAll(`file://${projectRoot}`, '.').replaceAll(projectRoot, '.')) as Results;
}

/** Writes the files; returns latest.md's text, for the terminal. */
export function writeResults(projectRoot: string, measured: Results): string {
  const results = withoutMachinePaths(measured, projectRoot);
  const dir = path.join(projectRoot, 'bench/results');
  const charts = path.join(dir, 'charts');
  fs.mkdirSync(charts, { recursive: true });
  fs.writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify({ ...results, ratios: ratios(results.rows) }, null, 2)}\n`);
  const systems = [...new Set(results.rows.map((row) => row.system))];
  const chart = (name: string, svg: string) => {
    fs.writeFileSync(path.join(charts, `${name}.svg`), svg);
    return `![${name}](charts/${name}.svg)`;
  };
  const { machine } = results;
  // Where bytes are the point: the batch (per file), media, the minified line, the agent session.
  const payloadRows = results.rows.filter((r) => /^(1|6|7|9)/.test(r.scenario) && !r.case.endsWith('concurrency 1') && r.system !== 'cat > /dev/null');
  const bytesPerCall = (r: Row) => (r.bytes === undefined || r.ops === undefined ? undefined : r.unit === 'sessions' ? r.bytes : r.bytes / r.ops);
  const scenarioCase = (r: Row) => `${r.scenario}: ${r.case}`;
  const md: string[] = [
    '# readpool beside the tools agents use today',
    '',
    `${results.mode === 'full' ? 'Full' : 'Quick'} run of ${results.date.slice(0, 16).replace('T', ' ')} UTC, ${Math.round(results.seconds)} s, on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGiB} GiB), Node ${machine.node}, ${machine.platform}.`,
    `Peers: ${Object.entries(results.versions).map(([name, version]) => `${name} ${version}`).join(', ') || 'not available'}.`,
    'Rerun with `npm run bench` (about 6 minutes on 2 cores, the engine scenarios included) or `npm run bench -- --quick` (under 2 minutes, fewer files and passes).',
    '',
    `${results.mode === 'full' ? 'Every system runs each scenario in a child process of its own (peak RSS is that process' : 'Every system runs all scenarios in one child process of its own (peak RSS is that process over every scenario'}, plus the server process for MCP systems). Page cache warm; "cold" means the first read of that file by a fresh instance. Bytes are what reaches the model: text as UTF-8, media as base64. Tokens: text bytes / 4, images width x height / 750, a PDF document 1 600 a page.`,
    '',
    '## readpool\'s ratio to each peer',
    '',
    'Speed: readpool\'s rate over the peer\'s (above 1: readpool is faster; in scenario 8, readpool serve over the official server). A word instead of a figure: the peer refused the request, or its tool cannot express it (the tables below say why). The agent session (9) compares the estimated tokens the peer sent the model over readpool\'s (its table says which calls each delivered).',
    '',
    ...pivotTable(results),
    '',
    'Every pair, with bytes: what the peer returned per call over what readpool returned for the same request.',
    '',
    ...ratioTable(results),
    '',
    '## Bytes returned to the model',
    '',
    chart('bytes', barChart('Bytes returned to the model (lower is leaner)', 'bytes per call (per session for the agent session)', groups(payloadRows, bytesPerCall, scenarioCase), systems)),
    '',
    chart('tokens', barChart('Estimated tokens for the model (lower is leaner)', 'tokens per call (per session for the agent session)', groups(payloadRows.filter((r) => /^(6|9)/.test(r.scenario)), (r) => r.tokens, scenarioCase), systems)),
    '',
  ];
  for (const scenario of [...new Set(results.rows.map((row) => row.scenario))]) {
    const rows = results.rows.filter((row) => row.scenario === scenario);
    md.push(`## ${scenario}`, '', ...table(rows), '');
    md.push(chart(`${slug(scenario)}-rate`, barChart(`${scenario}: rate (higher is better)`, `${rows[0]?.unit ?? ''} per second`, groups(rows, (r) => r.perSecond), systems)), '');
    if (rows.some((row) => row.p99Ms !== undefined)) {
      md.push(chart(`${slug(scenario)}-p99`, barChart(`${scenario}: p99 latency (lower is better)`, 'ms per call', groups(rows, (r) => r.p99Ms), systems)), '');
    }
  }
  fs.writeFileSync(path.join(dir, 'latest.md'), `${md.join('\n')}\n`);
  return md.join('\n');
}
