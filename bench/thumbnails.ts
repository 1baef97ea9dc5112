import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInChild } from './child-run';

/**
 * The thumbnail worker's picture work against the least a thumbnail can cost, on the same files in
 * the same run. Each run is its own child process, so its time and peak RSS are its own:
 *
 * - `renditions`: what the worker does with a picture sharp reads (JPEG, PNG, TIFF): decode once
 *   at preview size, encode the 2048 px preview and the 400 px thumbnail in WebP.
 * - `raw-renditions`: what it does with a RAW: find the largest embedded JPEG in the file's bytes,
 *   then the same two renditions from it.
 * - `baseline`: one 400 px WebP straight from the file with sharp (for the RAW: from its preview's
 *   bytes, already cut out), the shortest path to a thumbnail.
 *
 *   npx tsx bench/thumbnails.ts [runs]      (default 3; the median is reported)
 *
 * The inputs are made first in a temporary folder: a 24-megapixel JPEG, PNG and TIFF of noise
 * (noise does not compress, so the files are as large as real ones), and a 25 MB DNG-shaped RAW
 * whose SubIFD holds a 24-megapixel JPEG preview. S3 is left out: the worker reads the object to
 * a temporary file (pictures) or into memory (RAWs) first; that transfer is the zip bench's subject.
 */
const here = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

type Method = 'renditions' | 'raw-renditions' | 'baseline';
interface RunResult {
  seconds: number;
  peakRssMb: number;
  detail: string;
}

/** In the child: one run, timed around the work only; prints its result as one JSON line. */
const runChild = async (method: Method, file: string) => {
  const sharp = (await import('sharp')).default;
  const { renderRenditions } = await import('../services/src/adapters/renditions');
  const { findEmbeddedJpegs } = await import('../services/src/domain/embedded-jpeg');
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  let detail: string;
  if (method === 'baseline') {
    const source = file.endsWith('.dng') ? previewOf(readFileSync(file), findEmbeddedJpegs) : file;
    const { info } = await sharp(source)
      .resize({ width: 400, height: 400, fit: 'inside' })
      .webp()
      .toBuffer({ resolveWithObject: true });
    detail = `thumbnail ${info.width}x${info.height}`;
  } else {
    const input = method === 'raw-renditions' ? previewOf(readFileSync(file), findEmbeddedJpegs) : file;
    const { thumbnail, preview } = await renderRenditions(input);
    detail = `preview ${preview.width}x${preview.height} ${(preview.data.length / 1024).toFixed(0)} KB, thumbnail ${thumbnail.width}x${thumbnail.height} ${(thumbnail.data.length / 1024).toFixed(0)} KB`;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(JSON.stringify({ seconds, peakRssMb: peak / MB, detail } satisfies RunResult));
};

const previewOf = (bytes: Buffer, find: (b: Buffer) => { jpegs: { start: number; end: number }[] }): Buffer => {
  const best = find(bytes).jpegs[0];
  if (!best) throw new Error('the RAW sample has no embedded JPEG');
  return bytes.subarray(best.start, best.end);
};

const child = (method: Method, file: string) =>
  runInChild<RunResult>(here, ['--child', method, file], `${method} on ${path.basename(file)}`);

/** The inputs, made once: pictures of noise and a RAW shaped as cameras lay out a DNG. */
const makeInputs = async (dir: string) => {
  const sharp = (await import('sharp')).default;
  const { aDng } = await import('../services/test/raw-sample');
  const noise = (width: number, height: number) =>
    sharp({
      create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    });
  const files = {
    jpeg: path.join(dir, 'photo.jpg'),
    png: path.join(dir, 'photo.png'),
    tiff: path.join(dir, 'photo.tif'),
    raw: path.join(dir, 'photo.dng'),
  };
  await noise(6000, 4000).jpeg({ quality: 92 }).toFile(files.jpeg);
  await noise(6000, 4000).png({ compressionLevel: 1 }).toFile(files.png);
  await noise(6000, 4000).tiff({ compression: 'none' }).toFile(files.tiff);
  const previewBytes = readFileSync(files.jpeg);
  const thumbnailBytes = await noise(160, 120).jpeg().toBuffer();
  // The sensor data fills the file to 25 MB, as a 24-megapixel camera's RAW would.
  const sensorBytes = Math.max(4096, 25 * MB - previewBytes.length - thumbnailBytes.length);
  writeFileSync(
    files.raw,
    aDng({
      thumbnail: { bytes: thumbnailBytes, width: 160, height: 120 },
      preview: { bytes: previewBytes, width: 6000, height: 4000 },
      sensorBytes,
    }),
  );
  return files;
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const main = async () => {
  const runs = Number(process.argv[2] ?? 3);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'thumbnail-bench-'));
  try {
    const files = await makeInputs(dir);
    const cases: { input: keyof typeof files; method: Method }[] = [
      { input: 'jpeg', method: 'renditions' },
      { input: 'jpeg', method: 'baseline' },
      { input: 'png', method: 'renditions' },
      { input: 'png', method: 'baseline' },
      { input: 'tiff', method: 'renditions' },
      { input: 'tiff', method: 'baseline' },
      { input: 'raw', method: 'raw-renditions' },
      { input: 'raw', method: 'baseline' },
    ];
    console.log(`load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores; median of ${runs}`);
    console.log('| Input | Size | Run | Time | Peak RSS | Output |');
    console.log('|---|---|---|---|---|---|');
    for (const { input, method } of cases) {
      const results: RunResult[] = [];
      for (let i = 0; i < runs; i++) results.push(await child(method, files[input]));
      const size = `${(statSync(files[input]).size / MB).toFixed(1)} MB`;
      console.log(
        `| ${input} | ${size} | ${method} | ${median(results.map((r) => r.seconds)).toFixed(2)} s | ${median(results.map((r) => r.peakRssMb)).toFixed(0)} MB | ${results[0]!.detail} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[2] === '--child') {
  await runChild(process.argv[3] as Method, process.argv[4]!);
} else {
  await main();
}
