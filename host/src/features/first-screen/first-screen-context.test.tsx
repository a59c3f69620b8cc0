import type { ShellApi } from '@special-gift/shared';
import { SCREEN_ATTRIBUTE, SCREEN_LANGUAGE_ATTRIBUTE } from '@special-gift/shared/composition';
import { act, render } from '@testing-library/react';
import i18next from 'i18next';
import { useLayoutEffect } from 'react';
import { adoptFirstScreen, type FirstScreen } from './first-screen';
import { FirstScreenProvider, useFirstScreenShown } from './first-screen-context';

function adoptedScreen(): FirstScreen {
  const root = document.createElement('div');
  root.innerHTML = `<div class="sg-shell-page"><div ${SCREEN_ATTRIBUTE}="intro" ${SCREEN_LANGUAGE_ATTRIBUTE}="en"></div></div>`;
  document.body.replaceChildren(root);
  return adoptFirstScreen(root, 'intro', 'en', { shell: {} as ShellApi, i18n: i18next });
}

/** The shell's frame (records what each of its renders saw) and, on the first page, the first screen's route. */
function Page({ firstScreen, pageKey, seen }: { firstScreen: FirstScreen; pageKey: string; seen: boolean[] }) {
  return (
    <FirstScreenProvider firstScreen={firstScreen}>
      <Frame pageKey={pageKey} seen={seen} />
      {pageKey === 'first' ? <FirstScreenRoute firstScreen={firstScreen} /> : null}
    </FirstScreenProvider>
  );
}
function Frame({ pageKey, seen }: { pageKey: string; seen: boolean[] }) {
  seen.push(useFirstScreenShown(pageKey));
  return null;
}
function FirstScreenRoute({ firstScreen }: { firstScreen: FirstScreen }) {
  useLayoutEffect(() => () => firstScreen.release({ leavingPage: true }), [firstScreen]);
  return null;
}

describe('useFirstScreenShown', () => {
  it('leaving the first page renders the shell once: the release in that commit changes nothing it shows', () => {
    const firstScreen = adoptedScreen();
    const seen: boolean[] = [];
    const { rerender } = render(<Page firstScreen={firstScreen} pageKey="first" seen={seen} />);
    expect(seen).toEqual([true]);

    rerender(<Page firstScreen={firstScreen} pageKey="next" seen={seen} />);
    expect(firstScreen.isShown()).toBe(false); // released by the route's unmount
    expect(seen).toEqual([true, false]); // one render for the navigation, none for the release
  });

  it('a release on the first page (its code failed) shows the frame again', () => {
    const firstScreen = adoptedScreen();
    const seen: boolean[] = [];
    render(<Page firstScreen={firstScreen} pageKey="first" seen={seen} />);
    act(() => firstScreen.release());
    expect(seen.at(-1)).toBe(false);
  });
});
