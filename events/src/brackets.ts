/**
 * HDR bracket grouping: which dropped files are exposures of the same scene, from the EXIF the
 * browser reads of each file. The photographer sees the result as a suggested photo count and
 * decides; nothing here is enforced.
 *
 * The rule, exactly:
 * 1. Shots with a capture time are taken in capture order (ties: sequence number, then name).
 * 2. A shot joins the previous shot's scene when both hold:
 *    - it was taken at most {@link BRACKET_GAP_MS} (2 s) after the previous shot ended, that is
 *      after the previous shot's capture time plus its exposure time when known;
 *    - its exposure differs from every exposure already in that scene. The exposure is the
 *      exposure bias (compensation) when the file has one, else the exposure time; a shot with
 *      neither cannot be told apart, so it never joins.
 *    Otherwise it starts a new scene. The same exposure twice in a row is therefore two scenes
 *    (the same frame shot twice), and a burst at one exposure is one scene per shot.
 * 3. Shots without a capture time are each their own scene, after the timed ones, by name.
 * 4. Scenes are numbered from 1 in that order.
 */

/** The longest pause between two exposures of one bracket. */
export const BRACKET_GAP_MS = 2000;

/** What the browser read of one file's EXIF (all optional: many files carry none). */
export interface ShotExif {
  name: string;
  /** Capture time, ms since the epoch (see {@link captureTimeMs}). */
  capturedAt?: number;
  /** Exposure bias in EV (EXIF ExposureBiasValue, exifr's ExposureCompensation). */
  exposureBias?: number;
  /** Exposure time in seconds. */
  exposureTime?: number;
  /** The camera's image or sequence number, when it records one. */
  sequence?: number;
}

const finite = (value: number | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

/** The exposure that tells bracket shots apart, as a comparable key; null when unknown. */
const exposureKey = (shot: ShotExif) => {
  if (finite(shot.exposureBias)) return `bias:${Math.round(shot.exposureBias * 100)}`;
  if (finite(shot.exposureTime) && shot.exposureTime > 0) return `time:${shot.exposureTime.toPrecision(6)}`;
  return null;
};

const byName = (a: ShotExif, b: ShotExif) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The scene (1-based) of each shot, in the order the shots were given. */
export function groupBrackets(shots: readonly ShotExif[]): number[] {
  const indexed = shots.map((shot, index) => ({ shot, index }));
  const timed = indexed
    .filter(({ shot }) => finite(shot.capturedAt))
    .sort(
      (a, b) =>
        (a.shot.capturedAt as number) - (b.shot.capturedAt as number) ||
        (a.shot.sequence ?? 0) - (b.shot.sequence ?? 0) ||
        byName(a.shot, b.shot),
    );
  const untimed = indexed.filter(({ shot }) => !finite(shot.capturedAt)).sort((a, b) => byName(a.shot, b.shot));

  const scenes = new Array<number>(shots.length);
  let scene = 0;
  let previous: ShotExif | null = null;
  let exposuresInScene = new Set<string>();
  for (const { shot, index } of timed) {
    const exposure = exposureKey(shot);
    const previousEnd = previous
      ? (previous.capturedAt as number) + (finite(previous.exposureTime) ? previous.exposureTime * 1000 : 0)
      : 0;
    const joins =
      previous !== null &&
      exposure !== null &&
      (shot.capturedAt as number) - previousEnd <= BRACKET_GAP_MS &&
      !exposuresInScene.has(exposure);
    if (!joins) {
      scene += 1;
      exposuresInScene = new Set();
    }
    if (exposure !== null) exposuresInScene.add(exposure);
    scenes[index] = scene;
    previous = shot;
  }
  for (const { index } of untimed) {
    scene += 1;
    scenes[index] = scene;
  }
  return scenes;
}

/** How many scenes a grouping found. */
export const sceneCountOf = (scenes: readonly number[]) => new Set(scenes).size;

const EXIF_DATE = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const EXIF_OFFSET = /^([+-])(\d{2}):(\d{2})$/;

/**
 * A capture time in ms from EXIF's text fields: DateTimeOriginal ('2024:05:01 10:00:01'), its
 * SubSecTimeOriginal ('25' = 0.25 s) and OffsetTimeOriginal ('+02:00') when present. Without an
 * offset the local time is read as UTC: only the gaps between shots of one camera matter, and
 * they come out the same whatever the browser's time zone. Undefined when there is no valid date.
 */
export function captureTimeMs(dateTimeOriginal: unknown, subSec?: unknown, offset?: unknown): number | undefined {
  if (typeof dateTimeOriginal !== 'string') return undefined;
  const match = EXIF_DATE.exec(dateTimeOriginal.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  const subSecDigits = typeof subSec === 'number' ? String(subSec) : typeof subSec === 'string' ? subSec.trim() : '';
  if (/^\d+$/.test(subSecDigits)) ms += Math.round(Number(`0.${subSecDigits}`) * 1000);
  const offsetMatch = typeof offset === 'string' ? EXIF_OFFSET.exec(offset.trim()) : null;
  if (offsetMatch) {
    const sign = offsetMatch[1] === '-' ? -1 : 1;
    ms -= sign * (Number(offsetMatch[2]) * 60 + Number(offsetMatch[3])) * 60_000;
  }
  return Number.isFinite(ms) ? ms : undefined;
}
