/**
 * The state agent's process (docs/releases.md, "The state agent"): `node dist/state-agent.js` in
 * the API's image, `node --import tsx tooling/state-agent/main.ts` from the repository.
 */
import { startStateAgent } from './agent';
import { readStateAgentSettings } from './settings';

let settings;
try {
  settings = readStateAgentSettings(process.env);
} catch (error) {
  console.error(`state-agent: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

startStateAgent(settings).then(
  (agent) => {
    const { serial } = agent.source.status();
    const problem = agent.problem();
    console.log(
      `state-agent on ${agent.url}: ${settings.environment}'s state from ${settings.storeBase}, ` +
        (serial !== undefined ? `serial ${serial}` : problem ? `none yet (${problem})` : 'nothing released'),
    );
    let lastProblem = problem;
    // Say when the store starts or stops refusing, once each, not on every read.
    setInterval(() => {
      const now = agent.problem();
      if (now !== lastProblem) console.error(now ? `state-agent: ${now}` : 'state-agent: the store reads again');
      lastProblem = now;
    }, 1000).unref();
    const stop = () => void agent.stop().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  },
  (error: unknown) => {
    console.error(`state-agent could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
