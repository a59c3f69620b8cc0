import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
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
  const pglite = module.exports as typeof Pglite;
  // Every database a test opens gets the same compiled WebAssembly, compiled once per Jest worker,
  // and V8 never frees WebAssembly code in this process. Why: V8's wasm code GC (which frees code
  // that tier-up replaced, and wrappers) trips a V8 bug that aborts the worker ("Check failed:
  // jit_page_->allocations_.erase(addr) == 1" in UnregisterWasmAllocation, nodejs/node#64500;
  // two `npm run verify` runs with Node 24.21, once after the modules were shared). With
  // --trace-wasm-code-gc, the releases tests' workers freed 78 code objects with the default and
  // none with the flag. What is not freed is bounded: one module's code per worker. The flag is
  // process-wide, so it is set before the first database runs.
  const modules = compiledOnce(path.dirname(file));
  setFlagsFromString('--no-wasm-code-gc');
  const create = pglite.PGlite.create.bind(pglite.PGlite);
  pglite.PGlite.create = ((dataDirOrOptions?: string | Pglite.PGliteOptions, options?: Pglite.PGliteOptions) =>
    typeof dataDirOrOptions === 'string'
      ? create(dataDirOrOptions, { ...modules, ...options })
      : create({ ...modules, ...dataDirOrOptions, ...options })) as typeof pglite.PGlite.create;
  return pglite;
}

/** PGlite's two WebAssembly modules, compiled in the main context once per process. */
function compiledOnce(dist: string): { pgliteWasmModule: WebAssembly.Module; initdbWasmModule: WebAssembly.Module } {
  // Each test file has a module registry (and globals) of its own; Node's built-in modules are the
  // process's, so the cache hangs on one of them. The main context's WebAssembly compiles them.
  const nodeVm = process.getBuiltinModule('node:vm') as typeof vm;
  const holder = nodeVm as unknown as Record<symbol, ReturnType<typeof compiledOnce>>;
  const key = Symbol.for('special-gift.test.pglite-wasm-modules');
  const mainWasm = nodeVm.runInThisContext('WebAssembly') as {
    Module: new (bytes: Uint8Array) => WebAssembly.Module;
  };
  holder[key] ??= {
    pgliteWasmModule: new mainWasm.Module(readFileSync(path.join(dist, 'pglite.wasm'))),
    initdbWasmModule: new mainWasm.Module(readFileSync(path.join(dist, 'initdb.wasm'))),
  };
  return holder[key];
}
