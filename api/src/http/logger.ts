/** One structured log entry; written as one JSON line. */
export type LogEntry = Readonly<Record<string, unknown>>;
export type Logger = (entry: LogEntry) => void;

/** The production logger: one JSON line per entry on stdout, where a container runtime collects it. */
export const jsonLineLogger: Logger = (entry) => {
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
};

export const silentLogger: Logger = () => undefined;
