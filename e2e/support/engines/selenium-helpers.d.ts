// Two public helpers of selenium-webdriver that @types/selenium-webdriver does not declare
// (their JSDoc in node_modules/selenium-webdriver/http/util.js and net/portprober.js).
declare module 'selenium-webdriver/http/util' {
  /** Polls the server's /status until it answers, `timeoutMs` at most; ends early once `cancel` resolves. */
  export function waitForServer(url: string, timeoutMs: number, cancel?: Promise<unknown>): Promise<unknown>;
}
declare module 'selenium-webdriver/net/portprober' {
  /** A port the system reports free now (listening on port 0). */
  export function findFreePort(host?: string): Promise<number>;
}
