import { act, useLayoutEffect, useState, type FormEvent } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { captureUserInput } from './user-input';

function Form({
  onSubmit,
  onTap,
}: {
  onSubmit: (values: { name: string; city: string; agreed: boolean }) => void;
  onTap: () => void;
}) {
  const [name, setName] = useState('');
  const [city, setCity] = useState('');
  const [agreed, setAgreed] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ name, city, agreed });
  };
  return (
    <form onSubmit={submit}>
      <input aria-label="Name" value={name} onChange={(event) => setName(event.target.value)} />
      <input aria-label="City" value={city} onChange={(event) => setCity(event.target.value)} />
      <input
        aria-label="Agreed"
        type="checkbox"
        checked={agreed}
        onChange={(event) => setAgreed(event.target.checked)}
      />
      <button type="button" onClick={onTap}>
        Help
      </button>
      <button type="submit">Send</button>
    </form>
  );
}

/** The server's HTML in a container, as the page brought it, before the screen's code runs. */
function prerendered() {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<Form onSubmit={() => undefined} onTap={() => undefined} />);
  document.body.append(container);
  return container;
}

const hydrate = async (container: HTMLElement, element: React.ReactNode, afterHydration: () => void) => {
  await act(async () => {
    hydrateRoot(container, element);
  });
  await act(async () => {
    afterHydration();
  });
};

// React's act() outside Testing Library's render: tell React this is a test environment.
beforeAll(() => Object.assign(globalThis, { IS_REACT_ACT_ENVIRONMENT: true }));
afterEach(() => document.body.replaceChildren());

describe('captureUserInput', () => {
  it('gives the screen what was typed and tapped before it hydrated, in order', async () => {
    const container = prerendered();
    const capture = captureUserInput(container);
    const name = container.querySelector<HTMLInputElement>('[aria-label=Name]')!;
    const agreed = container.querySelector<HTMLInputElement>('[aria-label=Agreed]')!;
    const city = container.querySelector<HTMLInputElement>('[aria-label=City]')!;
    name.value = 'Ada'; // typed into the server's fields
    city.value = 'London';
    agreed.click(); // tapped
    expect(agreed.checked).toBe(false); // held: nothing happens before the code is there

    const onSubmit = jest.fn();
    const onTap = jest.fn();
    await hydrate(container, <Form onSubmit={onSubmit} onTap={onTap} />, () => capture.replay());

    expect(name.value).toBe('Ada');
    expect(city.value).toBe('London');
    expect(agreed.checked).toBe(true);
    await act(async () => {
      container.querySelector<HTMLButtonElement>('[type=submit]')!.click();
    });
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada', city: 'London', agreed: true }); // the screen's state has them
  });

  it('keeps what was typed when the screen renders again between hydration and the replay', async () => {
    // A screen whose commit updates its state (as a store read in a layout effect does): React
    // then puts its controlled fields back to its state before the replay reads them.
    function RendersOnCommit(props: Parameters<typeof Form>[0]) {
      const [, setCommitted] = useState(false);
      // The very pattern the test is about: a state update in the hydration's commit.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      useLayoutEffect(() => setCommitted(true), []);
      return <Form {...props} />;
    }
    const container = prerendered();
    const capture = captureUserInput(container);
    const name = container.querySelector<HTMLInputElement>('[aria-label=Name]')!;
    name.value = 'Ada';
    name.dispatchEvent(new Event('input', { bubbles: true })); // typed: the browser says so

    const onSubmit = jest.fn();
    await act(async () => {
      hydrateRoot(container, <RendersOnCommit onSubmit={onSubmit} onTap={() => undefined} />);
    });
    expect(name.value).toBe(''); // what the commit's render did
    await act(async () => {
      capture.replay();
    });
    expect(name.value).toBe('Ada');
    await act(async () => {
      container.querySelector<HTMLButtonElement>('[type=submit]')!.click();
    });
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada', city: '', agreed: false });
  });

  it('keeps what is typed while React hydrates, and a later render of the form does not clear it', async () => {
    const container = prerendered();
    const capture = captureUserInput(container);
    const name = container.querySelector<HTMLInputElement>('[aria-label=Name]')!;
    const onSubmit = jest.fn();
    await act(async () => {
      hydrateRoot(container, <Form onSubmit={onSubmit} onTap={() => undefined} />);
      name.value = 'Ada'; // typed after hydration began, before it committed
    });
    await act(async () => capture.replay());
    await act(async () => {
      container.querySelector<HTMLInputElement>('[aria-label=Agreed]')!.click(); // the form renders again
    });
    expect(name.value).toBe('Ada');
    await act(async () => {
      container.querySelector<HTMLButtonElement>('[type=submit]')!.click();
    });
    expect(onSubmit).toHaveBeenCalledWith({ name: 'Ada', city: '', agreed: true });
  });

  it('gives the screen a box ticked before the capture began', async () => {
    const container = prerendered();
    const agreed = container.querySelector<HTMLInputElement>('[aria-label=Agreed]')!;
    agreed.click(); // ticked while no script was there yet
    const capture = captureUserInput(container);
    const onSubmit = jest.fn();
    await hydrate(container, <Form onSubmit={onSubmit} onTap={() => undefined} />, () => capture.replay());
    expect(agreed.checked).toBe(true);
    await act(async () => {
      container.querySelector<HTMLButtonElement>('[type=submit]')!.click();
    });
    expect(onSubmit).toHaveBeenCalledWith({ name: '', city: '', agreed: true });
  });

  it('holds taps and submits no longer once released, replaying nothing', () => {
    const container = prerendered();
    const capture = captureUserInput(container);
    const form = container.querySelector('form')!;
    capture.release();
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(false);
  });

  it('holds a submit until the screen can handle it, instead of letting the browser send the form', async () => {
    const container = prerendered();
    const capture = captureUserInput(container);
    const form = container.querySelector('form')!;
    const early = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(early);
    expect(early.defaultPrevented).toBe(true);

    const onSubmit = jest.fn();
    await hydrate(container, <Form onSubmit={onSubmit} onTap={() => undefined} />, () => capture.replay());
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('replays nothing when nothing was done, and stops holding once replayed', async () => {
    const container = prerendered();
    const capture = captureUserInput(container);
    const onTap = jest.fn();
    await hydrate(container, <Form onSubmit={() => undefined} onTap={onTap} />, () => capture.replay());
    expect(onTap).not.toHaveBeenCalled();
    await act(async () => {
      container.querySelector<HTMLButtonElement>('[type=button]')!.click();
    });
    expect(onTap).toHaveBeenCalledTimes(1);
  });
});
