import { createModuleFederationConfig } from '@module-federation/enhanced';

export default createModuleFederationConfig({
  name: 'intro',
  exposes: { './Screen': './src/exposed-screen.ts' },
});
