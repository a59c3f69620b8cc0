import type {
  PublishedBuild,
  ReleaseActionRequest,
  ReleaseHistoryEntry,
  ReleasePointer,
} from '@special-gift/shared/api';
import { Refusal } from './integrity';

export type Pointer = ReleasePointer;
/** A build as the remote's state lists it. */
export type Build = Omit<PublishedBuild, 'remote'>;
export type HistoryEntry = ReleaseHistoryEntry;
export type ActionRequest = ReleaseActionRequest;

export interface RemoteState {
  readonly pointer: Pointer | null;
  readonly revision: number;
  readonly builds: Build[];
  readonly history: HistoryEntry[];
}

export class ReleaseApi {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/\/$/, '')}/v1/releases${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new Refusal(`the release API at ${this.baseUrl} cannot be reached (${String(error)}); set SG_RELEASE_API`);
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status >= 400) {
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new Refusal(
        error?.message
          ? `${error.message} (${response.status} ${error.code ?? ''})`
          : `HTTP ${response.status} from ${path}`,
      );
    }
    return { status: response.status, body: parsed as T };
  }

  async registerBuild(build: {
    remote: string;
    buildId: string;
    contractMajor: number;
    files: number;
    bytes: number;
    actor: string;
    /** The SRI value of each file a browser may load, by path (sri.ts). */
    integrity: Readonly<Record<string, string>>;
  }): Promise<{ created: boolean }> {
    const { status } = await this.call('POST', '/builds', build);
    return { created: status === 201 };
  }

  async remote(remote: string, limit = 50): Promise<RemoteState> {
    return (await this.call<RemoteState>('GET', `/remotes/${remote}?limit=${limit}`)).body;
  }

  async act(remote: string, request: ActionRequest): Promise<{ pointer: Pointer | null; revision: number }> {
    return (
      await this.call<{ pointer: Pointer | null; revision: number }>('POST', `/remotes/${remote}/actions`, request)
    ).body;
  }

  async purge(remote: string, buildIds: readonly string[]): Promise<string[]> {
    return (await this.call<{ purged: string[] }>('POST', `/remotes/${remote}/purge`, { buildIds })).body.purged;
  }
}
