const BYTES_PER_MEGABYTE = 1024 * 1024;
const SMALLEST_SHOWN = 0.05 * BYTES_PER_MEGABYTE;

/** File sizes read in megabytes with one decimal, e.g. '2.4 MB'; a non-empty file too small to show reads '< 0.1 MB'. */
export const formatFileSize = (bytes: number): string =>
  bytes > 0 && bytes < SMALLEST_SHOWN ? '< 0.1 MB' : `${(bytes / BYTES_PER_MEGABYTE).toFixed(1)} MB`;
