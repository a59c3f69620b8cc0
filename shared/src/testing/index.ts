// Test support for host and remote unit tests (`@special-gift/shared/testing`). Never import it
// from production code: it needs Jest and Testing Library.
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
export { installTopLayerPolyfill, type TopLayer } from '../ui/overlays/test-support';
export { INVALID_CHECKSUM_TEST_CARD_CODE, makeTestCardCode, VALID_TEST_CARD_CODES } from '../validation/test-card-codes';
