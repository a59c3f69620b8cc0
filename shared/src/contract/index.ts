// The public contract of @special-gift/shared, the one federated share: what remotes may use, one
// copy per page (the host's). This folder is all of it: the types, the hooks (./react) and the UI
// primitives (./ui). The host's implementations are '@special-gift/shared/host', test helpers
// '/testing' (shared/README.md lists every subpath).
export * from '../version';
export * from './config';
export * from './i18n';
export * from './navigation';
export * from './storage';
export * from './http';
export * from './overlays';
export * from './shell';
export * from './remote-module';
export * from './sign-up';
export * from './react/shell-context';
export * from './react/use-translation';
export * from './ui/page';
export * from './ui/button';
export * from './ui/back-button';
export * from './ui/text-field';
export * from './ui/checkbox-field';
export * from './ui/field-error';
export * from './ui/status-view';
// The sign-up rules' types only: the rules themselves are pure functions imported from
// '@special-gift/shared/validation', which is not a federated share, so they are bundled (and
// tree-shaken) where they are used instead of riding in every page's shared contract.
export type {
  SignUp,
  SignUpErrorCode,
  SignUpErrors,
  SignUpField,
  SignUpInput,
  SignUpValidationResult,
} from '../validation';
