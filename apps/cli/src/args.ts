// Small helpers shared by the command-line tools: strict argument parsing with one-line errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseIsoMs } from '@lq/strategies';
import { intervalToMs } from '@lq/engine';

/** A problem with the command line or its inputs: printed as one line, exit code 2. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

export function parseStrict<T extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: T) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new CliError((e as Error).message.split('\n')[0]);
  }
}

export function requireArg(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new CliError(`--${name} is required`);
  return v;
}

/** ISO date or date-time → ms UTC (a date-time without offset is UTC). */
export function isoArg(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseIsoMs(text);
  if (Number.isNaN(ms)) throw new CliError(`--${name} is not an ISO date: "${text}"`);
  return ms;
}

export function intervalArg(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    return intervalToMs(text);
  } catch (e) {
    throw new CliError(`--interval: ${(e as Error).message}`);
  }
}

export function jsonObjectArg(name: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new CliError(`--${name} is not valid JSON (${(e as Error).message})`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new CliError(`--${name} must be a JSON object`);
  return v as Record<string, unknown>;
}

/** Runs a CLI main: CliError → one line on stderr and exit code 2. */
export async function runMain(main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`error: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

/** JSON with non-finite numbers as strings ("Infinity") rather than null. */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), indent);
}
