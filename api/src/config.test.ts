import path from 'node:path';
import { DEFAULT_DATA_DIR, readConfig } from './config';

describe('readConfig', () => {
  it('has local defaults: port 3004 on all interfaces, data in the repo .data/api, no Secure cookie', () => {
    expect(readConfig({})).toEqual({ port: 3004, host: '0.0.0.0', dataDir: DEFAULT_DATA_DIR, cookieSecure: false });
    expect(DEFAULT_DATA_DIR).toBe(path.resolve(__dirname, '..', '..', '.data', 'api'));
    expect(path.relative(path.resolve(__dirname, '..', '..'), DEFAULT_DATA_DIR)).toBe(path.join('.data', 'api'));
  });

  it('reads every setting from the environment', () => {
    expect(readConfig({ PORT: '8080', HOST: '127.0.0.1', API_DATA_DIR: '/var/lib/special-gift', COOKIE_SECURE: 'true' })).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/special-gift',
      cookieSecure: true,
    });
  });

  it('resolves a relative data dir against the working directory', () => {
    expect(readConfig({ API_DATA_DIR: 'data' }).dataDir).toBe(path.resolve(process.cwd(), 'data'));
  });

  it('only the exact string "true" turns Secure on', () => {
    for (const COOKIE_SECURE of ['1', 'TRUE', 'yes', 'false', '']) expect(readConfig({ COOKIE_SECURE }).cookieSecure).toBe(false);
  });

  it.each(['abc', '-1', '65536', '3.5', ' 80'])('fails fast on PORT=%j', (PORT) => {
    expect(() => readConfig({ PORT })).toThrow(/PORT/);
  });
});
