import introEn from '../../remote-intro/public/assets/i18n/en.json';
import signupEn from '../../remote-signup/public/assets/i18n/en.json';
import { cameraFails, cameraShowsQr } from '../support/engines/camera';
import { expect, test } from '../support/engines/fixtures';
import type { Engine } from '../support/engines/driver';
import {
  clickText,
  fieldValue,
  until,
  untilPreloaded,
  untilText,
  untilTitle,
  untilVisible,
} from '../support/engines/page';
import { newCardCode } from '../support/sign-up';

// The e2e host's config (tooling/serve/local-topology.ts).
const CARD_SCAN_BASE = 'https://www.special-gift.example/scan';

interface CameraWindow {
  __cameraStreams?: MediaStream[];
}

/**
 * What each engine's own camera gives the sign-up screen here: Firefox's fake camera (a generated
 * picture with no QR code in it) is listed and opens; headless Chromium without its fake-camera
 * flags and WebKitGTK under Xvfb list no camera, so the screen does not offer to scan (the field
 * says to type the code). The Chromium suite plays QR videos through Chromium's fake camera.
 */
const OWN_CAMERA: Record<Engine, 'preview' | 'not offered'> = {
  chromium: 'not offered',
  firefox: 'preview',
  webkit: 'not offered',
};

test('the engine’s own camera: a live preview released on Escape, or no scan offered where it lists none', async ({
  driver,
}) => {
  await driver.goto('/sign-up');
  await untilPreloaded(driver);
  const listsCamera = await driver.evaluate(async () =>
    ((await navigator.mediaDevices?.enumerateDevices?.()) ?? []).some((device) => device.kind === 'videoinput'),
  );
  expect(listsCamera ? 'preview' : 'not offered', `${driver.engine}'s camera`).toBe(OWN_CAMERA[driver.engine]);
  if (!listsCamera) {
    await until(driver, 'no scan button', () => document.querySelector('.signup__scan button') === null);
    expect(await driver.evaluate(() => document.querySelector('#signup-cardCode') !== null)).toBe(true);
    return;
  }
  // Keeps every stream getUserMedia hands out, so the test can see they are stopped afterwards.
  await driver.evaluate(() => {
    const devices = navigator.mediaDevices;
    const streams: MediaStream[] = [];
    (window as unknown as CameraWindow).__cameraStreams = streams;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      streams.push(stream);
      return stream;
    };
  });
  await driver.type('#signup-cardCode', '4111 1111');
  await driver.click('.signup__scan button');
  await untilVisible(driver, 'dialog[open] video');
  await until(
    driver,
    'the preview plays',
    () => (document.querySelector<HTMLVideoElement>('dialog[open] video')?.videoWidth ?? 0) > 0,
  );
  await untilText(driver, 'dialog[open] *', signupEn.scanner.looking);
  await driver.press('Escape');
  await until(driver, 'scanner closed', () => document.querySelector('dialog[open]') === null);
  await until(driver, 'camera released', () => {
    const streams = (window as unknown as CameraWindow).__cameraStreams ?? [];
    return streams.length > 0 && streams.flatMap((stream) => stream.getTracks()).every((t) => t.readyState === 'ended');
  });
  expect(await fieldValue(driver, '#signup-cardCode')).toBe('4111 1111');
});

test('a card’s QR code in front of the camera is decoded by the library decoder (jsQR) and fills the field', async ({
  driver,
}) => {
  const code = newCardCode();
  await driver.goto('/');
  await untilPreloaded(driver);
  await cameraShowsQr(driver, `${CARD_SCAN_BASE}/sign-up?card=${code}`);
  await clickText(driver, 'button', introEn.getStarted); // the screen mounts with the camera there
  await untilTitle(driver, signupEn.title);
  await driver.type('#signup-firstName', 'Amira');
  await driver.click('.signup__scan button');
  await until(
    driver,
    'card field filled from the scan',
    (expected) => document.querySelector<HTMLInputElement>('#signup-cardCode')?.value === expected,
    code.replace(/(\d{4})(?=\d)/g, '$1 '),
    20_000,
  );
  await until(driver, 'scanner closed', () => document.querySelector('dialog[open]') === null);
  expect(await fieldValue(driver, '#signup-firstName')).toBe('Amira');
  // The library decoder was what read it: no engine here has a BarcodeDetector that reads QR codes.
  expect(
    await driver.evaluate(() =>
      performance.getEntriesByType('resource').some((entry) => /\/qr-decoder\.[0-9a-f]+\.js$/.test(entry.name)),
    ),
  ).toBe(true);
});

for (const [errorName, message] of [
  ['NotFoundError', signupEn.scanner.camera.no_camera],
  ['NotAllowedError', signupEn.scanner.camera.denied],
] as const) {
  test(`the camera refused (${errorName}): the screen says why and to type the code; the field keeps its value`, async ({
    driver,
  }) => {
    await driver.goto('/');
    await untilPreloaded(driver);
    await cameraFails(driver, errorName);
    await clickText(driver, 'button', introEn.getStarted); // the screen mounts with a camera listed
    await untilTitle(driver, signupEn.title);
    await driver.type('#signup-cardCode', '4111 1111');
    await driver.click('.signup__scan button');
    await untilText(driver, '*', message);
    expect(await fieldValue(driver, '#signup-cardCode')).toBe('4111 1111');
  });
}
