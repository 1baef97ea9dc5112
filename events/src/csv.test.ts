import { describe, expect, it } from 'vitest';
import { csvField, csvLines } from './csv';

describe('CSV fields', () => {
  it('leaves plain text and numbers as they are, and null empty', () => {
    expect(csvField('HDR')).toBe('HDR');
    expect(csvField(42)).toBe('42');
    expect(csvField(-8)).toBe('-8');
    expect(csvField(null)).toBe('');
  });

  it('quotes a field holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvField('Ben, the "Fixer"')).toBe('"Ben, the ""Fixer"""');
    expect(csvField('Oak, Street')).toBe('"Oak, Street"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('keeps text a spreadsheet would run as a formula as text, but not a negative amount', () => {
    expect(csvField('=HYPERLINK("http://evil.example")')).toBe('"\'=HYPERLINK(""http://evil.example"")"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+1 555')).toBe("'+1 555");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-8.00')).toBe('-8.00');
  });

  it('joins fields with commas and rows with CRLF', () => {
    expect(
      csvLines([
        ['a', 1],
        ['b,c', null],
      ]),
    ).toBe('a,1\r\n"b,c",');
  });
});
