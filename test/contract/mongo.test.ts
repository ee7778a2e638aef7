/**
 * The store contracts against a real MongoDB (a replica set: the adapters use transactions).
 * Runs only when MONGODB_URI is set; each test works on a database of its own, dropped after it.
 */
import { randomBytes } from 'node:crypto';
import { MongoArchiveDatabase } from '../../src/store/mongo/mongo-database.ts';
import { MongoRecordStore } from '../../src/store/mongo/mongo-record-store.ts';
import { MongoSubmissionQueue } from '../../src/store/mongo/mongo-submissions.ts';
import { MongoTokenStore } from '../../src/store/mongo/mongo-tokens.ts';
import { recordStoreContract } from './record-store.contract.ts';
import { submissionQueueContract } from './submission-queue.contract.ts';
import { tokenStoreContract } from './token-store.contract.ts';

const uri = process.env.MONGODB_URI;

/** A fresh database with every collection and index, and a function that drops it. */
async function openFreshDatabase(mongoUri: string) {
  const database = await MongoArchiveDatabase.open({ uri: mongoUri, database: `archive_contract_${randomBytes(6).toString('hex')}` }, { createIndexes: true });
  const dispose = async (): Promise<void> => {
    try {
      await database.drop();
    } finally {
      await database.close();
    }
  };
  return { database, dispose };
}

if (!uri) {
  console.log('SKIPPED MongoDB contract suites: set MONGODB_URI to run them');
} else {
  recordStoreContract('MongoDB', async () => {
    const { database, dispose } = await openFreshDatabase(uri);
    const store = new MongoRecordStore(database);
    return { store, sources: store, dispose };
  });

  submissionQueueContract('MongoDB', async (clock) => {
    const { database, dispose } = await openFreshDatabase(uri);
    return { queue: new MongoSubmissionQueue(database, clock), dispose };
  });

  tokenStoreContract('MongoDB', async () => {
    const { database, dispose } = await openFreshDatabase(uri);
    return { tokens: new MongoTokenStore(database), dispose };
  });
}
