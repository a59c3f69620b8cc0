import type { ShellApi } from '@special-gift/shared';
import { SCREEN_ATTRIBUTE, SCREEN_LANGUAGE_ATTRIBUTE } from '@special-gift/shared/composition';
import { act } from '@testing-library/react';
import i18next from 'i18next';
import { adoptFirstScreen } from './first-screen';
import { holdInputUntilTheApp } from './hand-off';

const context = { shell: {} as ShellApi, i18n: i18next }; // not used before hydration

/** A composed page as the server sends it: the shell's page frame around the remote's screen. */
function composedPage(remote = 'signup', language = 'fr') {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = `<div class="sg-shell-page"><div ${SCREEN_ATTRIBUTE}="${remote}" ${SCREEN_LANGUAGE_ATTRIBUTE}="${language}"><button type="button">Go</button></div></div>`;
  document.body.replaceChildren(root);
  return {
    root,
    frame: root.firstElementChild as HTMLElement,
    button: root.querySelector('button') as HTMLButtonElement,
  };
}

describe('adoptFirstScreen', () => {
  it("adopts the route's screen in the app's language, with the page loader's held input", () => {
    const { root, button } = composedPage();
    holdInputUntilTheApp(document);
    const clicked = jest.fn();
    root.addEventListener('click', clicked);
    button.click(); // held by the page loader's capture: no handler below it sees it
    expect(clicked).not.toHaveBeenCalled();

    const firstScreen = adoptFirstScreen(root, 'signup', 'fr', context);
    expect(firstScreen.isShown()).toBe(true);
    const screen = firstScreen.claim('signup');
    expect(screen?.element.getAttribute(SCREEN_ATTRIBUTE)).toBe('signup');
    expect(firstScreen.claim('intro')).toBeUndefined();

    screen?.userInput.replay();
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['another route', 'intro', 'fr'],
    ['another language (a stored choice the cookie did not carry yet)', 'signup', 'ar'],
  ] as const)('leaves a screen for %s to React, and stops holding its taps', (_case, remote, language) => {
    const { root, button } = composedPage();
    holdInputUntilTheApp(document);
    const firstScreen = adoptFirstScreen(root, remote, language, context);
    expect(firstScreen.isShown()).toBe(false);
    expect(firstScreen.claim(remote)).toBeUndefined();

    const clicked = jest.fn();
    root.addEventListener('click', clicked);
    button.click();
    expect(clicked).toHaveBeenCalledTimes(1);
  });

  it('release removes the server screen with its frame, once, and tells the shell', () => {
    const { root, frame } = composedPage();
    const firstScreen = adoptFirstScreen(root, 'signup', 'fr', context);
    const listener = jest.fn();
    firstScreen.subscribe(listener);

    firstScreen.release();
    firstScreen.release();
    expect(frame.isConnected).toBe(false);
    expect(firstScreen.isShown()).toBe(false);
    expect(firstScreen.claim('signup')).toBeUndefined();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("mounts the shell beside an adopted screen, leaving the server's nodes where they are", async () => {
    const { root, frame } = composedPage();
    const firstScreen = adoptFirstScreen(root, 'signup', 'fr', context);
    await act(async () => {
      firstScreen.mountShell(root, <p>shell</p>);
    });
    expect(root.firstElementChild).toBe(frame);
    expect(root.querySelector('.sg-app-root')).toHaveTextContent('shell');
  });

  it('mounts the shell in the root itself when nothing was adopted', async () => {
    const { root } = composedPage('intro');
    const firstScreen = adoptFirstScreen(root, 'signup', 'fr', context);
    await act(async () => {
      firstScreen.mountShell(root, <p>shell</p>);
    });
    expect(root.innerHTML).toBe('<p>shell</p>');
  });
});
