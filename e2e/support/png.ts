import { PNG } from 'pngjs';

/** A screenshot reduced to ink (dark) and paper (light) pixels: a shape, whatever its colours. */
export interface Bitmap {
  width: number;
  height: number;
  /** 1 where the pixel is darker than the threshold. */
  ink: Uint8Array;
}

/** Decodes a PNG and binarizes it at a luminance threshold (0-255; Rec. 709 weights). */
export function binarize(png: Buffer, threshold = 128): Bitmap {
  const image = PNG.sync.read(png);
  const ink = new Uint8Array(image.width * image.height);
  for (let i = 0; i < ink.length; i++) {
    const [r, g, b] = [image.data[i * 4]!, image.data[i * 4 + 1]!, image.data[i * 4 + 2]!];
    ink[i] = 0.2126 * r + 0.7152 * g + 0.0722 * b < threshold ? 1 : 0;
  }
  return { width: image.width, height: image.height, ink };
}

/** Share of ink pixels (0-1). */
export const inkShare = (bitmap: Bitmap) => bitmap.ink.reduce((sum, v) => sum + v, 0) / Math.max(1, bitmap.ink.length);

/** Share of pixels that are ink in one bitmap and paper in the other (same size expected). */
export function shapeDifference(a: Bitmap, b: Bitmap): number {
  const width = Math.min(a.width, b.width);
  const height = Math.min(a.height, b.height);
  let differing = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (a.ink[y * a.width + x] !== b.ink[y * b.width + x]) differing++;
  }
  return differing / Math.max(1, width * height);
}

/** The RGB colour of one pixel of a PNG. */
export function pixel(png: Buffer, x: number, y: number): [number, number, number] {
  const image = PNG.sync.read(png);
  const i = (Math.round(y) * image.width + Math.round(x)) * 4;
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!];
}
