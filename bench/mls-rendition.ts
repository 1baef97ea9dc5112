import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInChild } from './child-run';

/**
 * The MLS-ready copy of one edited photo against the least reading that photo can cost, on the
 * same files in the same run. Each run is its own child process, so its time and peak RSS are its own:
 *
 * - `mls-copy`: what the rendition worker does with a file it has read to disk
 *   (`renderMlsCopy`): decode upright at the long edge, flatten, sRGB, 8 bits, then JPEG with the
 *   sRGB profile, searched down from quality 90 until under 4 MB (shrunk further past quality 60).
 * - `plain-resize`: one JPEG at quality 90 at the same long edge, straight from the file with sharp:
 *   no profile, no copyright, no search. What the copy's extra care costs is the difference.
 * - `decode`: sharp decoding the whole file to raw pixels at full size, the floor of any tool that
 *   reads every pixel.
 *
 *   npx tsx bench/mls-rendition.ts [runs]      (default 3; the median is reported)
 *
 * The inputs are made first in a temporary folder, each about 25 MB, of noise (noise does not
 * compress, so the JPEG is as large as a detailed real one and the quality search has the most to
 * do): a 31-megapixel JPEG at quality 95, an 8-bit uncompressed TIFF and a 16-bit one. S3 is left
 * out: the worker first copies the object to a temporary file; that transfer is the zip bench's subject.
 */
const here = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

type Method = 'mls-copy' | 'plain-resize' | 'decode';
interface RunResult {
  seconds: number;
  peakRssMb: number;
  startRssMb: number;
  detail: string;
}

/** In the child: one run, timed around the work only; prints its result as one JSON line. */
const runChild = async (method: Method, file: string, longEdge: number) => {
  const sharp = (await import('sharp')).default;
  const { renderMlsCopy } = await import('../services/src/domain/mls-rendition');
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  let detail: string;
  if (method === 'decode') {
    const { data, info } = await sharp(file, { limitInputPixels: false }).raw().toBuffer({ resolveWithObject: true });
    detail = `${info.width}x${info.height}, ${(data.length / MB).toFixed(0)} MB of 8-bit pixels`;
  } else if (method === 'plain-resize') {
    const { info } = await sharp(file)
      .resize({ width: longEdge, height: longEdge, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 90 })
      .toBuffer({ resolveWithObject: true });
    detail = `${info.width}x${info.height} ${(info.size / MB).toFixed(2)} MB`;
  } else {
    const result = await renderMlsCopy(file, { longEdge });
    if (!result.readable) throw new Error(result.reason);
    const { copy } = result;
    detail = `${copy.width}x${copy.height} ${(copy.bytes / MB).toFixed(2)} MB, quality ${copy.quality}, ${copy.encodes} encode${copy.encodes === 1 ? '' : 's'}`;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ seconds, peakRssMb: peak / MB, startRssMb: startRss / MB, detail } satisfies RunResult));
};

const child = (method: Method, file: string, longEdge: number) =>
  runInChild<RunResult>(here, ['--child', method, file, String(longEdge)], `${method} on ${path.basename(file)}`);

/** The inputs, made once: about 25 MB each, of noise. */
const makeInputs = async (dir: string) => {
  const sharp = (await import('sharp')).default;
  const noise = (width: number, height: number) =>
    sharp({
      create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    });
  const files = {
    jpeg: path.join(dir, 'photo.jpg'),
    tiff8: path.join(dir, 'photo-8bit.tif'),
    tiff16: path.join(dir, 'photo-16bit.tif'),
  };
  // A 31-megapixel frame; at quality 95 this noise is about 25 MB.
  await noise(6816, 4544).jpeg({ quality: 95 }).toFile(files.jpeg);
  // Uncompressed: 3 bytes a pixel at 8 bits, 6 at 16 bits.
  await noise(3600, 2400).tiff({ compression: 'none' }).toFile(files.tiff8);
  await noise(2560, 1700).toColourspace('rgb16').tiff({ compression: 'none' }).toFile(files.tiff16);
  return files;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const main = async () => {
  const runs = Number(process.argv[2] ?? 3);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mls-bench-'));
  try {
    const files = await makeInputs(dir);
    const cases: { input: keyof typeof files; method: Method; longEdge: number }[] = [];
    for (const input of ['jpeg', 'tiff8', 'tiff16'] as const) {
      cases.push({ input, method: 'decode', longEdge: 0 });
      for (const longEdge of [2048, 3000]) {
        cases.push({ input, method: 'mls-copy', longEdge }, { input, method: 'plain-resize', longEdge });
      }
    }
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log(
      `${cpu}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB, Node ${process.version}; load average ${os.loadavg()[0]!.toFixed(1)}; median of ${runs}`,
    );
    console.log('| Input | Size | Run | Long edge | Time | Peak RSS | RSS at start | Output |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const { input, method, longEdge } of cases) {
      const results: RunResult[] = [];
      for (let i = 0; i < runs; i++) results.push(await child(method, files[input], longEdge));
      const size = `${(statSync(files[input]).size / MB).toFixed(1)} MB`;
      console.log(
        `| ${input} | ${size} | ${method} | ${longEdge || '-'} | ${median(results.map((r) => r.seconds)).toFixed(2)} s | ${median(results.map((r) => r.peakRssMb)).toFixed(0)} MB | ${median(results.map((r) => r.startRssMb)).toFixed(0)} MB | ${results[0]!.detail} |`,
      );
    }
    console.log(`load average ${os.loadavg()[0]!.toFixed(1)} at the end`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[2] === '--child') {
  await runChild(process.argv[3] as Method, process.argv[4]!, Number(process.argv[5]));
} else {
  await main();
}
