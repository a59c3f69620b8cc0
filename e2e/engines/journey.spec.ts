import introAr from '../../remote-intro/public/assets/i18n/ar.json';
import introEn from '../../remote-intro/public/assets/i18n/en.json';
import introFr from '../../remote-intro/public/assets/i18n/fr.json';
import signupAr from '../../remote-signup/public/assets/i18n/ar.json';
import signupFr from '../../remote-signup/public/assets/i18n/fr.json';
import thankyouAr from '../../remote-thankyou/public/assets/i18n/ar.json';
import thankyouFr from '../../remote-thankyou/public/assets/i18n/fr.json';
import { expect, test } from '../support/engines/fixtures';
import {
  fillSignUp,
  clickText,
  fieldValue,
  pathname,
  until,
  untilPreloaded,
  untilText,
  untilTitle,
  chooseLanguage,
  untilStill,
} from '../support/engines/page';
import { withRemoteFront } from '../support/remote-front';
import { person, type Person } from '../support/sign-up';
import { API_URL } from '../support/topology';

/** Fills the sign-up form through its inputs by their ids (labels differ per language). */
/** The API holds this card's sign-up: a second one for the same card is refused as a duplicate. */
async function storedByApi(who: Person): Promise<number> {
  const xsrf = 'e2e-engines-token';
  const again = await fetch(`${API_URL}/v1/sign-ups`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'Idempotency-Key': `e2e-engines-${Date.now()}-${Math.random()}`,
      'X-XSRF-TOKEN': xsrf,
      Cookie: `XSRF-TOKEN=${xsrf}`,
    },
    body: JSON.stringify({ ...who, acceptedTerms: true }),
  });
  return again.status;
}

/** React has taken the element over (its fiber is attached): hydrated, in every engine alike. */
const hydrated = (selector: string) =>
  Object.keys(document.querySelector(selector) ?? {}).some((key) => key.startsWith('__react'));

test('the first screen is the composed HTML; what is typed before it hydrates is kept', async ({ driver }) => {
  // The screen's code arrives 3 s late, as on a slow phone network; the page itself is on time.
  await withRemoteFront(
    'signup',
    (req, _res, forward) => {
      if (/__federation_expose_Screen\.[^/]*\.js$/.test(req.url ?? '')) setTimeout(forward, 3_000);
      else forward();
    },
    async () => {
      await driver.goto('/sign-up');
      expect(
        await driver.evaluate(() => document.querySelector('[data-sg-screen="signup"] #signup-firstName') !== null),
        'the form came in the page',
      ).toBe(true);
      await driver.type('#signup-firstName', 'Ada Augusta');
      await driver.type('#signup-lastName', 'Lovelace');
      expect(await driver.evaluate(hydrated, '#signup-firstName'), 'typed before hydration').toBe(false);
      await until(driver, 'hydrated', hydrated, '#signup-firstName', 20_000);
      expect(await fieldValue(driver, '#signup-firstName')).toBe('Ada Augusta');
      expect(await fieldValue(driver, '#signup-lastName')).toBe('Lovelace');
      // The form's state has them: an empty submit stops at the first empty field after them.
      await driver.click('form button[type=submit]');
      await until(driver, 'email focused', () => document.activeElement?.id === 'signup-email');
    },
  );
});

test('the journey reaches the thank-you screen, the API stores the sign-up; Back and defaultHref', async ({
  driver,
}) => {
  const who = person({ firstName: 'Élodie' });
  await driver.goto('/');
  await untilPreloaded(driver);
  await clickText(driver, 'button', introEn.getStarted);
  await untilTitle(driver, 'Sign up');
  await fillSignUp(driver, who);
  await driver.click('form button[type=submit]');
  await untilText(driver, '.thankyou__headline', 'Thank you, Élodie!');
  expect(await pathname(driver)).toBe('/thank-you');
  expect(await storedByApi(who), 'a second sign-up for the card').toBe(409);

  // Root navigation: Back cannot return into the finished sign-up.
  await driver.back();
  await untilTitle(driver, introEn.brand);
  expect(await pathname(driver), 'Back from the thank-you screen lands on the intro').toBe('/');

  // A deep link has nothing in-app behind it: the back button goes to its defaultHref ("/").
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await driver.click('.sg-back-button');
  await untilTitle(driver, introEn.brand);
  expect(await pathname(driver)).toBe('/');
});

const LANGUAGES = [
  { code: 'fr', name: 'Français', dir: 'ltr', intro: introFr, signup: signupFr, thankyou: thankyouFr },
  { code: 'ar', name: 'العربية', dir: 'rtl', intro: introAr, signup: signupAr, thankyou: thankyouAr },
] as const;

for (const language of LANGUAGES) {
  test(`the journey in ${language.code} (${language.dir}), kept after a reload`, async ({ driver }) => {
    await chooseLanguage(driver, language);
    await untilText(driver, '#intro-headline', language.intro.headline);
    await clickText(driver, 'button', language.intro.getStarted);
    await untilTitle(driver, language.signup.title);
    // Mirrored: the back button sits at the inline start, the right edge in RTL.
    await untilStill(driver);
    const backOnTheRight = await driver.evaluate(() => {
      const box = document.querySelector('.sg-back-button')?.getBoundingClientRect();
      return box ? box.left > innerWidth / 2 : null;
    });
    expect(backOnTheRight).toBe(language.dir === 'rtl');
    await fillSignUp(driver, person({ firstName: 'Nour' }));
    await driver.click('form button[type=submit]');
    await untilTitle(driver, language.thankyou.title);
    await untilText(driver, '.thankyou__headline', language.thankyou.headlineNamed.replace('{{name}}', 'Nour'));

    await driver.reload();
    await until(driver, 'language kept', (code) => document.documentElement.lang === code, language.code);
    await untilTitle(driver, language.thankyou.title);
  });
}

test('the draft is read back from storage after a reload, with a toast', async ({ driver }) => {
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  await driver.type('#signup-firstName', 'Hana');
  await driver.type('#signup-email', 'hana@example.com');
  await new Promise((resolve) => setTimeout(resolve, 800)); // the draft is saved 300 ms after typing stops
  await driver.reload();
  await until(
    driver,
    'draft restored',
    () => document.querySelector<HTMLInputElement>('#signup-firstName')?.value === 'Hana',
  );
  expect(await fieldValue(driver, '#signup-email')).toBe('hana@example.com');
  await untilText(driver, '.sg-toast__message', 'We restored what you entered earlier.');
});
