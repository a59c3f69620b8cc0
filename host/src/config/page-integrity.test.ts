import { pageIntegrity, REFUSE_INTEGRITY } from './page-integrity';

const ENTRY_SRI = `sha384-${'E'.repeat(64)}`;
const TEXTS_SRI = `sha384-${'T'.repeat(64)}`;

function page(builds: string, integrity: string): Element {
  const root = document.createElement('html');
  root.setAttribute('data-sg-builds', builds);
  root.setAttribute('data-sg-integrity', integrity);
  return root;
}

describe("the page's integrity lookup", () => {
  const entries = {
    signup: 'https://signup.test/builds/0123456789ab/remoteEntry.js',
    intro: 'https://intro.test/remoteEntry.js',
  };
  const lookup = pageIntegrity(
    entries,
    page(
      'signup=0123456789ab',
      `signup/remoteEntry.js=${ENTRY_SRI},signup/assets/i18n/fr.json=${TEXTS_SRI},signup/x.js=sha256-short`,
    ),
    'https://host.test/sign-up',
  );

  it("gives a released build's entry and texts the hashes the page carries, a retry's query aside", () => {
    expect(lookup(entries.signup)).toBe(ENTRY_SRI);
    expect(lookup(`${entries.signup}?attempt=2`)).toBe(ENTRY_SRI);
    expect(lookup('https://signup.test/builds/0123456789ab/assets/i18n/fr.json')).toBe(TEXTS_SRI);
  });

  it('refuses a file of a released build it has no (valid) hash for: fail closed', () => {
    expect(lookup('https://signup.test/builds/0123456789ab/assets/i18n/ar.json')).toBe(REFUSE_INTEGRITY);
    expect(lookup('https://signup.test/builds/0123456789ab/x.js')).toBe(REFUSE_INTEGRITY);
  });

  it('has nothing for what no released build holds: the image build, another build, the host', () => {
    expect(lookup(entries.intro)).toBeUndefined();
    expect(lookup('https://signup.test/builds/ba9876543210/remoteEntry.js')).toBeUndefined();
    expect(lookup('/assets/i18n/fr.json')).toBeUndefined();
  });
});

describe("the page's integrity lookup with requireIntegrity (the runtime config's)", () => {
  const entries = {
    signup: 'https://signup.test/builds/0123456789ab/remoteEntry.js',
    intro: 'https://intro.test/remoteEntry.js',
  };
  const lookup = pageIntegrity(
    entries,
    page('signup=0123456789ab', `signup/remoteEntry.js=${ENTRY_SRI}`),
    'https://host.test/sign-up',
    { requireIntegrity: true },
  );

  it("refuses an unreleased remote's entry and texts: no recorded hash, no load", () => {
    expect(lookup(entries.intro)).toBe(REFUSE_INTEGRITY);
    expect(lookup(`${entries.intro}?attempt=2`)).toBe(REFUSE_INTEGRITY);
    expect(lookup('https://intro.test/assets/i18n/ar.json')).toBe(REFUSE_INTEGRITY);
  });

  it('still checks a released build against its hashes, and leaves the host its own files', () => {
    expect(lookup(entries.signup)).toBe(ENTRY_SRI);
    expect(lookup('/assets/i18n/fr.json')).toBeUndefined();
  });
});
