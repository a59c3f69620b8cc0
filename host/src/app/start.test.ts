import { TextDecoder, TextEncoder } from 'node:util';
import { screen } from '@testing-library/react';
import { start } from './start';

// React Router (in the shell's code start() loads) needs TextEncoder when it loads; lend jsdom Node's.
if (typeof globalThis.TextEncoder === 'undefined') Object.assign(globalThis, { TextEncoder, TextDecoder });

describe('start', () => {
  const originalFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = originalFetch;
    jest.restoreAllMocks();
  });

  it('a config request that fails on the network is handled at once, and shows the start-up failure', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const failedRequest = Promise.reject(new TypeError('Failed to fetch'));
    const handled = jest.spyOn(failedRequest, 'then');
    globalThis.fetch = jest.fn(() => failedRequest);
    const root = document.createElement('div');
    document.body.replaceChildren(root);

    start(root, { registerRemotes: () => undefined, loadRemote: async () => null });
    // The shell's code is evaluated in later tasks: without a handler now, the browser would
    // report the failure as an unhandled rejection meanwhile.
    expect(handled).toHaveBeenCalled();

    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Special Gift could not start');
    expect(error).toHaveBeenCalledWith(
      'Special Gift failed to start',
      expect.objectContaining({ message: expect.stringContaining('could not be fetched') }),
    );
  });
});
