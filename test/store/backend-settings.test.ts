import { expect } from 'chai';
import { ConfigError, loadBackendSettings, loadConfig } from '../../src/config.ts';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadBackendSettings(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('backend settings (ARCHIVE_STORE, ARCHIVE_SEARCH)', () => {
  it('defaults to the embedded store and search', () => {
    expect(loadBackendSettings({})).to.deep.equal({ store: { kind: 'embedded' }, search: { kind: 'embedded' } });
    expect(loadConfig({})).to.deep.include({ store: { kind: 'embedded' }, search: { kind: 'embedded' } });
  });

  it('names the ARCHIVE_ variables set that no setting read: misspelt, or of no effect with this configuration', () => {
    expect(loadConfig({ ARCHIVE_WORKERS: '2', PATH: '/bin' })).to.not.have.property('unreadVariables');
    const config = loadConfig({ ARCHIVE_WROKERS: '2', ARCHIVE_WORKERS: '2', ARCHIVE_METRICS_HOST: '0.0.0.0', HOME: '/root' });
    // The metrics host is read only with a metrics port; HOME is not the archive's.
    expect(config.unreadVariables).to.deep.equal(['ARCHIVE_WROKERS', 'ARCHIVE_METRICS_HOST']);
  });

  it('reads the production pair with its connection settings', () => {
    const settings = loadBackendSettings({ ARCHIVE_STORE: 'mongo', MONGODB_URI: 'mongodb://mongo:27017/?replicaSet=rs0', ARCHIVE_SEARCH: 'meili', MEILI_URL: 'http://meili:7700/', MEILI_API_KEY: 'secret' });
    expect(settings).to.deep.equal({
      store: { kind: 'mongo', uri: 'mongodb://mongo:27017/?replicaSet=rs0', database: 'archive' },
      search: { kind: 'meili', url: 'http://meili:7700', apiKey: 'secret' },
    });
    expect(loadBackendSettings({ ARCHIVE_STORE: 'mongo', MONGODB_URI: 'mongodb+srv://c.example/', MONGODB_DATABASE: 'works', ARCHIVE_SEARCH: 'meili', MEILI_URL: 'https://m.example' }).store).to.deep.equal({
      kind: 'mongo',
      uri: 'mongodb+srv://c.example/',
      database: 'works',
    });
  });

  it('allows the embedded store with Meilisearch', () => {
    expect(loadBackendSettings({ ARCHIVE_SEARCH: 'meili', MEILI_URL: 'http://127.0.0.1:7700' })).to.deep.equal({ store: { kind: 'embedded' }, search: { kind: 'meili', url: 'http://127.0.0.1:7700' } });
  });

  it('puts MEILI_INDEX_PREFIX before the index names, and refuses characters index names cannot hold', () => {
    expect(loadBackendSettings({ ARCHIVE_SEARCH: 'meili', MEILI_URL: 'http://127.0.0.1:7700', MEILI_INDEX_PREFIX: 'staging_' }).search).to.deep.equal({ kind: 'meili', url: 'http://127.0.0.1:7700', indexPrefix: 'staging_' });
    expect(problemsOf({ ARCHIVE_SEARCH: 'meili', MEILI_URL: 'http://127.0.0.1:7700', MEILI_INDEX_PREFIX: 'a.b' })).to.deep.equal(['MEILI_INDEX_PREFIX may hold only letters, digits, dashes and underscores (at most 200), got "a.b"']);
  });

  it('names every missing or bad setting at once', () => {
    const problems = problemsOf({ ARCHIVE_STORE: 'mongo', ARCHIVE_SEARCH: 'meili' });
    expect(problems.join('\n')).to.match(/MONGODB_URI is required/).and.match(/MEILI_URL is required/);
    expect(problemsOf({ ARCHIVE_STORE: 'postgres', ARCHIVE_SEARCH: 'elastic' })).to.have.length(2);
    expect(problemsOf({ ARCHIVE_STORE: 'mongo', MONGODB_URI: 'http://mongo', MONGODB_DATABASE: 'a.b', ARCHIVE_SEARCH: 'meili', MEILI_URL: 'meili:7700' })).to.have.length(3);
  });

  it('takes an origin as ARCHIVE_BASE_URL, with or without a trailing slash, and refuses one with a path', () => {
    expect(loadConfig({ ARCHIVE_BASE_URL: 'https://archive.example.org/' }).baseUrl).to.equal('https://archive.example.org');
    let problems: string[] = [];
    try {
      loadConfig({ ARCHIVE_BASE_URL: 'https://archive.example.org/archive/' });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).to.deep.equal([
      'ARCHIVE_BASE_URL must be an origin without a path (e.g. https://archive.example.org), got "https://archive.example.org/archive": the archive is served at the root of its host',
    ]);
  });

  it('refuses a MongoDB store with the embedded search index', () => {
    const problems = problemsOf({ ARCHIVE_STORE: 'mongo', MONGODB_URI: 'mongodb://mongo:27017' });
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(/ARCHIVE_STORE=mongo needs ARCHIVE_SEARCH=meili/);
    expect(() => loadConfig({ ARCHIVE_STORE: 'mongo', MONGODB_URI: 'mongodb://mongo:27017' })).to.throw(ConfigError);
  });
});
