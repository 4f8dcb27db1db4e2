// `herald admin` on an embedded data directory no server holds opens the database in its own
// process and exits once it has answered. PGlite's WebAssembly, hot from opening the database, is
// optimised by V8 in the background, and the exit waits for that compilation (about 330 of the
// 800 ms a bare open and read takes, bench/RESULTS.md, CLI), which a command that exits never uses. V8
// takes the flag that keeps its baseline compiler alone only at a process's start, so the command
// runs again in a child that has it.
import { spawn } from 'node:child_process';
import os from 'node:os';

const BASELINE_COMPILER_ONLY = '--liftoff-only';

/** Whether this process already runs with V8's baseline WebAssembly compiler alone. */
export const baselineCompilerOnly = (): boolean => process.execArgv.includes(BASELINE_COMPILER_ONLY);

/**
 * This command again, in a child with the flag, stdin, stdout and stderr shared; answers its exit
 * code (128 + the signal's number when a signal ended it, as shells do). A SIGTERM sent to this
 * process is passed on.
 */
export function rerunWithBaselineCompiler(): Promise<number> {
  // Ctrl-C already reaches the child (the terminal signals the whole group): this process waits.
  // The handlers go in before the child exists: a SIGTERM sent as soon as the child shows (a
  // supervisor, a test) would otherwise end this process and leave the child running. A signal is
  // handled in a later turn of the event loop, when `child` is set (spawn returns synchronously).
  const waitForChild = () => {};
  const passOn = () => child.kill('SIGTERM');
  process.on('SIGINT', waitForChild);
  process.on('SIGTERM', passOn);
  const child = spawn(process.execPath, [...process.execArgv, BASELINE_COMPILER_ONLY, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', waitForChild);
      process.off('SIGTERM', passOn);
      resolve(code ?? 128 + (signal === null ? 0 : os.constants.signals[signal]));
    });
  });
}
