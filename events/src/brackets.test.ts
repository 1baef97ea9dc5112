import { describe, expect, it } from 'vitest';
import { BRACKET_GAP_MS, captureTimeMs, groupBrackets, type ShotExif, sceneCountOf } from './brackets';

const T0 = Date.UTC(2024, 4, 1, 10, 0, 0);

/** Shots named IMG_0001.jpg on, each `gapMs` after the previous, with the given exposure biases. */
const bracket = (firstNumber: number, startMs: number, biases: number[], gapMs = 400): ShotExif[] =>
  biases.map((exposureBias, i) => ({
    name: `IMG_${String(firstNumber + i).padStart(4, '0')}.jpg`,
    capturedAt: startMs + i * gapMs,
    exposureBias,
    exposureTime: 1 / 250,
  }));

describe('grouping HDR brackets into scenes', () => {
  it('puts a 3-shot bracket in one scene', () => {
    expect(groupBrackets(bracket(1, T0, [0, -2, 2]))).toEqual([1, 1, 1]);
  });

  it('puts a 5-shot bracket in one scene', () => {
    expect(groupBrackets(bracket(1, T0, [0, -1, 1, -2, 2]))).toEqual([1, 1, 1, 1, 1]);
  });

  it('tells two brackets apart when they follow each other closely: an exposure repeats', () => {
    const shots = [...bracket(1, T0, [0, -2, 2]), ...bracket(4, T0 + 1500, [0, -2, 2])];
    // The second bracket starts 1.5 s after the first one's last shot (within the gap), but its 0 EV is taken.
    expect(groupBrackets(shots)).toEqual([1, 1, 1, 2, 2, 2]);
  });

  it('makes a burst at one exposure one scene per shot', () => {
    expect(groupBrackets(bracket(1, T0, [0, 0, 0, 0], 200))).toEqual([1, 2, 3, 4]);
  });

  it('uses the exposure time when there is no bias, and a shot with neither never joins', () => {
    const byTime: ShotExif[] = [
      { name: 'a.jpg', capturedAt: T0, exposureTime: 1 / 60 },
      { name: 'b.jpg', capturedAt: T0 + 300, exposureTime: 1 / 250 },
      { name: 'c.jpg', capturedAt: T0 + 600, exposureTime: 1 / 15 },
      { name: 'd.jpg', capturedAt: T0 + 900 },
    ];
    expect(groupBrackets(byTime)).toEqual([1, 1, 1, 2]);
  });

  it('makes each file without EXIF its own scene', () => {
    const shots: ShotExif[] = [{ name: 'c.png' }, { name: 'a.png' }, { name: 'b.png' }];
    expect(groupBrackets(shots)).toEqual([3, 1, 2]);
    expect(sceneCountOf(groupBrackets(shots))).toBe(3);
  });

  it('groups a mixed set: brackets first in capture order, then the files without a capture time', () => {
    const shots: ShotExif[] = [
      { name: 'scan.tif' },
      ...bracket(1, T0, [0, -2, 2]),
      ...bracket(4, T0 + 60_000, [0, -2, 2]),
      { name: 'single.jpg', capturedAt: T0 + 30_000, exposureBias: 0 },
      { name: 'logo.png' },
    ];
    const scenes = groupBrackets(shots);
    expect(scenes).toEqual([5, 1, 1, 1, 3, 3, 3, 2, 4]);
    expect(sceneCountOf(scenes)).toBe(5);
  });

  it('sorts unsorted input by capture time and answers in the order given', () => {
    const [a, b, c, d, e, f] = [...bracket(1, T0, [0, -2, 2]), ...bracket(4, T0 + 10_000, [0, -2, 2])] as [
      ShotExif,
      ShotExif,
      ShotExif,
      ShotExif,
      ShotExif,
      ShotExif,
    ];
    expect(groupBrackets([f, a, d, c, e, b])).toEqual([2, 1, 2, 1, 2, 1]);
  });

  it('starts a new scene after a 4 s gap even when the exposure differs', () => {
    const shots: ShotExif[] = [
      { name: 'a.jpg', capturedAt: T0, exposureBias: 0 },
      { name: 'b.jpg', capturedAt: T0 + 4000, exposureBias: -2 },
    ];
    expect(groupBrackets(shots)).toEqual([1, 2]);
  });

  it('counts the gap from the end of the previous exposure, up to 2 s', () => {
    const longExposures: ShotExif[] = [
      { name: 'a.jpg', capturedAt: T0, exposureTime: 2 },
      { name: 'b.jpg', capturedAt: T0 + 2000 + BRACKET_GAP_MS, exposureTime: 8 },
      { name: 'c.jpg', capturedAt: T0 + 2000 + BRACKET_GAP_MS + 8000 + BRACKET_GAP_MS + 1, exposureTime: 0.5 },
    ];
    expect(groupBrackets(longExposures)).toEqual([1, 1, 2]);
  });

  it('orders shots taken in the same second by sequence number, then name', () => {
    const sameSecond: ShotExif[] = [
      { name: 'z.jpg', capturedAt: T0, exposureBias: 0, sequence: 1 },
      { name: 'a.jpg', capturedAt: T0, exposureBias: 0, sequence: 2 },
      { name: 'm.jpg', capturedAt: T0, exposureBias: 2, sequence: 2 },
    ];
    // z (seq 1) starts scene 1; a (seq 2, name a) repeats 0 EV: scene 2; m joins it with +2.
    expect(groupBrackets(sameSecond)).toEqual([1, 2, 2]);
  });

  it('groups nothing from nothing', () => {
    expect(groupBrackets([])).toEqual([]);
    expect(sceneCountOf([])).toBe(0);
  });
});

describe('reading a capture time from EXIF text', () => {
  it('reads the date, the fraction of a second and the offset', () => {
    expect(captureTimeMs('2024:05:01 10:00:00')).toBe(T0);
    expect(captureTimeMs('2024:05:01 10:00:00', '25')).toBe(T0 + 250);
    expect(captureTimeMs('2024:05:01 10:00:00', '007')).toBe(T0 + 7);
    expect(captureTimeMs('2024:05:01 12:00:00', undefined, '+02:00')).toBe(T0);
    expect(captureTimeMs('2024:05:01 07:30:00', '5', '-02:30')).toBe(T0 + 500);
  });

  it('gives no time for a missing or malformed date', () => {
    expect(captureTimeMs(undefined)).toBeUndefined();
    expect(captureTimeMs('')).toBeUndefined();
    expect(captureTimeMs('    :  :     :  :  ')).toBeUndefined();
    expect(captureTimeMs('2024:13:01 10:00:00')).toBeUndefined();
    expect(captureTimeMs(new Date(T0))).toBeUndefined();
  });
});
