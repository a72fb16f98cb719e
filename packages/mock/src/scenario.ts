/**
 * Scenarios: which fixture a request gets, and how it is served, in one short string. The
 * same string works as the `x-mock-scenario` header, as `?scenario=` on the endpoint, and
 * after `mock:` in the model name, so one handler (or one server) serves every scenario.
 *
 * ```text
 * scenario  = [fixture] *(";" param)
 * param     = "fault=" fault *("," fault)
 *           | "speed=" ("fast" | "realistic" | "slow")
 *           | "seed=" uint
 *           | "chunking=" ("event" | "random" | uint "-" uint)   ; random = 1-64 bytes
 *           | "times=" uint          ; the fault hits only the first n such requests
 *           | "retry-after-ms=" uint ; for fault=http:rate-limit
 *           | "then=" fixture       ; answers follow-ups (default text-pings), see below
 * fault     = ("drop" | "close") "-after-" ("events" | "bytes") ":" uint
 *           | "error-after-events:" uint [":" error-type]          ; default overloaded_error
 *           | "stall-after-events:" uint [":" ms]                  ; no ms: hang until cancelled
 *           | "http:" (http-error-kind | status)                   ; http:rate-limit or http:429
 *           | "network-error"                                      ; no response at all
 * ```
 *
 * Examples: `long-markdown;fault=drop-after-events:40;speed=realistic;seed=7`,
 * `spec-thinking;fault=stall-after-events:5:10000`, `;fault=http:529;times=1` (the default
 * fixture, and the first request fails). Spaces around tokens are ignored.
 *
 * A follow-up request (tool results sent back after a tool call, or a paused turn sent back
 * to continue it) is answered by the `then` fixture, without faults: answering it with the
 * scenario's own fixture would ask for the same tool again, round after round.
 */
import { type HttpErrorKind, httpErrorKinds, httpErrorStatus } from './http-errors.js';
import type { Chunking, ReplayFaults, Speed } from './replay.js';

export interface Scenario extends ReplayFaults {
  /** A fixture name; absent: chosen from the request (see `createMockResponder`). */
  readonly fixture?: string;
  /** Answer with this HTTP failure instead of a stream. */
  readonly http?: HttpErrorKind;
  /** Fail the connection before any response (fetch rejects). */
  readonly networkError?: boolean;
  readonly speed?: Speed;
  readonly seed?: number;
  readonly chunking?: Chunking;
  /** Faults apply to the first `times` requests carrying this scenario; later ones are clean. */
  readonly times?: number;
  /** `retry-after-ms` of an `http:rate-limit` fault. */
  readonly retryAfterMs?: number;
  /**
   * The fixture answering follow-ups (tool results, a paused turn sent back); `then=` in
   * the string. Not named `then`: an object with a `then` is a thenable, and awaiting it hangs.
   */
  readonly followUp?: string;
}

/** A scenario string that does not follow the grammar; the message says what is wrong. */
export class ScenarioError extends Error {
  override readonly name = 'ScenarioError';
}

const SPEEDS: readonly Speed[] = ['fast', 'realistic', 'slow'];
const RANDOM_CHUNKING: Chunking = { minBytes: 1, maxBytes: 64 };

function uint(value: string, what: string): number {
  if (!/^\d+$/.test(value))
    throw new ScenarioError(`${what} must be a whole number, got "${value}".`);
  return Number(value);
}

function httpKind(value: string): HttpErrorKind {
  const byName = httpErrorKinds.find((kind) => kind === value);
  if (byName) return byName;
  const byStatus = httpErrorKinds.find((kind) => String(httpErrorStatus[kind]) === value);
  if (byStatus) return byStatus;
  throw new ScenarioError(
    `Unknown HTTP fault "${value}". Use one of: ${httpErrorKinds.join(', ')} (or their statuses).`,
  );
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function parseFault(text: string, into: Mutable<Scenario>): void {
  const fault = text.trim();
  const drop = /^(drop|close)-after-(events|bytes):(\S+)$/.exec(fault);
  const error = /^error-after-events:([^:]+)(?::(\w+))?$/.exec(fault);
  const stall = /^stall-after-events:([^:]+)(?::(.+))?$/.exec(fault);
  if (fault === 'network-error') {
    into.networkError = true;
  } else if (fault.startsWith('http:')) {
    into.http = httpKind(fault.slice(5).trim());
  } else if (drop) {
    const count = uint(drop[3] as string, `${drop[1]}-after-${drop[2]}`);
    into.dropAfter = drop[2] === 'events' ? { events: count } : { bytes: count };
    into.dropMode = drop[1] === 'drop' ? 'error' : 'close';
  } else if (error) {
    const events = uint(error[1] as string, 'error-after-events');
    const type = error[2];
    into.errorAfter =
      type === undefined ? { events } : { events, error: { type, message: messageFor(type) } };
  } else if (stall) {
    const events = uint(stall[1] as string, 'stall-after-events');
    into.stallAfter =
      stall[2] === undefined ? { events } : { events, ms: uint(stall[2], 'the stall in ms') };
  } else {
    throw new ScenarioError(
      `Unknown fault "${fault}". Use drop-after-events:N, drop-after-bytes:N, close-after-events:N, close-after-bytes:N, error-after-events:N[:type], stall-after-events:N[:ms], http:<kind> or network-error.`,
    );
  }
}

/** The message the API sends with each in-stream error type. */
function messageFor(type: string): string {
  switch (type) {
    case 'overloaded_error':
      return 'Overloaded';
    case 'api_error':
      return 'Internal server error';
    case 'rate_limit_error':
      return 'Rate limited';
    default:
      return type.replace(/_/g, ' ');
  }
}

/** Parses a scenario string (see the grammar above); throws `ScenarioError`. */
export function parseScenario(text: string): Scenario {
  const [head = '', ...params] = text.split(';');
  const scenario: Mutable<Scenario> = {};
  const fixture = head.trim();
  if (fixture !== '') {
    if (fixture.includes('=')) {
      throw new ScenarioError(
        `A scenario starts with a fixture name (or nothing, then ";"), got "${fixture}".`,
      );
    }
    scenario.fixture = fixture;
  }
  for (const param of params) {
    if (param.trim() === '') continue;
    const eq = param.indexOf('=');
    if (eq === -1) throw new ScenarioError(`Expected key=value, got "${param.trim()}".`);
    const key = param.slice(0, eq).trim().toLowerCase();
    const value = param.slice(eq + 1).trim();
    switch (key) {
      case 'fault':
        for (const fault of value.split(',')) parseFault(fault, scenario);
        break;
      case 'speed':
        if (!SPEEDS.includes(value as Speed)) {
          throw new ScenarioError(`speed must be one of ${SPEEDS.join(', ')}, got "${value}".`);
        }
        scenario.speed = value as Speed;
        break;
      case 'seed':
        scenario.seed = uint(value, 'seed');
        break;
      case 'chunking': {
        const range = /^(\d+)-(\d+)$/.exec(value);
        if (value === 'event') scenario.chunking = 'event';
        else if (value === 'random') scenario.chunking = RANDOM_CHUNKING;
        else if (range && Number(range[1]) >= 1 && Number(range[2]) >= Number(range[1])) {
          scenario.chunking = { minBytes: Number(range[1]), maxBytes: Number(range[2]) };
        } else {
          throw new ScenarioError(
            `chunking must be event, random or MIN-MAX bytes (1 <= MIN <= MAX), got "${value}".`,
          );
        }
        break;
      }
      case 'times':
        scenario.times = uint(value, 'times');
        break;
      case 'retry-after-ms':
        scenario.retryAfterMs = uint(value, 'retry-after-ms');
        break;
      case 'then':
        if (value === '') throw new ScenarioError('then needs a fixture name.');
        scenario.followUp = value;
        break;
      default:
        throw new ScenarioError(
          `Unknown scenario parameter "${key}". Use fault, speed, seed, chunking, times, retry-after-ms or then.`,
        );
    }
  }
  if ((scenario.http !== undefined || scenario.networkError) && hasStreamFault(scenario)) {
    throw new ScenarioError(
      'An http: or network-error fault cannot be combined with stream faults.',
    );
  }
  if (scenario.http !== undefined && scenario.networkError) {
    throw new ScenarioError('Choose one of http: and network-error.');
  }
  return scenario;
}

const hasStreamFault = (scenario: Scenario): boolean =>
  scenario.dropAfter !== undefined ||
  scenario.errorAfter !== undefined ||
  scenario.stallAfter !== undefined;

/** Whether a scenario has any fault at all (what `times` limits). */
export const hasFault = (scenario: Scenario): boolean =>
  hasStreamFault(scenario) || scenario.http !== undefined || scenario.networkError === true;

/** The scenario string for a scenario object: `parseScenario(formatScenario(s))` gives `s` back. */
export function formatScenario(scenario: Scenario): string {
  const parts = [scenario.fixture ?? ''];
  const faults: string[] = [];
  if (scenario.stallAfter !== undefined) {
    const { events, ms } = scenario.stallAfter;
    faults.push(
      `stall-after-events:${events}${ms === undefined || ms === Number.POSITIVE_INFINITY ? '' : `:${ms}`}`,
    );
  }
  if (scenario.errorAfter !== undefined) {
    const { events, error } = scenario.errorAfter;
    faults.push(`error-after-events:${events}${error ? `:${error.type}` : ''}`);
  }
  if (scenario.dropAfter !== undefined) {
    const verb = scenario.dropMode === 'close' ? 'close' : 'drop';
    const after = scenario.dropAfter;
    faults.push(
      'events' in after
        ? `${verb}-after-events:${after.events}`
        : `${verb}-after-bytes:${after.bytes}`,
    );
  }
  if (scenario.http !== undefined) faults.push(`http:${scenario.http}`);
  if (scenario.networkError) faults.push('network-error');
  if (faults.length > 0) parts.push(`fault=${faults.join(',')}`);
  if (scenario.speed !== undefined) parts.push(`speed=${scenario.speed}`);
  if (scenario.seed !== undefined) parts.push(`seed=${scenario.seed}`);
  if (scenario.chunking !== undefined) {
    parts.push(
      `chunking=${scenario.chunking === 'event' ? 'event' : `${scenario.chunking.minBytes}-${scenario.chunking.maxBytes}`}`,
    );
  }
  if (scenario.times !== undefined) parts.push(`times=${scenario.times}`);
  if (scenario.retryAfterMs !== undefined) parts.push(`retry-after-ms=${scenario.retryAfterMs}`);
  if (scenario.followUp !== undefined) parts.push(`then=${scenario.followUp}`);
  return parts.join(';');
}
