/**
 * `a.localeCompare(b)`, without loading ICU's collator for the names and keys we hold. A
 * function's first `localeCompare` loads and builds the collator, about 6 to 8 ms of CPU on its
 * cold start (docs/decisions/0114-first-call-work-and-young-generation.md). For two texts of ASCII
 * letters, digits, spaces and `_ - . /` alone, the collator's order is computed here: the root
 * collation Node's `localeCompare` uses puts space, then `_ - . /` in that order, then digits, then
 * letters without regard to case; on a tie the first difference in case decides, lower case first.
 * Any other text goes to `localeCompare`, so the answer has the same sign for every pair
 * (services/src/domain/text-order.test.ts compares the two).
 */
const PLAIN = /^[A-Za-z0-9 _./-]*$/;

/** Where a character of a plain, lower-cased text sorts: the punctuation before digits and letters. */
const rank = (code: number) => {
  switch (code) {
    case 0x20: // space
      return 0;
    case 0x5f: // _
      return 1;
    case 0x2d: // -
      return 2;
    case 0x2e: // .
      return 3;
    case 0x2f: // /
      return 4;
    default:
      return code; // digits (0x30-0x39) before lower-case letters (0x61-0x7a)
  }
};

export const compareText = (a: string, b: string): number => {
  if (!PLAIN.test(a) || !PLAIN.test(b)) return a.localeCompare(b);
  const lowerA = a.toLowerCase();
  const lowerB = b.toLowerCase();
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const difference = rank(lowerA.charCodeAt(i)) - rank(lowerB.charCodeAt(i));
    if (difference) return difference < 0 ? -1 : 1;
  }
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  for (let i = 0; i < length; i++) {
    // The same letter in another case: lower case sorts first.
    if (a[i] !== b[i]) return a[i] === lowerA[i] ? -1 : 1;
  }
  return 0;
};
