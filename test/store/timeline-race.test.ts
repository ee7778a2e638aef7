import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Backend } from '../../src/backend.ts';
import { galleryIdOf } from '../../src/domain/ingest/timeline.ts';
import type { CanonicalRecord } from '../../src/domain/record.ts';
import { workKey } from '../../src/domain/sources.ts';
import { openEmbeddedBackend } from '../helpers/backend.ts';
import { makeRecord } from '../helpers/factories.ts';

/** Models raced on: each gets one work from each of the two publishers, both sent at once. */
const MODELS = 300;
/** Works raced on: each published by both publishers at once, from a submission of each. */
const SAME_WORKS = 100;

interface Racer {
  /** The next line the process prints. */
  line(): Promise<string>;
  send(line: string): void;
  end(): Promise<void>;
}

/** Starts a publisher process over the database file with these works; it publishes one for each go. */
function startRacer(databaseFile: string, worksFile: string, mode: 'works' | 'previews'): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/racing-publisher.ts', databaseFile, worksFile, mode], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const failed = async (): Promise<never> => {
    throw new Error(`a publisher exited with ${await exited}: ${stderr}`);
  };
  return {
    line: async () => Promise.race([lines.next().then((next) => (next.done ? failed() : next.value)), exited.then(failed)]),
    send: (line) => child.stdin.write(`${line}\n`),
    end: async () => {
      child.stdin.end();
      if ((await exited) !== 0) await failed();
    },
  };
}

/** A publisher process for each side's works (written to files named after `name`), once each has said it is ready; with 'previews' they judge the works' previews too. */
async function startRacers(dataDir: string, name: string, sides: readonly CanonicalRecord[][], mode: 'works' | 'previews' = 'works'): Promise<Racer[]> {
  const databaseFile = join(dataDir, 'archive.sqlite');
  const racers = sides.map((works, side) => {
    const worksFile = join(dataDir, `${name}-${side}.json`);
    writeFileSync(worksFile, JSON.stringify(works));
    return startRacer(databaseFile, worksFile, mode);
  });
  for (const racer of racers) expect(await racer.line()).to.equal('ready');
  return racers;
}

/** Sends every racer "go" at once, `rounds` times, and gives back each round's answers, sorted; the racers have exited after. */
async function race(racers: readonly Racer[], rounds: number): Promise<string[][]> {
  const answers: string[][] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const racer of racers) racer.send('go');
    const pair: string[] = [];
    for (const racer of racers) pair.push(await racer.line());
    answers.push(pair.sort());
  }
  await Promise.all(racers.map((racer) => racer.end()));
  return answers;
}

/**
 * Two publisher processes on one SQLite file publish works of the same models at the same
 * moment, as `npm run indexer` beside `npm start` does: every model must end with exactly one
 * timeline record, its earliest work's, whichever process wrote first.
 */
describe('the timeline rule across publisher processes (embedded store)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let backend: Backend;
  let dispose: () => Promise<void>;

  before(async () => {
    ({ dataDir, backend, dispose } = await openEmbeddedBackend());
  });
  after(() => dispose());

  it(`gives each of ${MODELS} models one timeline record when two processes publish its works at once`, async () => {
    // For each model a work from each side; which one is earlier alternates, and ties are decided by id.
    const sides: CanonicalRecord[][] = [[], []];
    for (let index = 0; index < MODELS; index += 1) {
      const model = `Raced-Model-${index}`;
      const dates = index % 3 === 0 ? ['2025-03-01', '2025-03-01'] : index % 2 === 0 ? ['2025-02-01', '2025-04-01'] : ['2025-04-01', '2025-02-01'];
      dates.forEach((date, side) => sides[side]?.push(makeRecord({ model, date, sourceUrl: `https://github.com/racer-${side}/work-${index}`, submissionId: `sub_race_${side}_${index}` })));
    }
    // Both publish their work of a model at the same moment, model after model.
    const answers = await race(await startRacers(dataDir, 'works', sides), MODELS);
    expect(answers.filter((pair) => pair.join() !== 'published,published'), 'both sides published').to.deep.equal([]);

    const wrong: string[] = [];
    for (let index = 0; index < MODELS; index += 1) {
      const ofModel = await backend.store.findByModel(`Raced-Model-${index}`);
      const timeline = ofModel.filter((record) => record.kind === 'timeline');
      const [earliest] = ofModel.filter((record) => record.kind === 'gallery');
      if (ofModel.length - timeline.length !== 2) wrong.push(`Raced-Model-${index}: ${ofModel.length - timeline.length} gallery records`);
      if (timeline.length !== 1 || galleryIdOf(timeline[0] as CanonicalRecord) !== earliest?.id) wrong.push(`Raced-Model-${index}: timeline of ${timeline.map((record) => galleryIdOf(record)).join(', ') || 'nothing'}, earliest work ${earliest?.id}`);
    }
    expect(wrong, `${wrong.length} of ${MODELS} models broke the rule`).to.deep.equal([]);
  });

  it(`publishes each of ${SAME_WORKS} works once when two processes publish it from different submissions at once`, async () => {
    // The same source URL from each side (in another case on one side: the same work key), told apart by submission and title.
    const sides: CanonicalRecord[][] = [0, 1].map((side) =>
      Array.from({ length: SAME_WORKS }, (_, index) =>
        makeRecord({ model: `Same-Work-Model-${index}`, date: '2025-05-01', sourceUrl: `https://github.com/${side ? 'Racer' : 'racer'}/same-work-${index}`, submissionId: `sub_same_${side}_${index}`, title: { zh: `第${side}边`, en: `Side ${side}` } }),
      ),
    );
    const answers = await race(await startRacers(dataDir, 'same-works', sides), SAME_WORKS);
    expect(answers.filter((pair) => pair.join() !== 'duplicate,published'), 'one side published, the other found it').to.deep.equal([]);
    for (let index = 0; index < SAME_WORKS; index += 1) {
      const ofModel = await backend.store.findByModel(`Same-Work-Model-${index}`);
      expect(new Set(ofModel.map((record) => record.submissionId)).size, `Same-Work-Model-${index}`).to.equal(1);
    }
  });

  it(`publishes each of ${SAME_WORKS} works once when two processes publish it under two model labels at once`, async () => {
    // The same work credited to a different model label by each side: one source URL (in another
    // case on one side), or for odd works one x.com status under two handles (two URLs, one work key).
    const sourceOf = (side: number, index: number): string => (index % 2 ? `https://x.com/${side ? 'bob' : 'alice'}/status/17${index}` : `https://github.com/${side ? 'Labels' : 'labels'}/same-work-${index}`);
    const sides: CanonicalRecord[][] = [0, 1].map((side) =>
      Array.from({ length: SAME_WORKS }, (_, index) => makeRecord({ model: `Labelled-${side}-Model-${index}`, date: '2025-06-01', sourceUrl: sourceOf(side, index), submissionId: `sub_label_${side}_${index}` })),
    );
    const answers = await race(await startRacers(dataDir, 'labelled-works', sides), SAME_WORKS);
    expect(answers.filter((pair) => pair.join() !== 'duplicate,published'), 'one side published, the other found it').to.deep.equal([]);
    for (let index = 0; index < SAME_WORKS; index += 1) {
      const ofWork = await backend.store.findByWorkKey(workKey(sourceOf(0, index)));
      expect(new Set(ofWork.map((record) => record.submissionId)).size, `same-work-${index}`).to.equal(1);
    }
  });

  it(`publishes one of two works that share a preview when two processes publish them at once, ${SAME_WORKS} times`, async () => {
    // Two works of two models and sources; their previews are the same bytes, or for odd pairs a
    // perceptual copy (another SHA-256, the blockhash 2 bits away).
    const hashOf = (index: number): string => createHash('sha256').update(`shared-preview-${index}`).digest('hex');
    const sides: CanonicalRecord[][] = [0, 1].map((side) =>
      Array.from({ length: SAME_WORKS }, (_, index) => {
        const copy = side === 1 && index % 2 === 1;
        const blockhash = copy ? `${hashOf(index).slice(0, 63)}${(Number.parseInt(hashOf(index).slice(63), 16) ^ 3).toString(16)}` : hashOf(index);
        const sha256 = copy ? createHash('sha256').update(`copy-${index}`).digest('hex') : createHash('sha256').update(`bytes-${index}`).digest('hex');
        const media = [{ path: `${sha256.slice(0, 2)}/${sha256}.png`, width: 640, height: 480, sha256, blockhash }];
        return makeRecord({ model: `Shared-Preview-${side}-Model-${index}`, date: '2025-07-01', sourceUrl: `https://github.com/preview-side-${side}/work-${index}`, submissionId: `sub_preview_${side}_${index}`, mediaStatus: 'local-media', media });
      }),
    );
    const answers = await race(await startRacers(dataDir, 'shared-previews', sides, 'previews'), SAME_WORKS);
    expect(answers.filter((pair) => pair.join() !== 'duplicate,published'), 'one side published, the other found its preview').to.deep.equal([]);
  });
});
