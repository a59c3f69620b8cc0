import { useEffect, useState } from 'react';

/** Why the camera cannot be used; each has its own message telling how to type the code instead. */
export type CameraProblem = 'denied' | 'no_camera' | 'in_use' | 'insecure' | 'failed';

export type CameraState =
  | { readonly status: 'starting' }
  | { readonly status: 'live'; readonly stream: MediaStream }
  /** The tab is hidden: the camera is released and starts again when the tab is shown. */
  | { readonly status: 'paused' }
  | { readonly status: 'failed'; readonly problem: CameraProblem };

export interface CameraEnvironment {
  /** `navigator.mediaDevices`; undefined where the browser has none (old browsers, insecure pages). */
  readonly mediaDevices: Pick<MediaDevices, 'getUserMedia'> | undefined;
  /** `window.isSecureContext`: browsers only offer the camera to https pages and localhost. */
  readonly secure: boolean;
  readonly document: Document;
  readonly window: Window;
}

/** The back camera when there is one; no audio. */
export const CAMERA_CONSTRAINTS: MediaStreamConstraints = {
  audio: false,
  video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
};

/** Stops every track of `stream`: the browser then releases the camera and its indicator goes off. */
export function stopStream(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/** getUserMedia's errors (DOMException names, including Chrome's legacy ones) as what the user can act on. */
export function cameraProblemOf(error: unknown): CameraProblem {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'SecurityError':
      return 'denied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'OverconstrainedError':
      return 'no_camera';
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'in_use';
    default:
      return 'failed';
  }
}

/**
 * Opens the camera while the calling component is mounted and the tab is visible. The camera is
 * released (every track stopped) on unmount, when the tab is hidden or the page is left, and a
 * stream that arrives after any of these is stopped at once.
 */
export function useCamera(environment: CameraEnvironment): CameraState {
  const [state, setState] = useState<CameraState>(() =>
    environment.document.visibilityState === 'hidden' ? { status: 'paused' } : { status: 'starting' },
  );

  useEffect(() => {
    const { mediaDevices, secure, document: doc, window: win } = environment;
    let stream: MediaStream | undefined;
    // Each start gets a number; a stream for an older start (or after unmount) is stale.
    let generation = 0;
    let mounted = true;

    const release = () => {
      generation += 1;
      if (stream) stopStream(stream);
      stream = undefined;
    };

    const start = async () => {
      release();
      const mine = generation;
      if (!secure) return setState({ status: 'failed', problem: 'insecure' });
      if (!mediaDevices?.getUserMedia) return setState({ status: 'failed', problem: 'no_camera' });
      setState({ status: 'starting' });
      try {
        const opened = await mediaDevices.getUserMedia(CAMERA_CONSTRAINTS);
        if (!mounted || mine !== generation) {
          stopStream(opened);
          return;
        }
        stream = opened;
        // A camera unplugged or taken by the system ends its track: say so rather than freeze.
        for (const track of opened.getVideoTracks()) track.addEventListener('ended', onEnded);
        setState({ status: 'live', stream: opened });
      } catch (error) {
        if (mounted && mine === generation) setState({ status: 'failed', problem: cameraProblemOf(error) });
      }
    };

    const onEnded = () => {
      release();
      if (mounted) setState({ status: 'failed', problem: 'failed' });
    };
    const onVisibility = () => {
      if (doc.visibilityState === 'hidden') {
        release();
        setState({ status: 'paused' });
      } else {
        void start();
      }
    };
    const onPageHide = () => release();

    if (doc.visibilityState !== 'hidden') void start();
    doc.addEventListener('visibilitychange', onVisibility);
    win.addEventListener('pagehide', onPageHide);
    return () => {
      mounted = false;
      doc.removeEventListener('visibilitychange', onVisibility);
      win.removeEventListener('pagehide', onPageHide);
      release();
    };
  }, [environment]);

  return state;
}

/** The environment of the page the hook runs in. */
export function browserCameraEnvironment(): CameraEnvironment {
  return {
    mediaDevices: navigator.mediaDevices as MediaDevices | undefined,
    secure: window.isSecureContext,
    document,
    window,
  };
}
