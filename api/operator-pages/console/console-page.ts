// The team console (GET /v1/console, docs/console.md). A team signs in with its token, kept in this
// tab's sessionStorage only, and sees its remote: what is served (live, canary, preview, lock), the
// field data per build side by side with the canary verdict, the builds with their bytes against the
// live one, and the audit trail. It offers only the actions `GET /v1/access/me` lists for the token;
// the API checks every one again, and a refusal is shown with the API's own message.
import type { AccessIdentity, AuditEntry, RemoteRolloutPlan, Rollout, RolloutDetail } from '@special-gift/shared/api';
import {
  canaryStart,
  WINDOW_SECONDS,
  type CanaryDecisionAnswer,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import { element } from '../element';
import { ApiRefusal, callApi } from './api';
import { render } from './screen';
import { params, PREVIEW_KEY, setParams, TOKEN_KEY, type Notice, type RemoteState } from './session';
import './console.css';

const main = document.getElementById('console') as HTMLElement;

function showSignIn(message?: string): void {
  document.title = 'Sign in · Team console · Special Gift';
  const input = element('input', {
    type: 'password',
    name: 'token',
    id: 'token',
    required: true,
    autocomplete: 'off',
    spellcheck: false,
  });
  const problem = element('p', { className: 'refusal', id: 'sign-in-problem', textContent: message ?? '' });
  problem.setAttribute('role', 'alert');
  if (!message) problem.hidden = true;
  const form = element('form', { className: 'sign-in', noValidate: true }, [
    element('h2', { textContent: 'Sign in' }),
    element('p', {
      textContent:
        'Paste your team’s token (a viewer, deployer or admin token of your remote). It is kept in this tab only, ' +
        'and sent only to this API; signing out or closing the tab forgets it.',
    }),
    element('label', { htmlFor: 'token', textContent: 'Token' }),
    input,
    problem,
    element('button', { type: 'submit', className: 'primary', textContent: 'Sign in' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (token === '') {
      problem.hidden = false;
      problem.textContent = 'Paste a token first.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    // Signed in, the screen starts at its top for keyboard and screen-reader users too.
    void start().then(() => main.isConnected && !main.querySelector('form.sign-in') && main.focus());
  });
  main.replaceChildren(form);
  input.focus();
}

function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(PREVIEW_KEY);
  history.replaceState(null, '', location.pathname);
  showSignIn();
}

/** A refused token (revoked, expired, wrong) is forgotten at once: the user signs in again. */
function whenUnauthorised(error: unknown): boolean {
  if (!(error instanceof ApiRefusal) || error.status !== 401) return false;
  sessionStorage.removeItem(TOKEN_KEY);
  showSignIn(`Signed out: the API did not accept this token (401). ${error.message}`);
  return true;
}

async function start(notice?: Notice): Promise<void> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return showSignIn();
  main.setAttribute('aria-busy', 'true');
  try {
    const me = await callApi<AccessIdentity>(token, 'GET', 'access/me');
    const wanted = params();
    const remote = wanted.remote !== null && me.remotes.includes(wanted.remote) ? wanted.remote : me.remotes[0];
    if (remote === undefined) return showSignIn('This token can read no remote.');
    setParams(remote, wanted.window);
    const query = new URLSearchParams({ remote, window: wanted.window });
    const [state, audit, report, rollouts, rolloutPlan] = await Promise.all([
      callApi<RemoteState>(token, 'GET', `releases/remotes/${remote}?limit=20`),
      callApi<{ entries: AuditEntry[] }>(token, 'GET', `access/audit?remote=${remote}&limit=50`),
      callApi<TelemetryReport>(token, 'GET', `telemetry/report?${query.toString()}`),
      callApi<{ rollouts: Rollout[] }>(token, 'GET', `rollouts?remote=${remote}&limit=1`),
      callApi<RemoteRolloutPlan>(token, 'GET', `rollouts/plans/${remote}`),
    ]);
    const latest = rollouts.rollouts[0];
    const rollout = latest ? await callApi<RolloutDetail>(token, 'GET', `rollouts/${latest.id}`) : null;
    // The canary under way, judged as the CLI judges it: from its first step, else over the window.
    const { pointer } = state;
    const decision = pointer?.canary
      ? await callApi<CanaryDecisionAnswer>(
          token,
          'GET',
          `telemetry/verdict?${new URLSearchParams({
            remote,
            canary: pointer.canary,
            baseline: pointer.live,
            since:
              canaryStart(state.history, pointer.canary) ??
              new Date(Date.now() - WINDOW_SECONDS[wanted.window].length * 1000).toISOString(),
          }).toString()}`,
        )
      : null;
    render(
      {
        me,
        token,
        remote,
        window: wanted.window,
        state,
        audit: audit.entries,
        report,
        decision,
        rollout,
        rolloutPlan,
        reload: start,
        signOut,
        signedOutBy: whenUnauthorised,
      },
      notice,
    );
  } catch (error) {
    if (whenUnauthorised(error)) return;
    main.replaceChildren(
      element('p', {
        className: 'refusal',
        textContent: `The console could not load: ${error instanceof Error ? error.message : String(error)}`,
      }),
      element('button', { type: 'button', textContent: 'Sign out', onclick: signOut }),
    );
  } finally {
    main.removeAttribute('aria-busy');
  }
}

void start();
