import { CONTRACT_VERSION, type RemoteScreenModule } from '@special-gift/shared';
import { createTestShell, renderWithShell, type TestShell } from '@special-gift/shared/testing';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import en from '../../../public/assets/i18n/en.json';
import { HostServicesProvider } from '../../shell/host-services';
import type { RemoteName } from '../../config/runtime-config';
import { RemoteRoute } from './remote-route';
import { createRemoteScreens, SLOW_NOTICE_MS, type RemoteScreens } from '../../services/remotes/remote-screens';

const entries = {
  intro: '/intro/remoteEntry.js',
  signup: '/signup/remoteEntry.js',
  thankyou: '/thankyou/remoteEntry.js',
};

const screenModule = (text: string): RemoteScreenModule => ({
  default: () => <p>{text}</p>,
  meta: { contractVersion: CONTRACT_VERSION, namespace: 'intro' },
});

function setup() {
  const loadRemote = jest.fn<Promise<unknown>, [id: string]>();
  const remoteScreens = createRemoteScreens({
    runtime: { registerRemotes: jest.fn(), loadRemote: <T,>(id: string) => loadRemote(id) as Promise<T | null> },
    entries,
    loadTexts: async () => undefined,
    retryDelayMs: 0,
  });
  const onFirstScreenRendered = jest.fn();
  const shell = createTestShell();
  return { loadRemote, remoteScreens, onFirstScreenRendered, shell };
}

async function renderRoute(
  {
    remoteScreens,
    onFirstScreenRendered,
    shell,
  }: { remoteScreens: RemoteScreens; onFirstScreenRendered: () => void; shell: TestShell },
  name: RemoteName = 'intro',
  remoteTexts: Record<string, Record<string, string>> = {},
) {
  const services = {
    remoteScreens,
    onFirstScreenRendered,
    overlays: shell.overlays,
    swipeBackEnabled: false,
    navigation: { ...shell.navigation, direction: () => 'root' as const, skipNextTransition: jest.fn() },
  };
  // Rendered inside an async act so the suspended route can resume when its module arrives.
  await act(async () => {
    renderWithShell(
      <HostServicesProvider services={services}>
        <RemoteRoute name={name} />
      </HostServicesProvider>,
      { shell, resources: { en: { common: en, ...remoteTexts } }, defaultNS: 'common' },
    );
  });
}

let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('RemoteRoute', () => {
  it('shows a busy loading status until the screen has loaded, then the screen', async () => {
    const context = setup();
    let deliver: (module: RemoteScreenModule) => void = () => undefined;
    context.loadRemote.mockReturnValueOnce(new Promise((resolve) => (deliver = resolve)));
    await renderRoute(context);

    const loading = screen.getByRole('status', { busy: true });
    expect(loading).toHaveTextContent('Loading…');
    expect(context.onFirstScreenRendered).not.toHaveBeenCalled();

    await act(async () => deliver(screenModule('Intro screen')));
    expect(await screen.findByText('Intro screen')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(context.onFirstScreenRendered).toHaveBeenCalled();
    expect(context.loadRemote).toHaveBeenCalledWith('intro/Screen');
  });

  it("sets the document title from the title in the remote's own texts and the app name", async () => {
    const context = setup();
    context.loadRemote.mockResolvedValueOnce(screenModule('Sign-up screen'));
    await renderRoute(context, 'signup', { signup: { documentTitle: 'Sign up' } });
    expect(document.title).toBe('Sign up · Special Gift');
  });

  it("is titled with the app name alone while the remote's texts are not in", async () => {
    const context = setup();
    context.loadRemote.mockReturnValueOnce(new Promise(() => undefined));
    await renderRoute(context, 'signup');
    expect(document.title).toBe('Special Gift');
  });

  it('renders a preloaded screen at once, without a loading state', async () => {
    const context = setup();
    context.loadRemote.mockResolvedValueOnce(screenModule('Preloaded screen'));
    await context.remoteScreens.load('intro');

    const services = {
      remoteScreens: context.remoteScreens,
      onFirstScreenRendered: context.onFirstScreenRendered,
      overlays: context.shell.overlays,
      swipeBackEnabled: false,
      navigation: { ...context.shell.navigation, direction: () => 'root' as const, skipNextTransition: jest.fn() },
    };
    // A synchronous render: nothing may suspend.
    renderWithShell(
      <HostServicesProvider services={services}>
        <RemoteRoute name="intro" />
      </HostServicesProvider>,
      { shell: context.shell, resources: { en: { common: en } }, defaultNS: 'common' },
    );
    expect(screen.getByText('Preloaded screen')).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(context.loadRemote).toHaveBeenCalledTimes(1);
  });

  it('shows the load-failure screen once (no retry loop) when the remote cannot be reached, and Try again loads it again', async () => {
    const context = setup();
    context.loadRemote.mockRejectedValue(new Error('ScriptExternalLoadError'));
    await renderRoute(context);

    expect(await screen.findByRole('alert')).toHaveTextContent('This screen couldn’t be loaded');
    expect(screen.getByRole('alert')).toHaveTextContent('We couldn’t reach this part of the app.');
    expect(context.loadRemote).toHaveBeenCalledTimes(2); // the attempt and its one automatic retry

    context.loadRemote.mockResolvedValue(screenModule('Back online'));
    // In act, so the suspended retry resumes when its module arrives (as a browser would).
    await act(async () => {
      await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    });
    expect(await screen.findByText('Back online')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it(`says a slow load is taking longer after ${SLOW_NOTICE_MS} ms, keeps waiting, and Try again starts a fresh attempt`, async () => {
    jest.useFakeTimers();
    try {
      const context = setup();
      context.loadRemote.mockReturnValueOnce(new Promise(() => undefined)); // never answers
      await renderRoute(context);
      expect(screen.getByRole('status', { busy: true })).toHaveTextContent('Loading…');
      expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();

      await act(async () => {
        await jest.advanceTimersByTimeAsync(SLOW_NOTICE_MS);
      });
      expect(screen.getByRole('status', { busy: true })).toHaveTextContent('This is taking longer than usual.');
      expect(screen.getByRole('button', { name: 'Try again' })).toBeVisible();

      context.loadRemote.mockResolvedValueOnce(screenModule('Fresh attempt'));
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
        await jest.advanceTimersByTimeAsync(0);
      });
      expect(context.loadRemote).toHaveBeenCalledTimes(2);
      expect(screen.getByText('Fresh attempt')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });
});
