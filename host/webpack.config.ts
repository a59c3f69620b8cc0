import { createWebpackConfig } from '../tooling/build/webpack/create-webpack-config';
import federation from './module-federation.config';

export default createWebpackConfig({
  appDir: __dirname,
  entry: './src/main.ts',
  pageLoader: './src/page-loader.ts',
  collector: './src/collector/collector.ts',
  serviceWorkers: {
    'service-worker': './src/features/offline/service-worker.ts',
    'service-worker-off': './src/features/offline/service-worker-off.ts',
  },
  federation,
});
