// Dev-only page: this screen alone inside the dev shell. The dynamic import is the async boundary
// federation needs before shared modules are used.
void import('@special-gift/shared/dev-shell').then(({ mountStandalone }) =>
  mountStandalone(() => import('./exposed-screen')),
);
