import { captureTimeMs, groupBrackets, type ShotExif } from '@marketplace/events/brackets';
import { useEffect, useState } from 'react';
import { taskQueue } from './task-queue';

/** Only the tags the bracket grouping needs: exifr then reads no more of the file than it must. */
const EXIF_TAGS = [
  'DateTimeOriginal',
  'SubSecTimeOriginal',
  'OffsetTimeOriginal',
  // EXIF's ExposureBiasValue, under the name exifr gives it.
  'ExposureCompensation',
  'ExposureTime',
  'ImageNumber',
];

const readQueue = taskQueue(4);
const shots = new WeakMap<File, Promise<ShotExif>>();

const numberOrUndefined = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

async function parseShot(file: File): Promise<ShotExif> {
  try {
    const { default: exifr } = await import('exifr');
    // Text values as stored (not revived into local-time Dates), so captureTimeMs reads them the same anywhere.
    const tags = (await exifr.parse(file, { pick: EXIF_TAGS, reviveValues: false })) as
      | Record<string, unknown>
      | undefined;
    if (!tags) return { name: file.name };
    return {
      name: file.name,
      capturedAt: captureTimeMs(tags.DateTimeOriginal, tags.SubSecTimeOriginal, tags.OffsetTimeOriginal),
      exposureBias: numberOrUndefined(tags.ExposureCompensation),
      exposureTime: numberOrUndefined(tags.ExposureTime),
      sequence: numberOrUndefined(tags.ImageNumber),
    };
  } catch {
    // No EXIF, or a format exifr does not know: the file is its own scene.
    return { name: file.name };
  }
}

/** What the bracket grouping needs of one file's EXIF, read once per file (exifr reads only its head). */
export function readShotExif(file: File): Promise<ShotExif> {
  let shot = shots.get(file);
  if (!shot) {
    shot = readQueue(() => parseShot(file));
    shots.set(file, shot);
  }
  return shot;
}

/** The HDR scene (1-based) of every file, once all of their EXIF has been read. */
export async function scenesOf(files: readonly File[]): Promise<ReadonlyMap<File, number>> {
  const read = await Promise.all(files.map(readShotExif));
  const scenes = groupBrackets(read);
  return new Map(files.map((file, i) => [file, scenes[i] ?? i + 1]));
}

/** scenesOf, or no scenes at all when reading takes longer than `ms` (the order goes on without them). */
export const scenesWithin = (files: readonly File[], ms: number) =>
  Promise.race([scenesOf(files), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);

/** The scenes of the files as they are now; null while their EXIF is still being read. */
export function useFileScenes(files: readonly File[]): ReadonlyMap<File, number> | null {
  const [grouped, setGrouped] = useState<{ files: readonly File[]; scenes: ReadonlyMap<File, number> } | null>(null);
  useEffect(() => {
    let current = true;
    void scenesOf(files).then((scenes) => {
      if (current) setGrouped({ files, scenes });
    });
    return () => {
      current = false;
    };
  }, [files]);
  return grouped && grouped.files === files ? grouped.scenes : null;
}

/** How many scenes the files make. */
export const sceneCountIn = (scenes: ReadonlyMap<File, number>) => new Set(scenes.values()).size;

/** True when some scene holds more than one file: only then is there a grouping worth showing or storing. */
export const bracketsFound = (scenes: ReadonlyMap<File, number> | null): scenes is ReadonlyMap<File, number> =>
  !!scenes && sceneCountIn(scenes) < scenes.size;
