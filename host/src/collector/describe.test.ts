import {
  buildsOf,
  deviceOf,
  errorNameOf,
  loadFailureOf,
  remoteOfElement,
  remoteOfScript,
  routeOf,
  scriptOf,
  targetOf,
} from './describe';

const ENTRIES = {
  intro: 'http://localhost:3001/remoteEntry.js',
  signup: 'http://localhost:3002/builds/0123456789ab/remoteEntry.js',
  thankyou: 'http://localhost:3003/remoteEntry.js',
};
const cause = (fields: Record<string, unknown>) => ({ reason: 'unavailable', cause: fields });

describe('the collector words what the host noticed', () => {
  it('names a route, or other; each build, or image', () => {
    expect(routeOf('/sign-up/')).toBe('/sign-up');
    expect(routeOf('/')).toBe('/');
    expect(routeOf('/sign-up/123?x=1')).toBe('other');
    expect(buildsOf(ENTRIES)).toEqual({ intro: 'image', signup: '0123456789ab', thankyou: 'image' });
  });

  it('tells the phase and the kind of a failed load', () => {
    const loaded = { entryLoaded: true };
    expect(loadFailureOf(null, { lazy: true, entryLoaded: true })).toEqual({ phase: 'lazy_chunk', kind: 'network' });
    expect(loadFailureOf({ reason: 'incompatible' }, loaded)).toEqual({ phase: 'container', kind: 'incompatible' });
    expect(loadFailureOf({ reason: 'timeout' }, { entryLoaded: false })).toEqual({ phase: 'entry', kind: 'timeout' });
    expect(loadFailureOf({ reason: 'timeout' }, loaded)).toEqual({ phase: 'screen', kind: 'timeout' });
    // A file the browser refused although it was there: integrity, in the phase of the refused file.
    const refusedChunk = { name: 'ChunkLoadError', type: 'error' };
    expect(
      loadFailureOf(
        { reason: 'unavailable', integrity: true, cause: { reason: 'unavailable', cause: refusedChunk } },
        loaded,
      ),
    ).toEqual({ phase: 'screen', kind: 'integrity' });
    expect(
      loadFailureOf(
        { reason: 'unavailable', integrity: true, cause: { reason: 'unavailable', cause: { message: 'RUNTIME-008' } } },
        loaded,
      ),
    ).toEqual({ phase: 'entry', kind: 'integrity' });
    expect(loadFailureOf(cause({ name: 'TextsLoadError', message: 'Texts x: HTTP 404' }), loaded)).toEqual({
      phase: 'texts',
      kind: 'http',
    });
    expect(
      loadFailureOf(cause({ name: 'TextsLoadError', message: 'Texts x: network error or timeout' }), loaded),
    ).toEqual({ phase: 'texts', kind: 'network' });
    expect(loadFailureOf(cause({ name: 'ChunkLoadError', type: 'error' }), loaded)).toEqual({
      phase: 'screen',
      kind: 'network',
    });
    expect(loadFailureOf(cause({ name: 'ChunkLoadError', type: 'missing' }), loaded)).toEqual({
      phase: 'screen',
      kind: 'script',
    });
    expect(loadFailureOf(cause({ code: 'CSS_CHUNK_LOAD_FAILED' }), loaded)).toEqual({
      phase: 'screen',
      kind: 'network',
    });
    expect(loadFailureOf(cause({ message: 'Failed to load script resources. #RUNTIME-008' }), loaded)).toEqual({
      phase: 'entry',
      kind: 'network',
    });
    expect(loadFailureOf({ reason: 'unavailable' }, loaded)).toEqual({ phase: 'container', kind: 'script' });
  });

  it("attributes a script to the remote whose files it is among, whichever build; the host's to none", () => {
    expect(remoteOfScript('http://localhost:3002/builds/0123456789ab/card-scanner.1234abcd.js', ENTRIES)).toBe(
      'signup',
    );
    expect(remoteOfScript('http://localhost:3001/__federation_expose_Screen.1234abcd.js', ENTRIES)).toBe('intro');
    expect(remoteOfScript('http://localhost/main.1234abcd.js', ENTRIES)).toBeNull();
    expect(remoteOfScript(undefined, ENTRIES)).toBeNull();
    const error = new Error('boom');
    error.stack =
      'Error: boom\n    at f (http://localhost:3003/__federation_expose_Screen.1234abcd.js:1:200)\n    at g (x)';
    expect(scriptOf(error, undefined)).toBe('http://localhost:3003/__federation_expose_Screen.1234abcd.js');
    expect(scriptOf(error, 'http://localhost:3001/a.js')).toBe('http://localhost:3001/a.js');
  });

  it('keeps only plain error names, never a message', () => {
    expect(errorNameOf(new TypeError('card 4111 1111'))).toBe('TypeError');
    const odd = new Error('x');
    odd.name = 'amira@example.com';
    expect(errorNameOf(odd)).toBe('Error');
    expect(errorNameOf('a string rejection')).toBe('NonError');
  });

  it('describes an element by tag and classes, and finds its screen', () => {
    document.body.innerHTML =
      '<div class="sg-shell-page"><div data-sg-screen="signup"><form class="signup__form" id="x"><button class="sg-button" name="secret">Go</button></form></div></div><p id="alone">x</p>';
    const button = document.querySelector('button');
    expect(targetOf(button)).toBe('div>form.signup__form>button.sg-button');
    expect(remoteOfElement(button, '/sign-up')).toBe('signup');
    expect(remoteOfElement(document.getElementById('alone'), '/sign-up')).toBeNull();
    document.body.innerHTML = '<div class="sg-shell-page"><main><h1>Thanks</h1></main></div>';
    expect(remoteOfElement(document.querySelector('h1'), '/thank-you')).toBe('thankyou');
  });

  it('has three coarse device classes', () => {
    expect(deviceOf(390, true)).toBe('phone');
    expect(deviceOf(820, true)).toBe('tablet');
    expect(deviceOf(1080, false)).toBe('desktop');
  });
});
