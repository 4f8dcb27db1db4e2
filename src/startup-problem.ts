// A start-up failure the operator fixes outside Herald (a busy port, an unreachable database): the
// process prints its message as one line and exits, with no stack trace to read through.
export class StartupProblem extends Error {
  /** 2: the configuration must change (like a bad variable); 1: the surroundings may recover by themselves. */
  readonly exitCode: 1 | 2;
  /** The system error's code (EADDRINUSE, ...), kept for callers that retry on it. */
  readonly code: string | undefined;

  constructor(message: string, exitCode: 1 | 2, cause?: unknown) {
    super(message, { cause });
    this.name = 'StartupProblem';
    this.exitCode = exitCode;
    this.code = (cause as NodeJS.ErrnoException | undefined)?.code;
  }
}
