import { stopApp } from './servers';
import { APPS } from './topology';

export default async function globalTeardown(): Promise<void> {
  for (const app of APPS) await stopApp(app);
}
