// TEST SUPPORT ONLY: a camera for jsdom, which has none. Streams and tracks behave like the
// browser's in what the scanner relies on: stop() ends a track for good, `ended` can be fired.
import type { CameraEnvironment } from '../../src/card-scanner/use-camera';

export class FakeTrack extends EventTarget {
  readyState: MediaStreamTrackState = 'live';
  readonly kind = 'video';
  readonly constraints: MediaTrackConstraints[] = [];
  constructor(private readonly capabilities: Record<string, unknown> = {}) {
    super();
  }
  stop(): void {
    this.readyState = 'ended';
  }
  getCapabilities(): Record<string, unknown> {
    return this.capabilities;
  }
  async applyConstraints(constraints: MediaTrackConstraints): Promise<void> {
    this.constraints.push(constraints);
  }
  /** What the browser does when the camera goes away (unplugged, taken by the system). */
  end(): void {
    this.readyState = 'ended';
    this.dispatchEvent(new Event('ended'));
  }
}

export function fakeStream(track = new FakeTrack()): MediaStream & { readonly track: FakeTrack } {
  const stream = { track, getTracks: () => [track], getVideoTracks: () => [track] };
  // Only the members above are used by the scanner; a full MediaStream cannot be built in jsdom.
  return stream as unknown as MediaStream & { readonly track: FakeTrack };
}

export interface FakeCamera {
  readonly environment: CameraEnvironment;
  readonly getUserMedia: jest.Mock<Promise<MediaStream>, [MediaStreamConstraints]>;
  /** Every stream handed out so far. */
  readonly streams: Array<MediaStream & { readonly track: FakeTrack }>;
  liveTracks(): number;
  setVisibility(state: DocumentVisibilityState): void;
}

/** A camera that grants a new fake stream on every request, unless `getUserMedia` is re-mocked. */
export function createFakeCamera(
  options: { secure?: boolean; capabilities?: Record<string, unknown> } = {},
): FakeCamera {
  const streams: FakeCamera['streams'] = [];
  let visibility: DocumentVisibilityState = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  const getUserMedia = jest.fn<Promise<MediaStream>, [MediaStreamConstraints]>(async () => {
    const stream = fakeStream(new FakeTrack(options.capabilities));
    streams.push(stream);
    return stream;
  });
  return {
    environment: { mediaDevices: { getUserMedia }, secure: options.secure ?? true, document, window },
    getUserMedia,
    streams,
    liveTracks: () => streams.filter((stream) => stream.track.readyState === 'live').length,
    setVisibility(state) {
      visibility = state;
      document.dispatchEvent(new Event('visibilitychange'));
    },
  };
}
