import { createTestShell, renderWithShell } from '@special-gift/shared/testing';
import { VALID_TEST_CARD_CODES } from '@special-gift/shared/testing/cards';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import en from '../../public/assets/i18n/en.json';
import { SignUpScreen } from '../sign-up-screen';
import { createFakeCamera, type FakeCamera } from '../../test/support/fake-camera';

const resources = { en: { signup: en } };
const CODE = VALID_TEST_CARD_CODES[0];
const user = () => userEvent.setup({ delay: null });

/** The platform detector, as Chrome on Android has it, seeing `text` in every frame. */
function installBarcodeDetector(text: string) {
  class FakeBarcodeDetector {
    static getSupportedFormats = async () => ['qr_code', 'ean_13'];
    detect = async () => [{ rawValue: text }];
  }
  Object.assign(globalThis, { BarcodeDetector: FakeBarcodeDetector });
}

/** Puts the fake camera where the browser's is: navigator.mediaDevices, on a secure page. */
function installCamera(camera: FakeCamera, devices: MediaDeviceInfo['kind'][] = ['videoinput']) {
  const enumerateDevices = async () => devices.map((kind) => ({ kind }));
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: camera.getUserMedia, enumerateDevices },
  });
  Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
}

const vibrate = jest.fn(() => true);

beforeEach(() => {
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'readyState', 'get').mockReturnValue(HTMLMediaElement.HAVE_ENOUGH_DATA);
  Object.defineProperty(navigator, 'vibrate', { configurable: true, value: vibrate });
  vibrate.mockClear();
});
afterEach(() => {
  jest.restoreAllMocks();
  for (const [target, key] of [
    [navigator, 'mediaDevices'],
    [navigator, 'vibrate'],
    [window, 'isSecureContext'],
    [globalThis, 'BarcodeDetector'],
  ] as const) {
    delete (target as unknown as Record<string, unknown>)[key];
  }
});

async function renderSignUp() {
  const shell = createTestShell({ location: '/sign-up' });
  const view = renderWithShell(<SignUpScreen />, { shell, resources });
  await waitFor(() => expect(view.container.querySelector('form')).not.toHaveAttribute('aria-busy'));
  return view;
}

const scanButton = () => screen.getByRole('button', { name: en.scanner.open });
const cardField = () => screen.getByLabelText(en.fields.cardCode);

describe('Scan card on the sign-up form', () => {
  it('fills and validates the card field, moves focus on, announces it, vibrates and releases the camera', async () => {
    const camera = createFakeCamera();
    installCamera(camera);
    installBarcodeDetector(`https://www.special-gift.example/scan/sign-up?card=${CODE}`);
    await renderSignUp();
    await user().type(screen.getByLabelText(en.fields.firstName), 'Ada');

    await user().click(scanButton());
    await screen.findByRole('dialog', { name: en.scanner.title });
    await waitFor(() => expect(cardField()).toHaveValue('4111 1111 1111 1111'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(cardField()).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText(en.fields.firstName)).toHaveValue('Ada');
    await waitFor(() => expect(screen.getByRole('checkbox')).toHaveFocus());
    expect(await screen.findByText(en.scanner.filled.replace('{{last4}}', '1111'))).toBeInTheDocument();
    expect(vibrate).toHaveBeenCalledTimes(1);
    expect(camera.streams).toHaveLength(1);
    expect(camera.liveTracks()).toBe(0);
  });

  it('on permission denied: explains how to type the code, focuses the card field, keeps what was typed', async () => {
    const camera = createFakeCamera();
    camera.getUserMedia.mockRejectedValue(Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' }));
    installCamera(camera);
    installBarcodeDetector(CODE);
    await renderSignUp();
    await user().type(cardField(), '4111 1111');

    await user().click(scanButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(en.scanner.camera.denied);
    await waitFor(() => expect(cardField()).toHaveFocus());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(cardField()).toHaveValue('4111 1111');
    expect(scanButton()).toHaveAccessibleDescription(en.scanner.camera.denied);
  });

  it('Escape closes the scanner, gives focus back to the button and releases the camera', async () => {
    const camera = createFakeCamera();
    installCamera(camera);
    installBarcodeDetector('not a card');
    await renderSignUp();
    await user().click(scanButton());
    const dialog = await screen.findByRole('dialog', { name: en.scanner.title });
    await waitFor(() => expect(camera.liveTracks()).toBe(1));
    // What the browser fires on Escape (jsdom does not map the key; the e2e suite presses the real one).
    act(() => {
      dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(scanButton()).toHaveFocus();
    expect(camera.liveTracks()).toBe(0);
    expect(cardField()).toHaveValue('');
  });

  it('leaving the screen closes the scanner and releases the camera', async () => {
    const camera = createFakeCamera();
    installCamera(camera);
    installBarcodeDetector('not a card');
    const view = await renderSignUp();
    await user().click(scanButton());
    await screen.findByRole('dialog', { name: en.scanner.title });
    await waitFor(() => expect(camera.liveTracks()).toBe(1));
    view.rerender(<p>Another screen</p>);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(camera.liveTracks()).toBe(0);
  });

  it('is offered only where the device has a camera', async () => {
    installCamera(createFakeCamera(), ['audioinput', 'audiooutput']);
    await renderSignUp();
    await waitFor(() => expect(screen.queryByRole('button', { name: en.scanner.open })).not.toBeInTheDocument());
  });
});
