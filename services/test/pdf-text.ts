import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of every page of a PDF, as a reader would extract it (Mozilla's PDF.js), one line per text run. */
export const pdfText = async (bytes: Uint8Array) => {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  const runs: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    for (const item of content.items) if ('str' in item && item.str.trim()) runs.push(item.str);
  }
  await document.destroy();
  return { pages: document.numPages, text: runs.join('\n') };
};
