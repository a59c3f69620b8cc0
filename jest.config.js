// One Jest run for the whole workspace: a project per package, tests beside the code (*.test.ts[x]);
// the API's process-level tests and test helpers live apart, in api/test/.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const common = (name) => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
  transform: { '^.+\\.[cm]?[jt]sx?$': swc },
  // Workbox ships ES modules only: compiled like the code, so the worker's strategies run in tests.
  transformIgnorePatterns: ['/node_modules/(?!workbox-)'],
  moduleNameMapper: { '\\.css$': '<rootDir>/../tooling/jest/style-stub.js' },
});

const browserPackage = (name) => ({
  ...common(name),
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/../tooling/jest/setup-dom.ts'],
});

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    ...['shared', 'host', ...require('./tooling/remotes/remotes.json').map((remote) => remote.dir)].map(browserPackage),
    { ...common('api'), testMatch: ['<rootDir>/{src,test}/**/*.test.ts'], testEnvironment: 'node' },
    { ...common('release-cli'), testEnvironment: 'node' },
    { ...common('gate-runner'), testEnvironment: 'node' },
    { ...common('tooling'), testMatch: ['<rootDir>/**/*.test.ts'], testEnvironment: 'node' },
  ],
};
