import { createTestShell, renderWithShell } from '@special-gift/shared/testing';
import { VALID_TEST_CARD_CODES } from '@special-gift/shared/testing/cards';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import en from '../../public/assets/i18n/en.json';
import { CardScanner, type CardScanOutcome } from './card-scanner';
import { createFakeCamera } from '../../test/support/fake-camera';
import type { QrDetector } from './qr-detector';

const resources = { en: { signup: en } };
const CODE = VALID_TEST_CARD_CODES[0];

/** A detector that "sees" the given texts, one per frame, then nothing. */
function detectorSeeing(...texts: string[]) {
  const seen = [...texts];
  const detect = jest.fn(async () => seen.shift());
  const detector: QrDetector = { kind: 'native', detect };
  return { detect, create: async () => detector };
}

/** The scanner's own live region (the shell's toast region is a status too). */
const scanStatus = () =>
  screen.getAllByRole('status').find((element) => element.classList.contains('card-scanner__status'));

beforeEach(() => {
  // jsdom plays no media: a video element with the camera attached has a current frame.
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(HTMLMediaElement.HAVE_ENOUGH_DATA);
});
afterEach(() => jest.restoreAllMocks());

function renderScanner(camera = createFakeCamera(), detector = detectorSeeing()) {
  const onDone = jest.fn<void, [CardScanOutcome]>();
  const onCancel = jest.fn();
  const view = renderWithShell(
    <CardScanner
      onDone={onDone}
      onCancel={onCancel}
      environment={camera.environment}
      createDetector={detector.create}
    />,
    {
      shell: createTestShell(),
      resources,
    },
  );
  return { ...view, onDone, onCancel, camera, detector };
}

describe('CardScanner', () => {
  it('shows the live camera with an instruction, an announced status and Cancel', async () => {
    const { camera, onCancel } = renderScanner();
    expect(screen.getByText(en.scanner.instruction)).toBeInTheDocument();
    await waitFor(() => expect(scanStatus()).toHaveTextContent(en.scanner.looking));
    expect(document.querySelector('video')).toHaveProperty('srcObject', camera.streams[0]);
    expect(screen.queryByRole('button', { name: en.scanner.torch })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: en.scanner.cancel }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('keeps scanning past a foreign link, saying why, and reports the card code it then reads', async () => {
    const detector = detectorSeeing(
      'https://evil.example/scan/' + CODE,
      `https://www.special-gift.example/scan/${CODE}`,
    );
    const { onDone } = renderScanner(createFakeCamera(), detector);
    await waitFor(() => expect(scanStatus()).toHaveTextContent(en.scanner.problems.foreign_link));
    expect(onDone).not.toHaveBeenCalled();
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ kind: 'scanned', code: CODE }));
    expect(onDone).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['4111111111111112', en.scanner.problems.card_checksum],
    ['WIFI:S:home;;', en.scanner.problems.unrecognized],
    ['https://www.special-gift.example/scan/', en.scanner.problems.no_card_code],
  ])('says why %j is not a card code', async (text, message) => {
    renderScanner(createFakeCamera(), detectorSeeing(text));
    await waitFor(() => expect(scanStatus()).toHaveTextContent(message));
  });

  it('releases the camera when it closes', async () => {
    const { camera, unmount } = renderScanner();
    await waitFor(() => expect(camera.liveTracks()).toBe(1));
    unmount();
    expect(camera.liveTracks()).toBe(0);
  });

  it('reports a camera it cannot use', async () => {
    const camera = createFakeCamera();
    camera.getUserMedia.mockRejectedValueOnce(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    const { onDone } = renderScanner(camera);
    await waitFor(() => expect(onDone).toHaveBeenCalledWith({ kind: 'camera_problem', problem: 'denied' }));
  });

  it('offers the torch where the camera has one, as a toggle', async () => {
    const camera = createFakeCamera({ capabilities: { torch: true } });
    renderScanner(camera);
    const torch = await screen.findByRole('button', { name: en.scanner.torch });
    expect(torch).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(torch);
    await waitFor(() => expect(torch).toHaveAttribute('aria-pressed', 'true'));
    expect(camera.streams[0]?.track.constraints).toEqual([{ advanced: [{ torch: true }] }]);
    await act(async () => userEvent.click(torch));
    await waitFor(() => expect(torch).toHaveAttribute('aria-pressed', 'false'));
  });
});

describe('CardScanner without its decoder', () => {
  beforeEach(() => {
    jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it.each([
    [
      'a decoder whose code is missing',
      Object.assign(new Error('Loading chunk 3 failed.'), { name: 'ChunkLoadError' }),
      expect.objectContaining({ kind: 'not_loaded' }),
    ],
    ['a decoder that fails otherwise', new Error('no 2D canvas'), { kind: 'camera_problem', problem: 'failed' }],
  ])('reports %s (so the user is told to type the code) and releases the camera', async (_case, error, outcome) => {
    const camera = createFakeCamera();
    const onDone = jest.fn<void, [CardScanOutcome]>();
    const { unmount } = renderWithShell(
      <CardScanner
        onDone={onDone}
        onCancel={jest.fn()}
        environment={camera.environment}
        createDetector={() => Promise.reject(error)}
      />,
      { shell: createTestShell(), resources },
    );
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(outcome));
    unmount();
    expect(camera.liveTracks()).toBe(0);
  });
});
