import { describe, expect, it } from 'vitest';
import { formatFileSize } from './format-file-size';

describe('formatFileSize', () => {
  it('shows one megabyte as 1.0 MB', () => {
    expect(formatFileSize(1024 * 1024)).toBe('1.0 MB');
  });

  it('rounds to one decimal', () => {
    expect(formatFileSize(2.46 * 1024 * 1024)).toBe('2.5 MB');
  });

  it('shows small files as a fraction of a megabyte', () => {
    expect(formatFileSize(300 * 1024)).toBe('0.3 MB');
    expect(formatFileSize(0)).toBe('0.0 MB');
  });

  it('never shows a small but non-empty file as 0.0 MB', () => {
    expect(formatFileSize(20 * 1024)).toBe('< 0.1 MB');
  });
});
