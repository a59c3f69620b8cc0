import { killStaleWebKit } from './engines/webkit';
import { stopApp } from './servers';
import { APPS } from './topology';

export default async function globalTeardown(): Promise<void> {
  for (const app of APPS) await stopApp(app);
  // A worker that died without closing its WebKitGTK driver (xvfb-run's process group) leaves its pid.
  killStaleWebKit();
}
