const BYTES_PER_MEGABYTE = 1024 * 1024;

/** File sizes read in megabytes with one decimal, e.g. '2.4 MB'. */
export const formatFileSize = (bytes: number): string => `${(bytes / BYTES_PER_MEGABYTE).toFixed(1)} MB`;
