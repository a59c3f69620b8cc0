import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import QRCode from 'qrcode';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tooling/chromium';
import { STATE_DIR } from './topology';

const WIDTH = 640;
const HEIGHT = 480;
/** The QR code's share of the frame's shorter side, quiet zone included: a card held in the aiming frame. */
const QR_SHARE = 0.6;
const QUIET_MODULES = 4;
const DARK = 16;
const LIGHT = 235;
const NEUTRAL_CHROMA = 128;

/**
 * Writes a Y4M video (what Chromium's fake camera plays, looped) whose frame shows a QR code of
 * `text`, black on white in the middle of a grey frame: 8-bit 4:2:0, Y plane then U and V.
 */
export function writeQrVideo(text: string, name: string): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + 2 * QUIET_MODULES;
  const scale = Math.floor((Math.min(WIDTH, HEIGHT) * QR_SHARE) / side);
  const left = Math.floor((WIDTH - side * scale) / 2);
  const top = Math.floor((HEIGHT - side * scale) / 2);

  const luma = Buffer.alloc(WIDTH * HEIGHT, 128);
  for (let y = 0; y < side * scale; y += 1) {
    for (let x = 0; x < side * scale; x += 1) {
      const row = Math.floor(y / scale) - QUIET_MODULES;
      const col = Math.floor(x / scale) - QUIET_MODULES;
      const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
      luma[(top + y) * WIDTH + left + x] = inside && modules.get(row, col) ? DARK : LIGHT;
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2), NEUTRAL_CHROMA);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`);
  const path = join(STATE_DIR, `${name}.y4m`);
  writeFileSync(path, Buffer.concat([header, frame, frame]));
  return path;
}

/**
 * A Chromium whose camera plays `video`. `grantCamera` adds --use-fake-ui-for-media-stream, which
 * answers the permission prompt with "allow"; without it headless Chromium denies the camera.
 */
export function launchWithFakeCamera(video: string, options: { grantCamera: boolean }): Promise<Browser> {
  const args = [...CHROMIUM_ARGS, '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`];
  if (options.grantCamera) args.push('--use-fake-ui-for-media-stream');
  return chromium.launch({ executablePath: CHROMIUM_PATH, args });
}

/**
 * Page script: keeps every stream getUserMedia hands out (it passes them through untouched), so a
 * test can check afterwards that the app stopped every track.
 */
export function recordCameraStreams(): void {
  const devices = navigator.mediaDevices;
  const original = devices.getUserMedia.bind(devices);
  const streams: MediaStream[] = [];
  (window as unknown as { __cameraStreams: MediaStream[] }).__cameraStreams = streams;
  devices.getUserMedia = async (constraints) => {
    const stream = await original(constraints);
    streams.push(stream);
    return stream;
  };
}

/** In the page: how many streams were opened and how many of their tracks are still live. */
export function cameraTracks(): { streams: number; live: number } {
  const streams = (window as unknown as { __cameraStreams?: MediaStream[] }).__cameraStreams ?? [];
  return {
    streams: streams.length,
    live: streams.flatMap((stream) => stream.getTracks()).filter((track) => track.readyState === 'live').length,
  };
}
