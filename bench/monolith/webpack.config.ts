import { join } from 'node:path';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Configuration } from 'webpack';
import { REMOTES } from '../../tooling/remotes';
import { sourceRules } from '../../tooling/build/webpack/create-webpack-config';

const repo = join(__dirname, '..', '..');

/** The monolith baseline: same sources, same loaders and minifier, no ModuleFederationPlugin. */
const config: Configuration = {
  mode: 'production',
  context: repo,
  entry: { main: join(__dirname, 'main.ts') },
  devtool: false,
  output: {
    path: join(__dirname, 'dist'),
    publicPath: '/',
    filename: '[name].[contenthash:8].js',
    // A screen chunk takes its notional entry's fixed name (see main.ts); the rest are hashed.
    chunkFilename: (pathData) =>
      pathData.chunk?.name?.startsWith('remotes/') ? '[name].js' : '[name].[contenthash:8].js',
    clean: true,
  },
  resolve: { extensions: ['.tsx', '.ts', '.js'] },
  module: { rules: sourceRules(true) },
  plugins: [
    new MiniCssExtractPlugin({ filename: '[name].[contenthash:8].css', chunkFilename: '[name].[contenthash:8].css' }),
    new HtmlWebpackPlugin({ template: join(repo, 'host/src/index.html'), publicPath: '/' }),
    new CopyWebpackPlugin({
      patterns: [
        { from: join(repo, 'host/public'), to: '.' },
        // Each screen's texts where the shell looks for them: beside its (notional) manifest.
        ...REMOTES.map((remote) => ({
          from: join(repo, remote.dir, 'public/assets'),
          to: `remotes/${remote.name}/assets`,
        })),
      ],
    }),
  ],
  performance: { hints: false },
};

export default config;
