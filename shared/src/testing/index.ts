// Test support for host and remote unit tests (`@special-gift/shared/testing`). Never import it
// from production code: it needs Jest and Testing Library. The test card codes, which Node-side
// tests (API, e2e, bench) use too, are `@special-gift/shared/testing/cards` (./cards).
export {
  createFakeHttp,
  createFakeNavigation,
  createFakeShellI18n,
  createMemoryStorage,
  createTestI18n,
  createTestShell,
  renderWithShell,
  toShellLocation,
  TEST_CONFIG,
  TEST_OVERLAY_LABELS,
  type FakeHttp,
  type FakeNavigation,
  type FakeShellI18n,
  type MemoryStorage,
  type RenderWithShellOptions,
  type RenderWithShellResult,
  type TestShell,
  type TestShellOverrides,
} from './create-test-shell';
export { rejectionOf } from './rejection-of';
export { installTopLayerPolyfill, type TopLayer } from './top-layer-polyfill';
