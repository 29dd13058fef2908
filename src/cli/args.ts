/** Argument helpers shared by the commands: one usage-error shape, one number parser. */

/** Exits 2 with the message and the usage text; `usage` is filled in by the entry point. */
export type UsageError = (message: string) => never;

export function wholeNumber(name: string, text: string | undefined, usageError: UsageError): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text)) usageError(`--${name} must be a whole number (received ${JSON.stringify(text)})`);
  return Number(text);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A count given on the command line (`--threads 4`): a whole number from 1 to `max`, or undefined when not given. */
export function countOption(name: string, text: string | undefined, max: number, usageError: UsageError): number | undefined {
  const count = wholeNumber(name, text, usageError);
  if (count !== undefined && (count < 1 || count > max)) usageError(`--${name} must be from 1 to ${max} (received ${text})`);
  return count;
}
