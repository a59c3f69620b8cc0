import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readConfig } from '../src/config';

// docker-compose.yml as it concerns the API: reachable only through the host's proxy unless the
// debugging override is added, and trusting forwarded addresses from that proxy alone.

interface Service {
  readonly ports?: readonly string[];
  readonly environment?: Record<string, string>;
}
// `${NAME:-default}` as compose interpolates it with NAME unset.
// `${VAR:-default}` is its default; `${VAR}` unset is empty, as compose has it.
const withDefaults = (text: string) => text.replace(/\$\{[A-Z_][A-Z0-9_]*(?::-([^}]*))?\}/g, '$1');
const compose = (file: string) =>
  parse(withDefaults(readFileSync(path.resolve(__dirname, '..', '..', file), 'utf8'))) as {
    services: Record<string, Service>;
  };

describe('docker-compose.yml, the api service', () => {
  const { services } = compose('docker-compose.yml');
  const api = services.api ?? {};

  it('publishes no port: clients reach it through the host proxy only', () => {
    expect(api.ports).toBeUndefined();
  });

  it('trusts X-Forwarded-For from the host proxy only, and checks Origin against the public origin', () => {
    const config = readConfig(api.environment ?? {});
    expect(config.trustedProxies).toEqual(['host']);
    expect(services.host?.environment?.API_UPSTREAM).toBe('http://api:3004');
    expect(config.allowedOrigins).toEqual(['http://localhost:3000']);
  });

  it('is published on loopback by the debugging override only', () => {
    expect(compose('deploy/compose.api-debug.yml').services.api?.ports).toEqual(['127.0.0.1:3004-3005:3004']);
  });
});
