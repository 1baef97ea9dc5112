import type { Context } from 'aws-lambda';
import { withReadableStacks } from './readable-stacks';

/**
 * Structured JSON logs, one line per entry; in Lambda they carry the request id, locally they go
 * to the dev console. An error's stack is written in the sources' files and lines (readable-stacks.ts).
 *
 * The lines are those the Powertools logger wrote (same keys, same order, same error shape:
 * `{"level","message","timestamp","service","cold_start","function_arn","function_memory_size",
 * "function_name","function_request_id","sampling_rate","xray_trace_id",...extra}`, INFO and DEBUG
 * to stdout, WARN and ERROR to stderr), which the log queries, the metric filters and the queue
 * runner's reading of worker errors rely on. The package cost every function about 5 ms of CPU
 * at import (its options, buffering, sampling and correlation ids, none of which we use); this is
 * what we use of it (docs/decisions/0104-own-logger-and-route-stack.md).
 */
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';

const thresholds: Record<string, number> = {
  TRACE: 6,
  DEBUG: 8,
  INFO: 12,
  WARN: 16,
  ERROR: 20,
  CRITICAL: 24,
  SILENT: 28,
};
const levelOf = (value: string | undefined) => {
  const upper = value?.toUpperCase();
  return upper && upper in thresholds ? upper : undefined;
};

/** Keys every entry sets itself: an extra attribute by one of these names is dropped, with a warning. */
const reservedKeys = ['level', 'message', 'sampling_rate', 'service', 'timestamp'];

/** The trace id of the invocation (Lambda sets `_X_AMZN_TRACE_ID` for each one). */
const xrayTraceId = () => {
  const value = process.env._X_AMZN_TRACE_ID ?? '';
  if (value === '') return undefined;
  if (!value.includes('=')) return value;
  for (const field of value.split(';')) {
    const [key, id] = field.split('=');
    if (key?.trim() === 'Root') return id?.trim();
  }
  return undefined;
};

/** ISO time in UTC, or with the offset of a configured time zone other than UTC. */
const timestamp = (now: Date) => {
  const zone = process.env.TZ ?? '';
  if (!zone || zone.includes('UTC')) return now.toISOString();
  const valid = Intl.supportedValuesOf('timeZone').includes(zone) ? zone : 'UTC';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en', {
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZone: valid,
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  const offset = -now.getTimezoneOffset();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}.${String(now.getMilliseconds()).padStart(3, '0')}${offset >= 0 ? '+' : '-'}${pad(Math.abs(Math.floor(offset / 60)))}:${pad(Math.abs(offset % 60))}`;
};

/** The first `(file:line:column)` frame of a stack, as `file:line`. */
const codeLocation = (stack: string | undefined) => {
  for (const line of stack?.split('\n') ?? []) {
    const match = /\(([^()]*?):(\d+?):(\d+?)\)\\?$/.exec(line);
    if (match) return `${match[1]}:${Number(match[2])}`;
  }
  return '';
};

/** An error as a plain object: name, where it was thrown, message, stack, cause, and its own fields. */
const formatError = (error: Error): Record<string, unknown> => {
  const { name, message, stack, cause } = error;
  const formatted: Record<string, unknown> = {
    name,
    location: codeLocation(stack),
    message,
    stack,
    cause: cause instanceof Error ? formatError(cause) : cause,
  };
  for (const key in error) {
    if (!['name', 'message', 'stack', 'cause'].includes(key))
      formatted[key] = (error as unknown as Record<string, unknown>)[key];
  }
  return formatted;
};

/** Errors as objects, bigints as text, and an object met a second time left out (no cycles). */
const replacer = () => {
  const seen = new WeakSet<object>();
  return (key: string, value: unknown) => {
    let replaced = withReadableStacks(key, value);
    if (replaced instanceof Error) replaced = formatError(replaced);
    if (typeof replaced === 'bigint') return replaced.toString();
    if (typeof replaced === 'object' && replaced !== null) {
      if (seen.has(replaced)) return undefined;
      seen.add(replaced);
    }
    return replaced;
  };
};

/**
 * A copy of an entry's value as the Powertools logger made it (lodash's merge): plain objects and
 * arrays copied through, anything else (an Error, a Date, a class's instance) kept as it is. So an
 * object given twice is written twice, and only a cycle is left out.
 */
const copied = (value: unknown, copies = new Map<object, unknown>()): unknown => {
  if (typeof value !== 'object' || value === null) return value;
  const prototype = Object.getPrototypeOf(value);
  const isArray = Array.isArray(value);
  if (!isArray && prototype !== Object.prototype && prototype !== null) return value;
  const done = copies.get(value);
  if (done) return done;
  const copy: Record<string, unknown> | unknown[] = isArray ? [] : {};
  copies.set(value, copy);
  for (const key of Object.keys(value)) {
    (copy as Record<string, unknown>)[key] = copied((value as Record<string, unknown>)[key], copies);
  }
  copies.delete(value);
  return copy;
};

type Extra = Error | string | Record<string, unknown> | null | undefined;

interface LambdaContextData {
  invokedFunctionArn?: string;
  coldStart: boolean;
  awsRequestId?: string;
  memoryLimitInMB?: string | number;
  functionName?: string;
}

class Logger {
  private threshold: number;
  private lambdaContext: LambdaContextData | undefined;
  /** Lambda's own word for a cold start: only an on-demand environment's first invocation is one. */
  private coldStart = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';

  constructor(
    private readonly serviceName: string,
    level: string | undefined,
  ) {
    this.threshold = thresholds[this.initialLevel(level)] ?? thresholds.INFO!;
  }

  private initialLevel(level: string | undefined) {
    // Lambda's advanced logging controls, when set, win (as they did).
    return (
      levelOf(process.env.AWS_LAMBDA_LOG_LEVEL) ??
      levelOf(level) ??
      levelOf(process.env.POWERTOOLS_LOG_LEVEL || process.env.LOG_LEVEL) ??
      'INFO'
    );
  }

  setLogLevel(level: LogLevel | string) {
    if (levelOf(process.env.AWS_LAMBDA_LOG_LEVEL)) return;
    const valid = levelOf(level);
    if (!valid) throw new Error(`Invalid log level: ${level}`);
    this.threshold = thresholds[valid]!;
  }

  /** The invocation's context, written with every entry from now on (a route adds it on each request). */
  addContext(context: Partial<Context>) {
    const cold = this.coldStart;
    this.coldStart = false;
    this.lambdaContext = {
      invokedFunctionArn: context.invokedFunctionArn,
      coldStart: cold,
      awsRequestId: context.awsRequestId,
      memoryLimitInMB: context.memoryLimitInMB,
      functionName: context.functionName,
    };
  }

  debug(message: string, ...extra: Extra[]) {
    this.write('DEBUG', message, extra);
  }

  info(message: string, ...extra: Extra[]) {
    this.write('INFO', message, extra);
  }

  warn(message: string, ...extra: Extra[]) {
    this.write('WARN', message, extra);
  }

  error(message: string, ...extra: Extra[]) {
    this.write('ERROR', message, extra);
  }

  private write(level: LogLevel, message: string, extra: Extra[]) {
    if (thresholds[level]! < this.threshold) return;
    const context = this.lambdaContext;
    const entry: Record<string, unknown> = {
      level,
      message,
      timestamp: timestamp(new Date()),
      service: this.serviceName,
      cold_start: context?.coldStart,
      function_arn: context?.invokedFunctionArn,
      function_memory_size: context?.memoryLimitInMB,
      function_name: context?.functionName,
      function_request_id: context?.awsRequestId,
      sampling_rate: 0,
      xray_trace_id: xrayTraceId(),
    };
    const dropped: string[] = [];
    for (const item of extra) {
      if (item === null || item === undefined) continue;
      if (item instanceof Error) entry.error = item;
      else if (typeof item === 'string') entry.extra = item;
      else {
        for (const [key, value] of Object.entries(item)) {
          if (reservedKeys.includes(key)) dropped.push(key);
          else entry[key] = copied(value);
        }
      }
    }
    for (const key of dropped) this.warn(`The key "${key}" is a reserved key and will be dropped.`);
    // Empty values are left out of the line (an extra attribute of null or '' too).
    for (const key of Object.keys(entry)) {
      if (entry[key] === undefined || entry[key] === '' || entry[key] === null) delete entry[key];
    }
    const line = `${JSON.stringify(entry, replacer())}\n`;
    (level === 'WARN' || level === 'ERROR' ? process.stderr : process.stdout).write(line);
  }
}

export const logger = new Logger('marketplace', process.env.LOG_LEVEL ?? 'INFO');
