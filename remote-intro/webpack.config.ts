import { createWebpackConfig } from '../tooling/build/webpack/create-webpack-config';
import federation from './module-federation.config';

export default createWebpackConfig({ appDir: __dirname, entry: './src/standalone.ts', federation });
