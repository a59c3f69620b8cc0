import { createWebpackConfig } from '../tooling/webpack/create-webpack-config';
import federation from './module-federation.config';

export default createWebpackConfig({
  appDir: __dirname,
  entry: './src/main.ts',
  pageLoader: './src/page-loader.ts',
  collector: './src/collector/collector.ts',
  federation,
});
