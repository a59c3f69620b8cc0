import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createFakeCamera, fakeStream, type FakeCamera } from '../../test/support/fake-camera';
import { CAMERA_CONSTRAINTS, useCamera, type CameraEnvironment } from './use-camera';

function Probe({ environment }: { environment: CameraEnvironment }) {
  const state = useCamera(environment);
  return <p data-testid="camera">{state.status === 'failed' ? `failed:${state.problem}` : state.status}</p>;
}

const status = () => screen.getByTestId('camera').textContent;

async function renderCamera(camera: FakeCamera) {
  const view = render(<Probe environment={camera.environment} />);
  await act(async () => undefined);
  return view;
}

function domError(name: string): Error {
  const error = new Error(name);
  error.name = name;
  return error;
}

describe('useCamera: the camera is always released', () => {
  it('opens the back camera without audio and stops every track on unmount', async () => {
    const camera = createFakeCamera();
    const view = await renderCamera(camera);
    expect(camera.getUserMedia).toHaveBeenCalledWith(CAMERA_CONSTRAINTS);
    expect(CAMERA_CONSTRAINTS).toMatchObject({ audio: false, video: { facingMode: { ideal: 'environment' } } });
    expect(status()).toBe('live');
    expect(camera.liveTracks()).toBe(1);

    view.unmount();
    expect(camera.liveTracks()).toBe(0);
  });

  it('stops a stream that arrives after the scanner has closed', async () => {
    const camera = createFakeCamera();
    let grant: (stream: MediaStream) => void = () => undefined;
    const late = fakeStream();
    camera.getUserMedia.mockImplementationOnce(() => new Promise((resolve) => (grant = resolve)));
    const view = await renderCamera(camera);
    expect(status()).toBe('starting');
    view.unmount();
    await act(async () => grant(late));
    expect(late.track.readyState).toBe('ended');
  });

  it('releases the camera while the tab is hidden and opens it again when shown', async () => {
    const camera = createFakeCamera();
    await renderCamera(camera);
    await act(async () => camera.setVisibility('hidden'));
    expect(status()).toBe('paused');
    expect(camera.liveTracks()).toBe(0);

    await act(async () => camera.setVisibility('visible'));
    expect(status()).toBe('live');
    expect(camera.streams).toHaveLength(2);
    expect(camera.liveTracks()).toBe(1);
  });

  it('stops a stream granted just after the tab was hidden', async () => {
    const camera = createFakeCamera();
    let grant: (stream: MediaStream) => void = () => undefined;
    const late = fakeStream();
    camera.getUserMedia.mockImplementationOnce(() => new Promise((resolve) => (grant = resolve)));
    await renderCamera(camera);
    await act(async () => camera.setVisibility('hidden'));
    await act(async () => grant(late));
    expect(late.track.readyState).toBe('ended');
    expect(status()).toBe('paused');
  });

  it('releases the camera when the page is left', async () => {
    const camera = createFakeCamera();
    await renderCamera(camera);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(camera.liveTracks()).toBe(0);
  });

  it('reports a camera that goes away while in use, and has nothing left to release', async () => {
    const camera = createFakeCamera();
    await renderCamera(camera);
    act(() => camera.streams[0]?.track.end());
    expect(status()).toBe('failed:failed');
    expect(camera.liveTracks()).toBe(0);
  });
});

describe('useCamera: why the camera cannot be used', () => {
  it.each([
    ['NotAllowedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'no_camera'],
    ['OverconstrainedError', 'no_camera'],
    ['NotReadableError', 'in_use'],
    ['AbortError', 'in_use'],
    ['TypeError', 'failed'],
  ])('%s means %s', async (name, problem) => {
    const camera = createFakeCamera();
    camera.getUserMedia.mockRejectedValueOnce(domError(name));
    await renderCamera(camera);
    expect(status()).toBe(`failed:${problem}`);
    expect(camera.liveTracks()).toBe(0);
  });

  it('an insecure page never asks for the camera', async () => {
    const camera = createFakeCamera({ secure: false });
    await renderCamera(camera);
    expect(status()).toBe('failed:insecure');
    expect(camera.getUserMedia).not.toHaveBeenCalled();
  });

  it('a browser without a camera API has no camera', async () => {
    const camera = createFakeCamera();
    function NoApi() {
      const [environment] = useState<CameraEnvironment>({ ...camera.environment, mediaDevices: undefined });
      return <Probe environment={environment} />;
    }
    render(<NoApi />);
    await act(async () => undefined);
    expect(status()).toBe('failed:no_camera');
  });
});
