import { createModuleFederationConfig } from '@module-federation/enhanced';

/** The host consumes its remotes at runtime from config.json, so it declares none here. */
export default createModuleFederationConfig({
  name: 'host',
});
