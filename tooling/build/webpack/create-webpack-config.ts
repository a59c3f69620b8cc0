import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import type { moduleFederationPlugin } from '@module-federation/enhanced';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { REMOTES } from '../../remotes';
import { LOCAL_PORTS } from '../../serve/local-topology';
import { refuseOperatorPages } from '../../serve/operator-pages';
import { localRuntimeConfig } from '../../serve/runtime-config';
import { BuildInfoPlugin } from './build-info-plugin';
import { ChunkIntegrityPlugin } from './chunk-integrity-plugin';
import { sharedSingletons } from './shared-dependencies';

export type FederationConfig = moduleFederationPlugin.ModuleFederationPluginOptions;

export interface AppBuildOptions {
  /** The app's folder (pass `__dirname`). */
  appDir: string;
  /** The app's own federation settings: `name`, and `exposes` for a remote. */
  federation: FederationConfig;
  /** Module that boots the page: the host's shell (`src/index.html`), or a remote's dev shell (dev only). */
  entry: string;
  /**
   * The host's composed page's first script (production): `page-loader.<hash>.js`, built on its own
   * (in the app's build, the federation plugin would put the eagerly shared libraries in it too).
   */
  pageLoader?: string;
  /**
   * The host's field-telemetry collector (production): `collector.<hash>.js`, built on its own like
   * the page loader, named in the page by the host's build and loaded after the first screen.
   */
  collector?: string;
  /**
   * The host's service workers (production), by output name: the offline worker and the kill
   * switch's script (docs/offline.md). Built on their own, for a worker's globals, under fixed
   * names: a worker's URL is its identity, so it carries no content hash (it is served uncached).
   */
  serviceWorkers?: Readonly<Record<string, string>>;
}

export type WebpackArgv = { mode?: 'production' | 'development' | 'none' };

/** How TypeScript/TSX and CSS are compiled: the same for every app (and the benchmark's monolith). */
export function sourceRules(production: boolean): NonNullable<Configuration['module']>['rules'] {
  return [
    {
      test: /\.[cm]?tsx?$/,
      exclude: /node_modules/,
      use: {
        loader: 'swc-loader',
        options: {
          jsc: {
            parser: { syntax: 'typescript', tsx: true },
            transform: { react: { runtime: 'automatic', development: !production } },
            target: 'es2020',
          },
        },
      },
    },
    { test: /\.css$/, use: [production ? MiniCssExtractPlugin.loader : 'style-loader', 'css-loader'] },
  ];
}

/** What the app's build and the page loader's share: the same sources compiled alike, no size hints. */
function compiledAlike(production: boolean): Pick<Configuration, 'resolve' | 'module' | 'performance'> {
  return {
    resolve: { extensions: ['.tsx', '.ts', '.js'] },
    module: { rules: sourceRules(production) },
    performance: { hints: false },
  };
}

/**
 * `provideExternalRuntime` adds a runtime plugin by its CommonJS path, which pulls in the CommonJS
 * build of the federation runtime beside the ES module build the host already runs: two copies,
 * +22 KB gzipped. Pointing it at the plugin's ES module build makes it hand out the same runtime.
 */
function runtimeProviderAlias(): Record<string, string> {
  const commonJs = require.resolve('@module-federation/inject-external-runtime-core-plugin');
  return { [commonJs]: commonJs.replace(/\.cjs$/, '.js') };
}

/**
 * The one webpack config every app uses. A remote's production build emits only its container
 * (`remoteEntry.js`, `mf-manifest.json`, chunks, `assets/`); the page entry is for its dev server.
 */
/** The app's dev server (`npm start` in it) listens where `npm run up` serves it. */
function localPortOf(appDir: string): number {
  const remote = REMOTES.find((candidate) => candidate.dir === basename(appDir));
  return remote ? remote.localPort : LOCAL_PORTS.host;
}

export function createWebpackConfig(options: AppBuildOptions) {
  return (_env: unknown, argv: WebpackArgv): AppConfiguration | Configuration[] => {
    const app = appConfig(options, argv);
    if (argv.mode === 'development' || !options.pageLoader) return app;
    return [
      app,
      separateScriptConfig('page-loader', options.appDir, options.pageLoader),
      ...(options.collector ? [separateScriptConfig('collector', options.appDir, options.collector)] : []),
      ...(options.serviceWorkers ? [serviceWorkerConfig(options.appDir, options.serviceWorkers)] : []),
    ];
  };
}

type AppConfiguration = Configuration & { devServer?: DevServerConfiguration };

/** A script of its own: no federation, nothing shared; written beside the app's build, after it. */
function separateScriptConfig(name: string, appDir: string, entry: string): Configuration {
  return {
    name,
    dependencies: ['app'], // after the app's build, which empties dist/ first
    mode: 'production',
    context: appDir,
    entry: { [name]: entry },
    devtool: 'hidden-source-map',
    output: { path: join(appDir, 'dist'), publicPath: '/', filename: '[name].[contenthash:8].js', clean: false },
    ...compiledAlike(true),
  };
}

/** The service workers: like a separate script, with a worker's globals and no hash in the name. */
function serviceWorkerConfig(appDir: string, entries: Readonly<Record<string, string>>): Configuration {
  const base = separateScriptConfig('service-workers', appDir, '');
  return { ...base, target: 'webworker', entry: { ...entries }, output: { ...base.output, filename: '[name].js' } };
}

function appConfig(options: AppBuildOptions, argv: WebpackArgv): AppConfiguration {
  const production = argv.mode !== 'development';
  const isRemote = Boolean(options.federation.exposes);
  const emitsPage = !isRemote || !production;
  const publicDir = join(options.appDir, 'public');
  const compiled = compiledAlike(production);

  return {
    name: 'app',
    mode: production ? 'production' : 'development',
    context: options.appDir,
    entry: emitsPage ? { main: options.entry } : {},
    devtool: production ? 'hidden-source-map' : 'eval-cheap-module-source-map',
    output: {
      path: join(options.appDir, 'dist'),
      // Chunks load from wherever the container was loaded from: the remote's own origin.
      // (The page's own script tags are root-absolute, see HtmlWebpackPlugin, so deep links work.)
      publicPath: 'auto',
      filename: production ? '[name].[contenthash:8].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      uniqueName: String(options.federation.name),
      // A remote's chunks with CORS: its errors then name their script (field telemetry), not "Script error.".
      crossOriginLoading: 'anonymous',
      clean: true,
    },
    ...compiled,
    resolve: { ...compiled.resolve, alias: runtimeProviderAlias() },
    plugins: [
      new ModuleFederationPlugin({
        filename: 'remoteEntry.js',
        manifest: { fileName: 'mf-manifest.json' },
        // Types come from the monorepo's TypeScript paths, not from downloaded archives.
        dts: false,
        // Start-up never waits on a remote's entry: share what is already loaded (the host's).
        shareStrategy: 'loaded-first',
        shared: sharedSingletons(options.appDir, { eager: !isRemote }),
        experiments: {
          // Trim the federation runtime (docs/performance.md): browsers only; no
          // manifest/snapshot protocol (the host loads each remoteEntry.js directly); a remote
          // never loads other remotes.
          optimization: { target: 'web', disableSnapshot: true, disableRemote: isRemote },
          // One federation runtime per page: the host provides its own and production remotes use
          // it, so each remoteEntry.js carries none. A remote's dev build keeps its own, because
          // its standalone page has no host.
          ...(isRemote ? { externalRuntime: production } : { provideExternalRuntime: true }),
        },
        ...options.federation,
      }),
      // Every chunk the runtime loads is checked against its hash (docs/security.md).
      ...(production ? [new ChunkIntegrityPlugin()] : []),
      ...(production
        ? [
            new MiniCssExtractPlugin({
              filename: '[name].[contenthash:8].css',
              chunkFilename: '[name].[contenthash:8].css',
            }),
          ]
        : []),
      ...(emitsPage
        ? [
            new HtmlWebpackPlugin({
              // A remote's page is only its dev shell: one template serves all of them.
              template: isRemote ? join(__dirname, 'standalone-page.html') : join(options.appDir, 'src/index.html'),
              title: `${String(options.federation.name)} screen · dev shell`,
              chunks: ['main'],
              publicPath: '/',
            }),
          ]
        : []),
      // The host's contract major, for the release tool's check (docs/releases.md).
      ...(!isRemote && production ? [new BuildInfoPlugin()] : []),
      ...(existsSync(publicDir) ? [new CopyWebpackPlugin({ patterns: [{ from: publicDir, to: '.' }] })] : []),
    ],
    devServer: {
      port: localPortOf(options.appDir),
      historyApiFallback: true,
      // Remotes are fetched cross-origin by the host.
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: { overlay: { warnings: false } },
      // Same-origin API, as in production: the XSRF cookie needs it.
      proxy: [{ context: ['/api'], target: `http://localhost:${LOCAL_PORTS.api}`, pathRewrite: { '^/api': '' } }],
      setupMiddlewares: (middlewares, server) => {
        // Before the proxy: the operator pages stay on the API's own origin (docs/console.md).
        server.app?.use('/api', refuseOperatorPages);
        // The host's config.json, from the start-up script the images run (remotes on their ports).
        if (!isRemote)
          server.app?.get('/config.json', (_request, response) => {
            response.setHeader('Cache-Control', 'no-cache');
            response.json(localRuntimeConfig(LOCAL_PORTS));
          });
        return middlewares;
      },
    },
  };
}
