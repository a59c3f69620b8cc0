import { createTestShell, renderWithShell } from '@special-gift/shared/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import en from '../../../public/assets/i18n/en.json';
import { RemoteErrorBoundary } from './remote-error-boundary';
import { RemoteLoadError } from '../../services/remotes/remote-load-error';
import { followReleasesOnMissingCode } from './live-build';

const resources = { en: { common: en } };

let consoleError: jest.SpyInstance;
beforeEach(() => {
  // React and the boundary both log caught errors; keep the output clean but check the boundary's log.
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

function Thrower({ error }: { error: unknown }): never {
  throw error;
}

/** Like RemoteRoute: retrying remounts the boundary with a new key. */
function RetryingBoundary({ children }: { children: (attempt: number) => ReactNode }) {
  const [attempt, setAttempt] = useState(0);
  return (
    <RemoteErrorBoundary key={attempt} remote="intro" onRetry={() => setAttempt((n) => n + 1)}>
      {children(attempt)}
    </RemoteErrorBoundary>
  );
}

describe('RemoteErrorBoundary', () => {
  it('renders its children while nothing fails', () => {
    renderWithShell(
      <RemoteErrorBoundary remote="intro" onRetry={jest.fn()}>
        <p>Intro screen</p>
      </RemoteErrorBoundary>,
      { resources },
    );
    expect(screen.getByText('Intro screen')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the render-error texts for a screen that throws, and logs it under the remote name', () => {
    const crash = new Error('Cannot read properties of undefined');
    renderWithShell(
      <RemoteErrorBoundary remote="signup" onRetry={jest.fn()}>
        <Thrower error={crash} />
      </RemoteErrorBoundary>,
      { resources },
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong on this screen' })).toBeInTheDocument();
    expect(alert).toHaveTextContent('Your details are safe. Try again, or go back to the home page.');
    expect(screen.getByRole('heading', { level: 1, name: 'Special Gift' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith('[remote:signup]', crash, expect.any(String));
  });

  it('re-renders the screen when Try again is pressed', async () => {
    let failing = true;
    function Flaky() {
      if (failing) throw new Error('first render fails');
      return <p>Recovered screen</p>;
    }
    renderWithShell(<RetryingBoundary>{() => <Flaky />}</RetryingBoundary>, { resources });
    expect(screen.getByRole('alert')).toBeInTheDocument();

    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Recovered screen')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each([
    ['unavailable', 'We couldn’t reach this part of the app. Check your connection and try again.'],
    ['timeout', 'This part of the app is taking too long to load. Check your connection and try again.'],
    ['incompatible', 'This part of the app is being updated. Please try again in a moment.'],
  ] as const)("shows the load-failure message for a RemoteLoadError '%s'", (reason, message) => {
    renderWithShell(
      <RemoteErrorBoundary remote="thankyou" onRetry={jest.fn()}>
        <Thrower error={new RemoteLoadError('thankyou', reason)} />
      </RemoteErrorBoundary>,
      { resources },
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'This screen couldn’t be loaded' })).toBeInTheDocument();
    expect(alert).toHaveTextContent(message);
  });

  it('offers the way home away from the home page, which starts a new stack at /', async () => {
    const shell = createTestShell({ location: '/sign-up' });
    const onRetry = jest.fn();
    renderWithShell(
      <RemoteErrorBoundary remote="signup" onRetry={onRetry}>
        <Thrower error={new RemoteLoadError('signup', 'unavailable')} />
      </RemoteErrorBoundary>,
      { shell, resources },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Go to the home page' }));
    expect(shell.navigation.root).toHaveBeenCalledWith('/');
    expect(onRetry).not.toHaveBeenCalled();
  });

  it('does not offer the way home on the home page itself', async () => {
    const onRetry = jest.fn();
    renderWithShell(
      <RemoteErrorBoundary remote="intro" onRetry={onRetry}>
        <Thrower error={new RemoteLoadError('intro', 'timeout')} />
      </RemoteErrorBoundary>,
      { shell: createTestShell({ location: '/' }), resources },
    );
    expect(screen.queryByRole('button', { name: 'Go to the home page' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it("keeps a screen's render error for field telemetry, but not a failed load (recorded where it failed)", () => {
    window.__sgSignals = [];
    renderWithShell(
      <RemoteErrorBoundary remote="intro" onRetry={jest.fn()}>
        <Thrower error={new TypeError('bad render')} />
      </RemoteErrorBoundary>,
      { resources },
    );
    renderWithShell(
      <RemoteErrorBoundary remote="signup" onRetry={jest.fn()}>
        <Thrower error={new RemoteLoadError('signup', 'unavailable')} />
      </RemoteErrorBoundary>,
      { resources },
    );
    const kept = window.__sgSignals as unknown as Array<Record<string, unknown>>;
    expect(kept.map(({ kind, remote }) => ({ kind, remote }))).toEqual([{ kind: 'render_error', remote: 'intro' }]);
    delete window.__sgSignals;
  });

  it('says the app is updating, not the connection, when the remote’s own build was replaced (an image roll)', async () => {
    const entry = 'http://localhost:3002/remoteEntry.js';
    followReleasesOnMissingCode('/api/v1', { signup: entry });
    // The remote origin's current build no longer lists the chunk that failed.
    const fetchMock = jest.fn().mockResolvedValue({
      ok: true,
      json: async () => ({ exposes: [{ assets: { js: { sync: ['__federation_expose_Screen.bbbbbbbb.js'] } } }] }),
    });
    Object.assign(globalThis, { fetch: fetchMock });
    const gone = Object.assign(new Error('Loading chunk 12 failed.'), {
      name: 'ChunkLoadError',
      request: 'http://localhost:3002/__federation_expose_Screen.aaaaaaaa.js',
    });
    renderWithShell(
      <RemoteErrorBoundary remote="signup" onRetry={jest.fn()}>
        <Thrower error={new RemoteLoadError('signup', 'unavailable', { cause: gone })} />
      </RemoteErrorBoundary>,
      { resources },
    );
    expect(await screen.findByText(en.remoteError.updating)).toBeInTheDocument();
    expect(screen.queryByText(en.remoteError.unavailable)).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('http://localhost:3002/mf-manifest.json', { cache: 'no-store' });
  });
});
