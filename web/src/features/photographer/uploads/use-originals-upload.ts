import { useSyncExternalStore } from 'react';
import type { OriginalsUpload } from './originals-upload';

/** The upload's progress, re-rendered as Uppy reports it. */
export function useOriginalsUpload(upload: OriginalsUpload) {
  return useSyncExternalStore(upload.subscribe, upload.getSnapshot);
}
