import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAGE_TOKEN_MODULE_PATH, renderPageTokenModule } from './render-njs';

describe("nginx's page-token module", () => {
  const generated = renderPageTokenModule();

  it(`${PAGE_TOKEN_MODULE_PATH} is what its sources generate (run \`npm run generate\`)`, () => {
    expect(readFileSync(join(__dirname, '..', '..', PAGE_TOKEN_MODULE_PATH), 'utf8')).toBe(generated);
  });

  // What njs 0.7.9 refuses (the real-nginx tests load it too): any export but the default, and
  // syntax newer than ES5 that esbuild keeps.
  it('is an ES5 module with a default export only', () => {
    expect(generated.match(/^export .*$/gm)).toEqual(['export default page_token_entry_default;']);
    const code = generated.replace(/^\/\/.*$/gm, '');
    expect(code).not.toMatch(/\b(const|let|class)\s|=>|`|\.\.\./);
    expect(generated).toMatch(/^import njsCrypto from 'crypto';$/m);
  });
});
