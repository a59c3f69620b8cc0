import { isLanguage, type Language, type ShellConfig } from '@special-gift/shared';
import { buildEntryUrl, PAGE_BUILDS_ATTRIBUTE, parsePageBuilds } from '@special-gift/shared/composition';
import { REMOTES } from './remotes.generated';

/** The remotes the host routes to, from tooling/remotes/remotes.json (`npm run generate`). */
export type RemoteName = (typeof REMOTES)[number]['name'];
export const REMOTE_NAMES: readonly RemoteName[] = REMOTES.map((remote) => remote.name);

/** The host's `config.json`, fetched at start-up so one build runs in every environment. */
export interface RuntimeConfig extends ShellConfig {
  /** Where each remote's `remoteEntry.js` (its federation container) lives. */
  readonly remotes: Readonly<Record<RemoteName, string>>;
  /** Overrides the swipe-back default (on for iOS, off elsewhere). */
  readonly swipeBackEnabled?: boolean;
  /**
   * Refuse a remote's code and texts when the page carries no hash for them, i.e. a remote with no
   * release pointer, running its image's own build (docs/security.md). Off by default, so a
   * deployment whose remotes do not all go through `publish` and `release` keeps working.
   */
  readonly requireIntegrity?: boolean;
  /**
   * The offline service worker (docs/offline.md): registered when true. The operator's kill switch
   * (`SERVICE_WORKER=off`) writes false, and the page then unregisters any worker it finds.
   * Absent: false, so a deployment that serves no worker script never asks for one.
   */
  readonly serviceWorker?: boolean;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid runtime config: ${problems.join('; ')}`);
  }
}

function isAbsoluteOrRootRelativeUrl(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Validates an unknown JSON value as the runtime config; collects every problem before failing. */
export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  const problems: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(['config.json must be a JSON object']);
  }
  const input = raw as Record<string, unknown>;

  const url = (key: string, value: unknown): string => {
    if (typeof value !== 'string' || !isAbsoluteOrRootRelativeUrl(value)) {
      problems.push(`"${key}" must be an http(s) URL or a path starting with "/"`);
      return '';
    }
    return value.replace(/\/+$/, '');
  };

  const apiBase = url('apiBase', input.apiBase);
  const cardScanBase = url('cardScanBase', input.cardScanBase);
  const siteBase = url('siteBase', input.siteBase);

  let defaultLanguage: Language = 'en';
  if (input.defaultLanguage !== undefined) {
    if (isLanguage(input.defaultLanguage)) defaultLanguage = input.defaultLanguage;
    else problems.push('"defaultLanguage" must be one of the supported languages');
  }

  const remotesInput = input.remotes;
  const remotes = {} as Record<RemoteName, string>;
  if (typeof remotesInput !== 'object' || remotesInput === null) {
    problems.push('"remotes" must be an object with the remoteEntry.js URL of each remote');
  } else {
    for (const name of REMOTE_NAMES) {
      const value = (remotesInput as Record<string, unknown>)[name];
      if (typeof value !== 'string' || !isAbsoluteOrRootRelativeUrl(value) || !/\.m?js$/.test(value)) {
        problems.push(`"remotes.${name}" must be the URL of the remote's remoteEntry.js`);
      } else {
        remotes[name] = value;
      }
    }
  }

  const swipeBackEnabled = input.swipeBackEnabled;
  if (swipeBackEnabled !== undefined && typeof swipeBackEnabled !== 'boolean') {
    problems.push('"swipeBackEnabled" must be true or false when given');
  }

  const requireIntegrity = input.requireIntegrity;
  if (requireIntegrity !== undefined && typeof requireIntegrity !== 'boolean') {
    problems.push('"requireIntegrity" must be true or false when given');
  }

  const serviceWorker = input.serviceWorker;
  if (serviceWorker !== undefined && typeof serviceWorker !== 'boolean') {
    problems.push('"serviceWorker" must be true or false when given');
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    apiBase,
    cardScanBase,
    siteBase,
    defaultLanguage,
    remotes,
    ...(typeof swipeBackEnabled === 'boolean' ? { swipeBackEnabled } : {}),
    ...(requireIntegrity === true ? { requireIntegrity } : {}),
    ...(typeof serviceWorker === 'boolean' ? { serviceWorker } : {}),
  };
}

/** Reads and validates the answer to the `config.json` request (started early by main.ts). */
export async function readRuntimeConfig(request: Promise<Response>, url = '/config.json'): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await request;
  } catch (cause) {
    throw new ConfigError([`${url} could not be fetched (${String(cause)})`]);
  }
  if (!response.ok) throw new ConfigError([`${url} answered ${response.status}`]);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ConfigError([`${url} is not valid JSON`]);
  }
  return parseRuntimeConfig(body);
}

/**
 * The config with this page's release snapshot applied (`<html data-sg-builds>`, docs/releases.md):
 * each released remote's entry is its published build's, the others stay as config.json names them.
 * Read once at start-up: the tab loads everything of a remote, later chunks and texts included,
 * from the build its page was composed with.
 */
export function withPageBuilds(
  config: RuntimeConfig,
  attribute = document.documentElement.getAttribute(PAGE_BUILDS_ATTRIBUTE),
): RuntimeConfig {
  const builds = parsePageBuilds(attribute);
  const remotes = { ...config.remotes };
  for (const name of REMOTE_NAMES) remotes[name] = buildEntryUrl(remotes[name], builds[name], window.location.href);
  return { ...config, remotes };
}

/**
 * Where a remote's texts live: beside its entry, `<entry's folder>/assets/i18n/{lang}.json` (the
 * i18n service adds `assets/i18n/{lang}.json`), so a remote's team ships its texts with its code.
 */
export function remoteTextsBase(entryUrl: string, pageUrl = window.location.href): string {
  return new URL('.', new URL(entryUrl, pageUrl)).href;
}
