import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import path from 'node:path';
import { ensureChromium, ensureJava, MissingPrerequisite } from '../services/local/prerequisites';
import {
  type LocalStack,
  repoRoot,
  stackEnvironment,
  startLocalStack,
  testPorts,
  webEnvironment,
} from '../services/local/stack';
import { rateLimits, scaleRateLimits } from '../services/src/rate-limits';

/**
 * `npm test`: every test, on a fresh machine. It installs or names what the machine lacks (Java
 * for DynamoDB Local, Chromium for browser tests), starts the local stack on test ports (beside
 * any running dev stack) and runs the Vitest projects: the fast ones in parallel on it; beside
 * them, on a stack of their own with the web app built and served there, the browser journeys;
 * and on a third stack, one at a time, the two files that run alone.
 * `npm test -- services e2e` runs only those projects; `npm test -- services orders.test` only the
 * matching files.
 */
const allProjects = ['events', 'services', 'web', 'infra', 'e2e'] as const;
type Project = (typeof allProjects)[number];

const words = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
// A word with a dot or a slash is a file filter for Vitest (`npm test -- services orders.test`).
const fileFilters = words.filter((word) => /[./]/.test(word));
const requested = words.filter((word) => !fileFilters.includes(word)) as Project[];
const unknown = requested.filter((p) => !allProjects.includes(p));
if (unknown.length) {
  console.error(`Unknown test project(s): ${unknown.join(', ')}. Known: ${allProjects.join(', ')}`);
  process.exit(2);
}
const projects: readonly Project[] = requested.length ? requested : allProjects;
/** Set on the run that serves only the browser journeys for another (below). */
const browserOnly = process.env.TEST_BROWSER_ONLY === '1';
/**
 * With other projects, the browser journeys run beside them in a run of this script of their own,
 * on a stack of their own: one file at a time, they leave about two fifths of the two cores idle
 * (waiting on the browser and the workers), which the parallel run fills. On their own stack no
 * other test's orders, payments or users show in their pages or totals.
 */
const browserBeside =
  !browserOnly && process.env.TEST_ALONE_ONLY !== '1' && projects.includes('e2e') && projects.some((p) => p !== 'e2e');
const projectsHere = browserBeside ? projects.filter((p) => p !== 'e2e') : projects;
const needsStack = projectsHere.some((p) => p === 'services' || p === 'e2e');
const needsBrowser = projectsHere.includes('e2e');
// TEST_PORT_OFFSET lets two test runs share a machine (each on its own ports and data folder).
const portOffset = Number(process.env.TEST_PORT_OFFSET ?? 0);
const ports = Object.fromEntries(
  Object.entries(testPorts).map(([name, port]) => [name, port + portOffset]),
) as typeof testPorts;
const dataDir = path.join(repoRoot, '.local', portOffset ? `test-${portOffset}` : 'test');
const webDist = path.join(dataDir, 'web-dist');
const loginJsReport = path.join(dataDir, 'login-js.txt');

/** Children still running: stopped when this run exits early (a failure, a CI timeout's SIGTERM). */
const running = new Set<ReturnType<typeof spawn>>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

const run = (command: string, args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<number>((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, cwd: repoRoot });
    running.add(child);
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? (signal ? 1 : 0));
    });
  });

const counts = { passed: 0, failed: 0, skipped: 0 };

/**
 * Files that run one at a time on a stack of their own: one pages through the marketplace-wide
 * pool of open orders from end to end and needs it to hold still (other files add and claim open
 * orders all the time); the other writes about 115,000 items, and DynamoDB Local serves every
 * table from one thread, so beside it every other file's requests would queue. On their own
 * stack (its own ports, data and DynamoDB Local) they run at the same time as the parallel run.
 */
const runAlone = ['services/test/editor-orders.test.ts', 'services/test/flat-route-reads.test.ts'];
const aloneFiles = runAlone.filter((file) => !fileFilters.length || fileFilters.some((f) => file.includes(f)));
/** The private stack's ports: clear of the test stack's, the dev stack's and dev-restart.test's. */
const ALONE_PORT_OFFSET = 70;
/** Set on the run that serves only the files above, so it neither starts another nor runs the rest. */
const aloneOnly = process.env.TEST_ALONE_ONLY === '1';
const withAlone = projectsHere.includes('services') && aloneFiles.length > 0;
/**
 * Only the files that run alone were asked for (or this is the run that serves them): they run
 * here, one at a time. Otherwise they run beside the parallel run, on a stack of their own and a
 * DynamoDB Local that has served nothing else (after the parallel run its writes were some 20
 * times slower, and the flat-reads file took over 15 minutes instead of one).
 */
const onlyAlone =
  aloneOnly ||
  (withAlone &&
    projectsHere.length === 1 &&
    fileFilters.length > 0 &&
    fileFilters.every((filter) => runAlone.some((file) => file.includes(filter))));

/** Adds a finished Vitest run's JSON report to the counts; false when there was none. */
const countResults = (results: string) => {
  if (!existsSync(results)) return false;
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  counts.passed += summary.numPassedTests ?? 0;
  // A file whose set-up fails fails no test of its own: count it, or the summary reads 0 failed.
  const failedSuitesWithoutFailedTests = (summary.testResults ?? []).filter(
    (file: { status: string; assertionResults: { status: string }[] }) =>
      file.status === 'failed' && !file.assertionResults.some((test) => test.status === 'failed'),
  ).length;
  counts.failed += (summary.numFailedTests ?? 0) + failedSuitesWithoutFailedTests;
  // Errors outside any test (an unhandled rejection, a file that failed to load) fail the report.
  if (summary.success === false && !(summary.numFailedTests ?? 0) && !failedSuitesWithoutFailedTests)
    counts.failed += 1;
  counts.skipped += (summary.numPendingTests ?? 0) + (summary.numTodoTests ?? 0);
  return true;
};

const resultsFile = (dir: string, label: string) => path.join(dir, `results-${label}.json`);

/** The private stacks' ports: clear of the test stack's, the dev stack's, dev-restart.test's and each other's. */
const BROWSER_PORT_OFFSET = 140;
const initialEnvironment = { ...process.env };

/**
 * A run of this script of its own for one part of the tests (its own stack on its own ports and
 * data folder), with this process's environment as it came; started now, awaited later, its
 * report counted with the rest.
 */
const startChildRun = (part: { args: string[]; offset: number; flag: string; report: string }) => {
  const offset = portOffset + part.offset;
  const report = resultsFile(path.join(repoRoot, '.local', `test-${offset}`), part.report);
  rmSync(report, { force: true });
  const code = run(process.execPath, [...process.execArgv, process.argv[1]!, ...part.args], {
    ...initialEnvironment,
    TEST_PORT_OFFSET: String(offset),
    [part.flag]: '1',
  });
  return code.then((exit) => {
    if (!countResults(report) && exit !== 0) counts.failed += 1;
    return exit;
  });
};

/** The files that run alone, one at a time on their own stack. */
const startAloneRun = () =>
  startChildRun({
    args: ['services', ...aloneFiles],
    offset: ALONE_PORT_OFFSET,
    flag: 'TEST_ALONE_ONLY',
    report: 'services-alone',
  });

/** The browser journeys, on their own stack, with the web app built and served there. */
const browserRunDir = path.join(repoRoot, '.local', `test-${portOffset + BROWSER_PORT_OFFSET}`);
const startBrowserRun = () =>
  startChildRun({
    args: ['e2e', ...fileFilters],
    offset: BROWSER_PORT_OFFSET,
    flag: 'TEST_BROWSER_ONLY',
    report: 'e2e',
  });

const vitest = async (group: Project[], env: NodeJS.ProcessEnv, options: { label?: string; args?: string[] } = {}) => {
  if (!group.length) return 0;
  const results = resultsFile(dataDir, options.label ?? group.join('-'));
  rmSync(results, { force: true });
  const code = await run(
    process.execPath,
    [
      path.join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      ...group.flatMap((p) => ['--project', p]),
      ...(options.args ?? fileFilters),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${results}`,
    ],
    env,
  );
  if (!countResults(results) && code !== 0) counts.failed += 1;
  return code;
};

const main = async () => {
  mkdirSync(dataDir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env };
  let stack: LocalStack | undefined;
  let closeWeb: (() => Promise<void>) | undefined;
  let besideRun: Promise<number> | undefined;
  try {
    if (needsStack || browserBeside) ensureJava();
    if (needsBrowser || browserBeside) env.CHROMIUM_PATH = ensureChromium();
    const browserRun = browserBeside ? startBrowserRun() : undefined;
    // The browser journeys are one long chain of files, and the rest fills the cores around them:
    // this run and all it starts from now on (its stack, the parallel run, the files that run
    // alone) yield the CPU to them when both want it.
    if (browserRun) setPriority(Math.min(19, getPriority() + 5));
    // The files that run alone, beside the rest from the start (after them for the CPU).
    besideRun = withAlone && !onlyAlone ? startAloneRun() : undefined;

    if (needsStack) {
      console.log('Starting the local stack for tests...');
      stack = await startLocalStack({
        ports: ports,
        dataDir,
        persist: false,
        log: () => {},
        // Every test file and the browser reach the API from 127.0.0.1, one address for the whole
        // suite: the services tests send up to about 1,500 requests a minute, 170 of them to public
        // routes (measured). The declared limits themselves are checked by client-rate-limits.test,
        // on a gateway of its own.
        rateLimits: scaleRateLimits(rateLimits, 20),
      });
      Object.assign(env, stackEnvironment(ports), { API_URL: `http://127.0.0.1:${ports.gateway}` });
    }

    if (needsBrowser) {
      console.log('Building the web app for browser tests...');
      Object.assign(process.env, webEnvironment(ports), { WEB_PORT: String(ports.web) });
      const vite = await import('vite');
      const configFile = path.join(repoRoot, 'web', 'vite.config.ts');
      const root = path.join(repoRoot, 'web');
      await vite.build({ configFile, root, logLevel: 'warn', build: { outDir: webDist, emptyOutDir: true } });
      const preview = await vite.preview({
        configFile,
        root,
        build: { outDir: webDist },
        preview: { port: ports.web, strictPort: true, host: '127.0.0.1' },
      });
      closeWeb = () => new Promise((resolve) => preview.httpServer.close(() => resolve()));
      env.WEB_URL = `http://127.0.0.1:${ports.web}`;
      // The browser tests' size budget writes what a first visit to /login downloads here for the report.
      env.LOGIN_JS_REPORT = loginJsReport;
      rmSync(loginJsReport, { force: true });
    }

    const fast = projectsHere.filter((p) => p !== 'e2e');
    const browser = projectsHere.filter((p) => p === 'e2e');
    const aloneRun =
      withAlone && onlyAlone
        ? vitest(['services'], env, { label: 'services-alone', args: [...aloneFiles, '--maxWorkers=1'] })
        : (besideRun ?? Promise.resolve(0));
    const fastCode = onlyAlone
      ? 0
      : await vitest(fast, env, {
          args: [
            ...fileFilters,
            ...runAlone.flatMap((file) => ['--exclude', `**/${path.basename(file)}`]),
            '--passWithNoTests',
          ],
        });
    const browserCode = browserRun ? await browserRun : await vitest(browser, env);
    const aloneCode = await (besideRun ?? aloneRun);
    console.log(`\nAll projects (${projects.join(', ')}):`);
    console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    const loginJs = browserRun ? path.join(browserRunDir, path.basename(loginJsReport)) : loginJsReport;
    if (existsSync(loginJs)) console.log(`JavaScript of a first visit to /login: ${readFileSync(loginJs, 'utf8')}`);
    // The reports decide: each run's report counts its failures and errors, and a run that ended
    // without one counts as failed. A run's exit code alone is not: the runs beside this one have
    // exited 1 after a complete, successful report (while stopping their stacks; not yet found).
    if (fastCode || aloneCode || browserCode)
      console.log(
        `Exit codes: parallel run ${fastCode}, files run alone ${aloneCode}, browser journeys ${browserCode}`,
      );
    return counts.failed > 0 ? 1 : 0;
  } finally {
    await closeWeb?.();
    await stack?.stop();
  }
};

// Ctrl-C or a CI timeout: exit, and the child-process registry kills the emulators on the way out.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error instanceof MissingPrerequisite ? error.message : error);
    process.exit(1);
  });
