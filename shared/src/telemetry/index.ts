// Field telemetry's wire format (`@special-gift/shared/telemetry`): what the browser collector sends
// to `POST /api/v1/telemetry`, one batch per page view, and the one validation both sides use. Pure
// (no DOM, no Node), so the API and the browser bundle the same rules. The privacy rules it enforces
// are in docs/telemetry.md: enumerations and numbers only, never free text, URLs or field values.
import { BUILD_ID_SOURCE } from '../builds';
import { PAGE_TOKEN_PATTERN } from './page-token';

export const TELEMETRY_VERSION = 1;
/** Most events in one batch: a page view that produced more is cut, not split (one batch, one session). */
export const MAX_EVENTS_PER_BATCH = 50;
/** Milliseconds since navigation start; an hour is longer than any page view worth measuring. */
export const MAX_EVENT_TIME_MS = 3_600_000;

export const DEVICES = ['phone', 'tablet', 'desktop'] as const;
export const LOAD_PHASES = ['entry', 'container', 'screen', 'lazy_chunk', 'texts'] as const;
/** `integrity`: the browser refused a file of the build whose bytes differ from the hash recorded at publish. */
export const LOAD_FAILURE_KINDS = ['network', 'http', 'timeout', 'incompatible', 'script', 'integrity'] as const;
export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export const VITAL_RATINGS = ['good', 'needs-improvement', 'poor'] as const;
/** The build id of a remote served from its image with no release (see the releases work). */
export const IMAGE_BUILD_ID = 'image';
/** The route of a page that is none of the app's routes. */
export const OTHER_ROUTE = 'other';

export type Device = (typeof DEVICES)[number];
export type LoadPhase = (typeof LOAD_PHASES)[number];
export type LoadFailureKind = (typeof LOAD_FAILURE_KINDS)[number];
export type VitalName = (typeof VITAL_NAMES)[number];
export type VitalRating = (typeof VITAL_RATINGS)[number];

/** A remote's entry, container, screen, lazy chunk or texts failed to load. */
export interface LoadFailureEvent {
  readonly type: 'load_failure';
  readonly remote: string;
  readonly phase: LoadPhase;
  readonly kind: LoadFailureKind;
  readonly t: number;
}

/** A remote's error boundary caught a render error. */
export interface RenderErrorEvent {
  readonly type: 'render_error';
  readonly remote: string;
  readonly errorName: string;
  readonly t: number;
}

/** An uncaught error or unhandled rejection; `remote`: whose origin served the top script of the stack, null for the host or unknown. */
export interface UncaughtEvent {
  readonly type: 'uncaught';
  readonly remote: string | null;
  readonly errorName: string;
  readonly t: number;
  readonly rejection: boolean;
}

/** A Core Web Vital (or FCP, TTFB) as web-vitals reports it; `remote`: whose element it was, null for the host or unknown. */
export interface VitalEvent {
  readonly type: 'vital';
  readonly name: VitalName;
  readonly value: number;
  readonly remote: string | null;
  readonly rating?: VitalRating;
  /** web-vitals attribution's element description (a CSS-selector-like path), scrubbed: see `isSafeTarget`. */
  readonly target?: string;
  readonly t: number;
}

export type TelemetryEvent = LoadFailureEvent | RenderErrorEvent | UncaughtEvent | VitalEvent;
export type TelemetryEventType = TelemetryEvent['type'];
export const EVENT_TYPES = ['load_failure', 'render_error', 'uncaught', 'vital'] as const satisfies ReadonlyArray<
  TelemetryEvent['type']
>;

/** One page view's signals, each attributable to a remote and the build of it that the page ran. */
export interface TelemetryBatch {
  readonly v: typeof TELEMETRY_VERSION;
  /** One of the app's routes, or `other`. */
  readonly route: string;
  readonly device: Device;
  /** Remote name → build id (12 hex digits, or `image`) of each remote the page loaded. */
  readonly builds: Readonly<Record<string, string>>;
  readonly events: readonly TelemetryEvent[];
  /**
   * The page token the composer signed into the page (its builds, canary bucket, issue time and a
   * unique id; {@link PAGE_TOKEN_PATTERN}). Absent: an unsigned batch, kept for the report but
   * never counted by the canary verdict (docs/telemetry.md).
   */
  readonly token?: string;
}

/** What a batch may name: the app's routes and remotes (the API passes tooling/remotes/remotes.json's). */
export interface TelemetryVocabulary {
  readonly routes: readonly string[];
  readonly remotes: readonly string[];
}

export type TelemetryValidation =
  | { readonly ok: true; readonly value: TelemetryBatch }
  /** `problems`: `path: code`, e.g. `events[2].t: out_of_range`, at most {@link MAX_PROBLEMS}. */
  | { readonly ok: false; readonly problems: readonly string[] };

export const MAX_PROBLEMS = 20;

/** A build a page ran: a released build's id, or {@link IMAGE_BUILD_ID}. */
export const BUILD_ID = new RegExp(`^(${BUILD_ID_SOURCE}|${IMAGE_BUILD_ID})$`);
export const ERROR_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const MAX_TARGET_LENGTH = 100;

/**
 * A web-vitals target is an element path such as `main>form.sign-up>button#submit`: kept only when it
 * cannot carry personal data or identifiers: printable ASCII, no runs of 4+ digits (card numbers,
 * ids, phone numbers), no `@` (e-mail addresses), no `?` or `=` (query strings, attribute values).
 */
export function isSafeTarget(target: string): boolean {
  return (
    target.length > 0 &&
    target.length <= MAX_TARGET_LENGTH &&
    /^[\x20-\x7e]+$/.test(target) &&
    !/[0-9]{4}/.test(target) &&
    !/[@?=]/.test(target)
  );
}

/** Upper bounds that refuse nonsense without refusing a slow device: CLS is unitless, the rest milliseconds. */
const VITAL_MAX: Readonly<Record<VitalName, number>> = {
  LCP: MAX_EVENT_TIME_MS,
  INP: 600_000,
  CLS: 100,
  FCP: MAX_EVENT_TIME_MS,
  TTFB: MAX_EVENT_TIME_MS,
};

const KEYS: Readonly<Record<TelemetryEventType, { required: readonly string[]; optional: readonly string[] }>> = {
  load_failure: { required: ['type', 'remote', 'phase', 'kind', 't'], optional: [] },
  render_error: { required: ['type', 'remote', 'errorName', 't'], optional: [] },
  uncaught: { required: ['type', 'remote', 'errorName', 't', 'rejection'], optional: [] },
  vital: { required: ['type', 'name', 'value', 'remote', 't'], optional: ['rating', 'target'] },
};
const BATCH_KEYS = ['v', 'route', 'device', 'builds', 'events', 'token'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === 'string' && (list as readonly string[]).includes(value);
}

function isFiniteIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

/**
 * Checks a decoded JSON value against the wire format, strictly: an unknown key, a wrong type, a name
 * outside `vocabulary`, a remote in an event that the batch's `builds` does not list, or anything out
 * of range is a problem. The value returned is a fresh copy holding only the known keys.
 */
export function validateTelemetryBatch(input: unknown, vocabulary: TelemetryVocabulary): TelemetryValidation {
  const problems: string[] = [];
  const problem = (path: string, code: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(`${path}: ${code}`);
  };
  if (!isObject(input)) return { ok: false, problems: ['batch: not_an_object'] };
  for (const key of Object.keys(input)) if (!BATCH_KEYS.includes(key)) problem(safeKey(key), 'unknown_key');
  if (input.v !== TELEMETRY_VERSION) problem('v', 'unsupported_version');
  const routeOk = input.route === OTHER_ROUTE || isOneOf(vocabulary.routes, input.route);
  if (!routeOk) problem('route', 'unknown_route');
  if (!isOneOf(DEVICES, input.device)) problem('device', 'invalid');

  const builds: Record<string, string> = {};
  if (!isObject(input.builds)) problem('builds', 'not_an_object');
  else {
    for (const [remote, build] of Object.entries(input.builds)) {
      if (!isOneOf(vocabulary.remotes, remote)) problem('builds', 'unknown_remote');
      else if (typeof build !== 'string' || !BUILD_ID.test(build)) problem(`builds.${remote}`, 'invalid_build_id');
      else builds[remote] = build;
    }
  }

  const events: TelemetryEvent[] = [];
  if (!Array.isArray(input.events)) problem('events', 'not_an_array');
  else if (input.events.length === 0) problem('events', 'empty');
  else if (input.events.length > MAX_EVENTS_PER_BATCH) problem('events', 'too_many');
  else {
    input.events.forEach((raw: unknown, index) => {
      const event = validateEvent(raw, `events[${index}]`, builds, vocabulary, problem);
      if (event) events.push(event);
    });
  }
  const token = input.token;
  if (token !== undefined && (typeof token !== 'string' || !PAGE_TOKEN_PATTERN.test(token)))
    problem('token', 'invalid');
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    value: {
      v: TELEMETRY_VERSION,
      route: input.route as string,
      device: input.device as Device,
      builds,
      events,
      ...(typeof token === 'string' ? { token } : {}),
    },
  };
}

/** An unknown key is named in the answer only if it is short and plain: the answer never echoes junk. */
function safeKey(key: string): string {
  return /^[A-Za-z0-9_]{1,32}$/.test(key) ? key : '(key)';
}

function validateEvent(
  raw: unknown,
  path: string,
  builds: Readonly<Record<string, string>>,
  vocabulary: TelemetryVocabulary,
  problem: (path: string, code: string) => void,
): TelemetryEvent | null {
  if (!isObject(raw)) {
    problem(path, 'not_an_object');
    return null;
  }
  if (!isOneOf(EVENT_TYPES, raw.type)) {
    problem(`${path}.type`, 'invalid');
    return null;
  }
  const type = raw.type;
  const allowed = [...KEYS[type].required, ...KEYS[type].optional];
  let ok = true;
  const fail = (field: string, code: string) => {
    ok = false;
    problem(`${path}.${field}`, code);
  };
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) fail(safeKey(key), 'unknown_key');
  for (const key of KEYS[type].required) if (!(key in raw)) fail(key, 'missing');
  if (!ok) return null;

  if (!isFiniteIn(raw.t, 0, MAX_EVENT_TIME_MS)) fail('t', 'out_of_range');
  const nullable = type === 'uncaught' || type === 'vital';
  const remote = raw.remote;
  if (remote === null) {
    if (!nullable) fail('remote', 'invalid');
  } else if (!isOneOf(vocabulary.remotes, remote)) fail('remote', 'unknown_remote');
  else if (!Object.hasOwn(builds, remote)) fail('remote', 'not_in_builds');
  const t = raw.t as number;

  switch (type) {
    case 'load_failure':
      if (!isOneOf(LOAD_PHASES, raw.phase)) fail('phase', 'invalid');
      if (!isOneOf(LOAD_FAILURE_KINDS, raw.kind)) fail('kind', 'invalid');
      return ok
        ? { type, remote: remote as string, phase: raw.phase as LoadPhase, kind: raw.kind as LoadFailureKind, t }
        : null;
    case 'render_error':
      if (typeof raw.errorName !== 'string' || !ERROR_NAME.test(raw.errorName)) fail('errorName', 'invalid');
      return ok ? { type, remote: remote as string, errorName: raw.errorName as string, t } : null;
    case 'uncaught':
      if (typeof raw.errorName !== 'string' || !ERROR_NAME.test(raw.errorName)) fail('errorName', 'invalid');
      if (typeof raw.rejection !== 'boolean') fail('rejection', 'invalid');
      return ok
        ? {
            type,
            remote: remote as string | null,
            errorName: raw.errorName as string,
            t,
            rejection: raw.rejection as boolean,
          }
        : null;
    case 'vital': {
      if (!isOneOf(VITAL_NAMES, raw.name)) {
        fail('name', 'invalid');
        return null;
      }
      const name = raw.name;
      if (!isFiniteIn(raw.value, 0, VITAL_MAX[name])) fail('value', 'out_of_range');
      if ('rating' in raw && !isOneOf(VITAL_RATINGS, raw.rating)) fail('rating', 'invalid');
      if ('target' in raw && (typeof raw.target !== 'string' || !isSafeTarget(raw.target))) fail('target', 'unsafe');
      if (!ok) return null;
      return {
        type,
        name,
        value: raw.value as number,
        remote: remote as string | null,
        ...('rating' in raw ? { rating: raw.rating as VitalRating } : {}),
        ...('target' in raw ? { target: raw.target as string } : {}),
        t,
      };
    }
  }
}

/** Whether an event counts against its remote's error rate. */
export function isFailureEvent(event: TelemetryEvent): boolean {
  return event.type !== 'vital';
}

export {
  base64url,
  formatPageToken,
  mintPageToken,
  networkHash,
  networkOf,
  PAGE_TOKEN_PATTERN,
  pageTokenKeys,
  pageTokenPayload,
  parsePageToken,
  type HmacBytes,
  type PageTokenClaims,
} from './page-token';
export * from './report';
export * from './canary-decision';
