/** The shape every scenario reports, printed as a table and written as JSON. */
export interface Measurement {
  readonly label: string;
  readonly metrics: Readonly<Record<string, number>>;
}

export interface Target {
  readonly name: string;
  readonly value: number;
  /** Human-readable goal, e.g. ">= 2" or "< 10 ms". */
  readonly goal: string;
  readonly met: boolean;
}

export interface ScenarioReport {
  readonly scenario: string;
  readonly description: string;
  readonly measurements: readonly Measurement[];
  readonly targets: readonly Target[];
}

export function formatReport(report: ScenarioReport): string {
  const lines = [`\n## ${report.scenario}: ${report.description}`];
  for (const { label, metrics } of report.measurements) {
    const cells = Object.entries(metrics).map(([key, value]) => `${key}=${round(value)}`);
    lines.push(`  ${label.padEnd(34)} ${cells.join('  ')}`);
  }
  for (const target of report.targets) {
    lines.push(`  target ${target.name}: ${round(target.value)} (goal ${target.goal}) ${target.met ? 'MET' : 'MISSED'}`);
  }
  return lines.join('\n');
}

export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 1 ? 2 : 4;
  return Number(value.toFixed(digits));
}
