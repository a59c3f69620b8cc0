/** Reads the text of a QR code in the current video frame, or undefined when none is found. */
export interface QrDetector {
  readonly kind: 'native' | 'library';
  detect(video: HTMLVideoElement): Promise<string | undefined>;
}

/** The Shape Detection API's BarcodeDetector (not in TypeScript's DOM library: not in every browser). */
interface BarcodeDetectorInstance {
  detect(source: CanvasImageSource): Promise<ReadonlyArray<{ readonly rawValue: string }>>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats(): Promise<string[]>;
}

/** Frames are scaled down to this many pixels on their longer side before the library decodes them. */
const LIBRARY_FRAME_SIZE = 640;

/**
 * The platform's BarcodeDetector where it reads QR codes (Chrome on Android, Safari 17+ on iOS):
 * fast and free. Elsewhere jsQR, pure JavaScript (no WebAssembly, no eval, no worker: the CSP
 * allows it as it is), fetched only then in a chunk of its own.
 */
export async function createQrDetector(
  scope: { BarcodeDetector?: unknown } = globalThis as { BarcodeDetector?: unknown },
): Promise<QrDetector> {
  const native = await nativeDetector(scope.BarcodeDetector as BarcodeDetectorClass | undefined);
  return native ?? libraryDetector();
}

async function nativeDetector(Detector: BarcodeDetectorClass | undefined): Promise<QrDetector | undefined> {
  if (typeof Detector !== 'function') return undefined;
  try {
    if (!(await Detector.getSupportedFormats()).includes('qr_code')) return undefined;
    const detector = new Detector({ formats: ['qr_code'] });
    return {
      kind: 'native',
      detect: async (video) => (await detector.detect(video))[0]?.rawValue,
    };
  } catch {
    // A BarcodeDetector that exists but cannot run (e.g. no platform service): use the library.
    return undefined;
  }
}

async function libraryDetector(): Promise<QrDetector> {
  const { default: jsQR } = await import(/* webpackChunkName: "qr-decoder" */ 'jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('No 2D canvas context to read camera frames');
  return {
    kind: 'library',
    detect: async (video) => {
      const { videoWidth, videoHeight } = video;
      if (videoWidth === 0 || videoHeight === 0) return undefined;
      const scale = Math.min(1, LIBRARY_FRAME_SIZE / Math.max(videoWidth, videoHeight));
      canvas.width = Math.round(videoWidth * scale);
      canvas.height = Math.round(videoHeight * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const frame = context.getImageData(0, 0, canvas.width, canvas.height);
      return jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'dontInvert' })?.data;
    },
  };
}
