import { execFileSync, spawnSync } from 'node:child_process';

/**
 * The two things the stack needs from the operating system: Java 17+ (DynamoDB Local) and, for
 * browser tests, Chromium. As root on Debian we install them; otherwise we stop with one line.
 */
const canInstallWithApt = () => process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;

const aptInstall = (packages: string[]) => {
  console.log(`Installing ${packages.join(' ')} from Debian's packages...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
};

export const javaMajorVersion = (): number | null => {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (!match) return null;
  // Java 8 reports itself as "1.8".
  return match[1] === '1' ? Number(match[2]) : Number(match[1]);
};

export class MissingPrerequisite extends Error {}

export const ensureJava = () => {
  const version = javaMajorVersion();
  if (version !== null && version >= 17) return;
  if (canInstallWithApt()) {
    aptInstall(['openjdk-17-jre-headless']);
    if ((javaMajorVersion() ?? 0) >= 17) return;
  }
  throw new MissingPrerequisite(
    `DynamoDB Local needs Java 17 or newer (found ${version ?? 'none'}): install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless) and run again.`,
  );
};

const chromiumCandidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export const findChromium = () =>
  [process.env.CHROMIUM_PATH, ...chromiumCandidates].find(
    (candidate) => candidate && spawnSync(candidate, ['--version']).status === 0,
  );

export const ensureChromium = () => {
  const found = findChromium();
  if (found) return found;
  if (canInstallWithApt()) {
    aptInstall(['chromium', 'fonts-liberation']);
    const installed = findChromium();
    if (installed) return installed;
  }
  throw new MissingPrerequisite(
    'Browser tests need Chromium: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH, and run again.',
  );
};
