import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type * as Pglite from '@electric-sql/pglite';

/**
 * TEST SUPPORT ONLY. Loads `@electric-sql/pglite` outside Jest's module sandbox. A test file whose
 * code opens a database uses it as
 *
 *   import type * as NativePglite from '<relative path>/test/support/native-pglite';
 *   jest.mock('@electric-sql/pglite', () => jest.requireActual<typeof NativePglite>('<relative path>/test/support/native-pglite').loadPgliteNatively());
 *
 * Why: PGlite's CommonJS build loads Node built-ins and its WASM glue with dynamic `import()`.
 * Jest's VM sandbox refuses dynamic import unless Node runs with --experimental-vm-modules, and so
 * does Node's own loader for that package while Jest is running (the referrer falls back to Jest's
 * context). So compile the bundle ourselves in the main context, with Node's default loader for
 * its `import()`s and a real `require`. Costs one "ExperimentalWarning: vm.USE_MAIN_CONTEXT_DEFAULT_LOADER"
 * line per test file. Not needed if Jest ever runs with --experimental-vm-modules.
 */
export function loadPgliteNatively(): typeof Pglite {
  const file = require.resolve('@electric-sql/pglite');
  // Jest's `node:module` is a stand-in whose createRequire gives Jest's require; this is Node's.
  const nodeModule = process.getBuiltinModule('node:module');
  const compiled = vm.compileFunction(
    readFileSync(file, 'utf8'),
    ['exports', 'require', 'module', '__filename', '__dirname'],
    {
      filename: file,
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    },
  );
  const module = { exports: {} };
  compiled(module.exports, nodeModule.createRequire(file), module, file, path.dirname(file));
  return module.exports as typeof Pglite;
}
