import QRCode from 'qrcode';
import type { Driver } from './driver';

/**
 * Makes the page's camera show a QR code of `text`, in any engine: getUserMedia answers with a
 * canvas's stream (captureStream) on which the code is drawn, black on a light card in a grey
 * frame, redrawn as a camera keeps sending frames. The app's own code reads it as it would a camera.
 * The sign-up screen asks whether there is a camera when it mounts: open it after this.
 */
export async function cameraShowsQr(driver: Driver, text: string): Promise<void> {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const matrix = Array.from({ length: modules.size }, (_, row) =>
    Array.from({ length: modules.size }, (_, col) => Boolean(modules.get(row, col))),
  );
  await driver.evaluate((qr) => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    const scale = Math.floor(300 / (qr.length + 8));
    const left = (640 - qr.length * scale) / 2;
    const top = (480 - qr.length * scale) / 2;
    const draw = () => {
      context.fillStyle = '#808080';
      context.fillRect(0, 0, 640, 480);
      context.fillStyle = '#ebebeb';
      context.fillRect(left - 4 * scale, top - 4 * scale, (qr.length + 8) * scale, (qr.length + 8) * scale);
      context.fillStyle = '#101010';
      qr.forEach((row, y) =>
        row.forEach((dark, x) => {
          if (dark) context.fillRect(left + x * scale, top + y * scale, scale, scale);
        }),
      );
    };
    draw();
    setInterval(draw, 100);
    const camera = {
      getUserMedia: async () => canvas.captureStream(10),
      // Listed as a device, as a phone's camera is before permission (anonymous).
      enumerateDevices: async () => [{ kind: 'videoinput', deviceId: '', groupId: '', label: '' }],
    };
    if (navigator.mediaDevices) Object.assign(navigator.mediaDevices, camera);
    else Object.defineProperty(navigator, 'mediaDevices', { value: camera, configurable: true });
  }, matrix);
}

/**
 * Makes the page's camera fail as a phone's does: one camera is listed (anonymous, as before
 * permission), and getUserMedia rejects with `errorName` (NotFoundError: none there after all;
 * NotAllowedError: the user said no). Open the sign-up screen after this.
 */
export async function cameraFails(driver: Driver, errorName: 'NotFoundError' | 'NotAllowedError'): Promise<void> {
  await driver.evaluate((name) => {
    const camera = {
      getUserMedia: async () => {
        throw new DOMException('refused by the test', name);
      },
      enumerateDevices: async () => [{ kind: 'videoinput', deviceId: '', groupId: '', label: '' }],
    };
    if (navigator.mediaDevices) Object.assign(navigator.mediaDevices, camera);
    else Object.defineProperty(navigator, 'mediaDevices', { value: camera, configurable: true });
  }, errorName);
}
