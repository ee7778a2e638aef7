import { expect } from 'chai';
import { ThreadedPublisher } from '../../indexer/threaded-publisher.ts';
import { createLogger } from '../../src/logger.ts';

/** A logger that keeps the messages it is given. */
function keptLogger(): { logger: ReturnType<typeof createLogger>; messages: string[] } {
  const messages: string[] = [];
  const logger = createLogger('info', (line) => messages.push((JSON.parse(line) as { msg: string }).msg));
  return { logger, messages };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the publisher on a thread of the primary', function () {
  this.timeout(30_000);

  it('starts another thread when one dies unasked, and stops for good once asked', async () => {
    const { logger, messages } = keptLogger();
    const started: string[] = [];
    // A thread that says it started, then dies, as one would on an error the publisher does not catch.
    const thread = `require('node:worker_threads').parentPort.postMessage({ type: 'outcome', outcome: 'failed' }); setTimeout(() => process.exit(3), 20);`;
    const publisher = new ThreadedPublisher(logger, (outcome) => started.push(outcome), thread);
    publisher.start();
    // Stopped while a restart is due: the second thread has died, the third is not started yet.
    await until(() => messages.filter((message) => message === 'the publisher thread exited; starting another').length >= 2, 'two restarts');
    await publisher.stop();
    const threads = started.length;
    // Longer than the delay before a restart.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(started, 'no thread started after stop').to.have.length(threads);
  });

  it('hands the outcomes the thread reports to observe, and stop waits for the thread to end', async () => {
    const { logger, messages } = keptLogger();
    const outcomes: string[] = [];
    // A thread that reports two outcomes, then stops when told to, as publisher-thread.ts does.
    const thread = `
      const { parentPort } = require('node:worker_threads');
      parentPort.postMessage({ type: 'outcome', outcome: 'published' });
      parentPort.postMessage({ type: 'outcome', outcome: 'duplicate' });
      parentPort.on('message', (command) => {
        if (command.type === 'stop') { parentPort.postMessage({ type: 'stopped' }); parentPort.close(); }
      });`;
    const publisher = new ThreadedPublisher(logger, (outcome) => outcomes.push(outcome), thread);
    publisher.start();
    await until(() => outcomes.length === 2, 'two outcomes');
    await publisher.stop();
    expect(outcomes).to.deep.equal(['published', 'duplicate']);
    expect(messages, 'a thread asked to stop is not restarted').to.deep.equal([]);
  });
});
