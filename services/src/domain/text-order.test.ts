import { describe, expect, it } from 'vitest';
import { compareText } from './text-order';

/** Random texts from an alphabet: plain ones take the fast path, the others go to localeCompare. */
const randomText = (alphabet: string, maxLength: number, random: () => number) =>
  Array.from(
    { length: Math.floor(random() * (maxLength + 1)) },
    () => alphabet[Math.floor(random() * alphabet.length)],
  ).join('');

/** A seeded generator (mulberry32), so a failure repeats. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('compareText', () => {
  it('orders as localeCompare does: job type names and photo keys', () => {
    const names = [
      'Virtual staging',
      'HDR',
      'hdr',
      'Day to dusk',
      'day to Dusk',
      '360 tour',
      'Sky',
      'sky 2',
      'Sky 10',
      'Item removal',
      '',
    ];
    expect([...names].sort(compareText)).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const keys = [
      'orders/01JD8Z/originals/IMG_0010.jpg',
      'orders/01JD8Z/originals/IMG_002.jpg',
      'orders/01JD8Z/originals/img-0001.JPG',
      'orders/01JD8Z/originals/IMG 0001.jpg',
      'orders/01JD8Z/originals/a.b/c',
      'orders/01JD8Z/originals/DSC_1.NEF',
      'orders/01JD8Z/originals/Kitchen (2).jpg',
    ];
    expect([...keys].sort(compareText)).toEqual([...keys].sort((a, b) => a.localeCompare(b)));
  });

  it('gives the sign localeCompare gives for every pair of plain texts', () => {
    const random = seeded(28);
    // Few letters and short texts, so that equal letters, case ties and prefixes are common.
    const alphabet = 'aAbB zZ09_-./';
    for (let i = 0; i < 20_000; i++) {
      const a = randomText(alphabet, 6, random);
      const b = random() < 0.3 ? a.toUpperCase() : randomText(alphabet, 6, random);
      expect(Math.sign(compareText(a, b)), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(
        Math.sign(a.localeCompare(b)),
      );
    }
  });

  it('leaves any other text to localeCompare', () => {
    const random = seeded(29);
    const alphabet = 'aAé É-_./:#1 (';
    for (let i = 0; i < 5_000; i++) {
      const a = randomText(alphabet, 5, random);
      const b = randomText(alphabet, 5, random);
      expect(Math.sign(compareText(a, b))).toBe(Math.sign(a.localeCompare(b)));
    }
  });
});
