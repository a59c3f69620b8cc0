import { Button, useOverlays, useTranslation, type OverlayRole } from '@special-gift/shared';
import { isMissingCodeError, reportMissingCode } from '@special-gift/shared/code-loading';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { CardScanOutcome } from './card-scanner';
import type { CameraProblem } from './use-camera';

export interface ScanCardButtonProps {
  /** The field the code goes into; it gets focus when the camera cannot be used. */
  readonly cardFieldId: string;
  /** The field after it; it gets focus once a code is read. */
  readonly nextFieldId: string;
  /** Fills and validates the card field with a scanned code. */
  readonly onScanned: (code: string) => void;
}

const DONE: OverlayRole = 'done';
/** The scanner's code did not load: said as such, never blamed on the camera. */
/** `not_loaded`: the scanner's code is unreachable (the connection); `updating`: it is gone, a new build replaced it. */
type ScanProblem = CameraProblem | 'not_loaded' | 'updating';
const VIBRATION_MS = 60;

/** The scanner's code: its own chunk, fetched when the button is pressed. */
const loadScanner = () => import(/* webpackChunkName: "card-scanner" */ './card-scanner');

const browserMayOfferCamera = () =>
  !window.isSecureContext || typeof navigator.mediaDevices?.getUserMedia === 'function';
const noChange = () => () => undefined;

/**
 * Offered where the browser has a camera API and the device lists a camera, and on pages that are
 * not secure (the browser hides the camera there; pressing the button explains it needs https).
 */
function useCameraOffered(): boolean {
  // The prerendered page shows the button (phones have cameras); hydration starts from that, then
  // the browser's answer applies.
  const mayOffer = useSyncExternalStore(noChange, browserMayOfferCamera, () => true);
  const [noCamera, setNoCamera] = useState(false);
  const offered = mayOffer && !noCamera;
  useEffect(() => {
    if (!offered || !window.isSecureContext || !navigator.mediaDevices.enumerateDevices) return undefined;
    let live = true;
    // Before permission the list is anonymous, but each kind of device present is listed.
    navigator.mediaDevices
      .enumerateDevices()
      .then((list) => {
        if (live && !list.some((device) => device.kind === 'videoinput')) setNoCamera(true);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [offered]);
  return offered;
}

/** Focus after the overlay has closed and given focus back (the dialog must be gone first). */
function focusSoon(id: string): void {
  setTimeout(() => document.getElementById(id)?.focus(), 0);
}

/**
 * The "Scan card" button beside the card field. The scanner (camera view and QR decoder) is
 * fetched only when the button is pressed, and shown in the shell's modal.
 */
export function ScanCardButton({ cardFieldId, nextFieldId, onScanned }: ScanCardButtonProps) {
  const { t } = useTranslation('signup');
  const overlays = useOverlays();
  const offered = useCameraOffered();
  const [opening, setOpening] = useState(false);
  const [cameraProblem, setCameraProblem] = useState<ScanProblem | undefined>(undefined);
  const dismissScanner = useRef<((data?: unknown, role?: OverlayRole) => void) | undefined>(undefined);
  const mounted = useRef(true);

  // Leaving the screen closes the scanner, which releases the camera.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      dismissScanner.current?.(undefined, 'cancel');
    };
  }, []);

  const fail = (problem: ScanProblem) => {
    setCameraProblem(problem);
    focusSoon(cardFieldId);
  };
  // The host moves the tab to the new build if one replaced this one (a release, an image roll:
  // docs/releases.md), and answers whether it does: only then is the code gone for good.
  const notLoaded = async (error: unknown) => {
    const updating = await reportMissingCode('signup', error);
    if (mounted.current) fail(updating ? 'updating' : 'not_loaded');
  };

  const open = async () => {
    setCameraProblem(undefined);
    setOpening(true);
    let scanner: Awaited<ReturnType<typeof loadScanner>>;
    try {
      scanner = await loadScanner();
    } catch (error) {
      if (mounted.current) {
        if (isMissingCodeError(error)) await notLoaded(error);
        else fail('failed');
      }
      return;
    } finally {
      if (mounted.current) setOpening(false);
    }
    if (!mounted.current) return;
    const { CardScanner } = scanner;
    const { role, data } = await overlays.modal({
      title: t('scanner.title'),
      render: (dismiss) => {
        dismissScanner.current = dismiss;
        return (
          <CardScanner onDone={(outcome) => dismiss(outcome, DONE)} onCancel={() => dismiss(undefined, 'cancel')} />
        );
      },
    });
    dismissScanner.current = undefined;
    if (!mounted.current || role !== DONE) return;
    const outcome = data as CardScanOutcome;
    if (outcome.kind === 'camera_problem') {
      fail(outcome.problem);
      return;
    }
    if (outcome.kind === 'not_loaded') {
      await notLoaded(outcome.error);
      return;
    }
    onScanned(outcome.code);
    navigator.vibrate?.(VIBRATION_MS);
    focusSoon(nextFieldId);
    void overlays.toast({ message: t('scanner.filled', { last4: outcome.code.slice(-4) }) });
  };

  if (!offered) return null;
  return (
    <div className="signup__scan">
      <Button
        variant="secondary"
        busy={opening}
        onClick={() => void open()}
        aria-describedby={cameraProblem ? `${cardFieldId}-scan-problem` : undefined}
      >
        {t('scanner.open')}
      </Button>
      {cameraProblem ? (
        <p id={`${cardFieldId}-scan-problem`} className="signup__scan-problem" role="alert">
          {t(
            cameraProblem === 'not_loaded'
              ? 'scanner.notLoaded'
              : cameraProblem === 'updating'
                ? 'scanner.updating'
                : `scanner.camera.${cameraProblem}`,
          )}
        </p>
      ) : null}
    </div>
  );
}
