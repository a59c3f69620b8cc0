import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { computeBuild } from './build-id';
import { buildIntegrity, sriOf } from './sri';

describe('the integrity recorded at publish', () => {
  it('is the sha384 SRI value of every script, stylesheet and texts file, and of nothing else', () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'sri-'));
    try {
      const files: Record<string, string> = {
        'remoteEntry.js': 'entry',
        '12.abcdef01.js': 'chunk',
        'screen.abcdef01.css': 'css',
        'assets/i18n/fr.json': '{}',
        'mf-manifest.json': '{}',
        'prerender/v1/en.html': '<p>',
        'remoteEntry.js.map': '{}',
      };
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
        writeFileSync(path.join(dist, file), content);
      }
      const integrity = buildIntegrity(computeBuild(dist));
      expect(Object.keys(integrity).sort()).toEqual([
        '12.abcdef01.js',
        'assets/i18n/fr.json',
        'remoteEntry.js',
        'screen.abcdef01.css',
      ]);
      expect(integrity['remoteEntry.js']).toBe(`sha384-${createHash('sha384').update('entry').digest('base64')}`);
      expect(sriOf('entry')).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
