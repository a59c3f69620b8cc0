import { createModuleFederationConfig } from '@module-federation/enhanced';

export default createModuleFederationConfig({
  name: 'signup',
  exposes: { './Screen': './src/exposed-screen.ts' },
});
