import { Button, useShellConfig, useTranslation } from '@special-gift/shared';
import { parseScannedCardCode, type ScannedCardCodeProblem } from '@special-gift/shared/validation';
import { useEffect, useMemo, useRef, useState } from 'react';
import { isMissingCodeError } from '@special-gift/shared/code-loading';
import { createQrDetector as createBrowserQrDetector, type QrDetector } from './qr-detector';
import { browserCameraEnvironment, useCamera, type CameraEnvironment, type CameraProblem } from './use-camera';
import './card-scanner.css';

/** How the scanner closed: a card code read, a camera that cannot be used, or its decoder's code missing. Cancel has no outcome. */
export type CardScanOutcome =
  | { readonly kind: 'scanned'; readonly code: string }
  | { readonly kind: 'camera_problem'; readonly problem: CameraProblem }
  | { readonly kind: 'not_loaded'; readonly error: unknown };

export interface CardScannerProps {
  readonly onDone: (outcome: CardScanOutcome) => void;
  readonly onCancel: () => void;
  /** Tests pass a fake camera and detector; the browser's are the default. */
  readonly environment?: CameraEnvironment;
  readonly createDetector?: () => Promise<QrDetector>;
}

/** Time between two decoding attempts: fast enough to feel instant, light on a phone's CPU. */
const SCAN_INTERVAL_MS = 120;

/**
 * The camera view shown in the shell's modal: live preview, a frame to aim at, an instruction,
 * a torch toggle where the camera has one, and Cancel. Decodes frames until a card code is read.
 */
export function CardScanner({
  onDone,
  onCancel,
  environment: given,
  createDetector = createBrowserQrDetector,
}: CardScannerProps) {
  const { t } = useTranslation('signup');
  const { cardScanBase } = useShellConfig();
  const environment = useMemo(() => given ?? browserCameraEnvironment(), [given]);
  const camera = useCamera(environment);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [problem, setProblem] = useState<ScannedCardCodeProblem | undefined>(undefined);
  const [torch, setTorch] = useState<{ readonly available: boolean; readonly on: boolean }>({
    available: false,
    on: false,
  });

  // Latest callbacks for the scanning loop without restarting it on every render.
  const latest = useRef({ onDone, cardScanBase });
  useEffect(() => {
    latest.current = { onDone, cardScanBase };
  });

  useEffect(() => {
    if (camera.status === 'failed') latest.current.onDone({ kind: 'camera_problem', problem: camera.problem });
  }, [camera]);

  const stream = camera.status === 'live' ? camera.stream : undefined;

  // Preview and torch follow the stream.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !stream) return undefined;
    video.srcObject = stream;
    // Autoplay policies allow a muted inline video; a failed play() leaves the frame black, nothing worse.
    video.play()?.catch(() => undefined);
    // `torch` is a capability Chrome reports but TypeScript's DOM library does not list; Firefox has no getCapabilities.
    const capabilities = stream.getVideoTracks()[0]?.getCapabilities?.() as { torch?: boolean } | undefined;
    setTorch({ available: capabilities?.torch === true, on: false });
    return () => {
      video.srcObject = null;
    };
  }, [stream]);

  // Decode frames while the stream is live.
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !stream) return undefined;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastText: string | undefined;
    const decoderFailed = (error: unknown) => {
      // The decoder's chunk did not load (offline, a release): said as such; the user types the code instead.
      if (stopped) return;
      latest.current.onDone(
        isMissingCodeError(error) ? { kind: 'not_loaded', error } : { kind: 'camera_problem', problem: 'failed' },
      );
    };
    createDetector().then((detector) => {
      const tick = async () => {
        if (stopped) return;
        const text =
          video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA
            ? await detector.detect(video).catch(() => undefined)
            : undefined;
        if (stopped) return;
        if (text !== undefined && text !== lastText) {
          lastText = text;
          const read = parseScannedCardCode(text, {
            cardScanBase: latest.current.cardScanBase,
            origin: window.location.origin,
          });
          if (read.ok) {
            stopped = true;
            latest.current.onDone({ kind: 'scanned', code: read.code });
            return;
          }
          setProblem(read.problem);
        }
        timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS);
      };
      void tick();
    }, decoderFailed);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [stream, createDetector]);

  const toggleTorch = () => {
    const track = stream?.getVideoTracks()[0];
    if (!track) return;
    const on = !torch.on;
    // `torch` is a constraint Chrome supports but TypeScript's DOM library does not list.
    track
      .applyConstraints({ advanced: [{ torch: on } as MediaTrackConstraintSet] })
      .then(() => setTorch({ available: true, on }))
      .catch(() => setTorch({ available: false, on: false }));
  };

  const status = problem
    ? t(`scanner.problems.${problem}`)
    : camera.status === 'live'
      ? t('scanner.looking')
      : camera.status === 'paused'
        ? t('scanner.paused')
        : t('scanner.starting');

  return (
    <div className="card-scanner">
      <div className="card-scanner__view">
        <video ref={videoRef} className="card-scanner__video" muted playsInline aria-hidden="true" />
        <div className="card-scanner__frame" aria-hidden="true" />
      </div>
      <p className="card-scanner__instruction">{t('scanner.instruction')}</p>
      <p
        className={['card-scanner__status', problem ? 'card-scanner__status--problem' : ''].filter(Boolean).join(' ')}
        role="status"
        aria-live="polite"
      >
        {status}
      </p>
      <div className="card-scanner__actions">
        {torch.available ? (
          <Button variant="secondary" aria-pressed={torch.on} onClick={toggleTorch}>
            {t('scanner.torch')}
          </Button>
        ) : null}
        <Button variant="secondary" onClick={onCancel}>
          {t('scanner.cancel')}
        </Button>
      </div>
    </div>
  );
}
