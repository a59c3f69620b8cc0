import { createModuleFederationConfig } from '@module-federation/enhanced';

export default createModuleFederationConfig({
  name: 'thankyou',
  exposes: { './Screen': './src/exposed-screen.ts' },
});
