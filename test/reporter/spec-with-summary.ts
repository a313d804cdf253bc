// mocha's spec reporter, followed by one plain closing line: "tests: N passed, N failed, N skipped".
// CI services read a run's closing line to count what it executed; mocha's own "N passing" is not a
// format they know, so without this line a green run can be recorded as one that ran no test.
// The line is written when the process exits, so that it stays the last line: the global teardown
// (stopping workers, PostgreSQL and the Temporal dev server) runs after mocha's summary and can log.
import Mocha from 'mocha';

class SpecWithSummary extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes = 0, failures = 0, pending = 0 } = this.stats;
      // Writes to a pipe, a file or a terminal are synchronous on Linux, so this lands before exit.
      process.once('exit', () => process.stdout.write(`\ntests: ${passes} passed, ${failures} failed, ${pending} skipped\n`));
    });
  }
}

export = SpecWithSummary;
