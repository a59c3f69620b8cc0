import type { i18n as I18nInstance } from 'i18next';
import { useLayoutEffect, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { ShellApi } from '../contract/shell';
import { ShellProvider } from '../contract/react/shell-context';

/**
 * What a prerendered screen is rendered in, at build time and when it hydrates in the page: the
 * same providers in the same order, so the markup (and every `useId`) is the same on both sides.
 */
export function ScreenRoot({
  shell,
  i18n,
  onHydrated,
  children,
}: {
  shell: ShellApi;
  i18n: I18nInstance;
  onHydrated?: () => void;
  children: ReactNode;
}) {
  // Once hydration has committed (not inside the commit: events dispatched there are not taken
  // as changes), and still before the hydrated screen is painted.
  useLayoutEffect(() => {
    if (onHydrated) queueMicrotask(onHydrated);
  }, [onHydrated]);
  return (
    <I18nextProvider i18n={i18n}>
      <ShellProvider shell={shell}>{children}</ShellProvider>
    </I18nextProvider>
  );
}
